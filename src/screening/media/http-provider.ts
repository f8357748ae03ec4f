import { parseArticlesJson, parseFeedXml } from './article-formats.ts';
import { MediaProviderError } from './media-errors.ts';
import type { AdverseMediaProvider, AdverseMediaQuery, MediaArticle } from './provider.ts';

// A news or search API reached over HTTP: NewsAPI-shaped JSON (NewsAPI,
// and the many services that copy its answer) or an RSS/Atom search feed
// (e.g. a news search RSS). Bounded in time and size; every failure is a
// MediaProviderError saying which kind it was.

export interface HttpMediaProviderConfig {
  id?: string;
  /**
   * The search URL. {query}: the name, quoted and URL-encoded; {limit}: the
   * number of articles wanted; {apiKey}: the key, for APIs that take it in
   * the URL. E.g. `https://newsapi.org/v2/everything?q={query}&pageSize={limit}`.
   */
  urlTemplate: string;
  format: 'newsapi' | 'rss';
  apiKey?: string;
  /** Header carrying apiKey (default X-Api-Key); unused when the template has {apiKey}. */
  apiKeyHeader?: string;
  headers?: Record<string, string>;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Largest accepted response body (default 5 MiB). */
  maxBytes?: number;
  /** The subject's name and then its aliases are searched, one request each, up to this many (default 3). */
  maxQueries?: number;
}

const DEFAULT_LIMIT = 50;

export class HttpMediaProvider implements AdverseMediaProvider {
  readonly id: string;

  constructor(private readonly config: HttpMediaProviderConfig) {
    if (!config.urlTemplate.includes('{query}')) throw new Error('urlTemplate must contain {query}');
    if (!/^https?:\/\//.test(config.urlTemplate)) throw new Error('urlTemplate must be an http(s) URL');
    this.id = config.id ?? `http:${new URL(config.urlTemplate.replace(/\{\w+\}/g, 'x')).host}`;
  }

  async search(query: AdverseMediaQuery, options: { signal?: AbortSignal } = {}): Promise<MediaArticle[]> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const names = [...new Set([query.name, ...(query.aliases ?? [])].map((n) => n.trim()).filter(Boolean))].slice(0, this.config.maxQueries ?? 3);
    const byId = new Map<string, MediaArticle>();
    // One name after the other: search APIs rate-limit, and the first name usually suffices.
    for (const name of names) {
      for (const article of await this.request(name, limit, options.signal)) if (!byId.has(article.id)) byId.set(article.id, article);
      if (byId.size >= limit) break;
    }
    return [...byId.values()].slice(0, limit);
  }

  /** The request URL for one name. */
  urlFor(name: string, limit: number): string {
    return this.config.urlTemplate
      .replaceAll('{query}', encodeURIComponent(`"${name.replaceAll('"', '')}"`))
      .replaceAll('{limit}', String(limit))
      .replaceAll('{apiKey}', encodeURIComponent(this.config.apiKey ?? ''));
  }

  private async request(name: string, limit: number, callerSignal?: AbortSignal): Promise<MediaArticle[]> {
    const url = this.urlFor(name, limit);
    // Where, without the query string (it may hold the key).
    const where = `${new URL(url).origin}${new URL(url).pathname}`;
    const timeout = AbortSignal.timeout(this.config.timeoutMs ?? 10_000);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    const headers: Record<string, string> = {
      accept: this.config.format === 'rss' ? 'application/rss+xml, application/atom+xml, application/xml, text/xml' : 'application/json',
      ...this.config.headers,
    };
    if (this.config.apiKey && !this.config.urlTemplate.includes('{apiKey}')) headers[this.config.apiKeyHeader ?? 'X-Api-Key'] = this.config.apiKey;
    const failed = (error: unknown): MediaProviderError => {
      if (error instanceof MediaProviderError) return error;
      if (timeout.aborted) return new MediaProviderError(this.id, 'TIMEOUT', `${where}: no answer within ${this.config.timeoutMs ?? 10_000} ms`, undefined, { cause: error });
      if (callerSignal?.aborted) return new MediaProviderError(this.id, 'ABORTED', `${where}: aborted`, undefined, { cause: error });
      return new MediaProviderError(this.id, 'NETWORK', `${where}: ${(error as Error).message}`, undefined, { cause: error });
    };
    try {
      const response = await fetch(url, { headers, signal, redirect: 'follow' });
      if (!response.ok) {
        await response.body?.cancel();
        throw new MediaProviderError(this.id, 'HTTP_STATUS', `${where}: HTTP ${response.status}`, response.status);
      }
      const body = await this.readBounded(response, where);
      try {
        return this.config.format === 'rss' ? parseFeedXml(body) : parseArticlesJson(JSON.parse(body));
      } catch (error) {
        throw new MediaProviderError(this.id, 'INVALID_RESPONSE', `${where}: ${(error as Error).message}`, undefined, { cause: error });
      }
    } catch (error) {
      throw failed(error);
    }
  }

  private async readBounded(response: Response, where: string): Promise<string> {
    const maxBytes = this.config.maxBytes ?? 5 * 1024 * 1024;
    const tooLarge = () => new MediaProviderError(this.id, 'TOO_LARGE', `${where}: response larger than ${maxBytes} bytes`);
    if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
      await response.body?.cancel();
      throw tooLarge();
    }
    if (!response.body) return '';
    const chunks: Uint8Array[] = [];
    let total = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}
