import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';
import type { Middleware } from 'koa';
import { AppError } from '../errors.ts';
import { clientNetwork } from './failed-auth-throttle.ts';

const brotli = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

/** `'sha256-…'` of each inline script, as a Content-Security-Policy source. */
function scriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(([, body]) => `'sha256-${createHash('sha256').update(body ?? '').digest('base64')}'`);
}

/**
 * GraphiQL as @graphql-yoga/render-graphiql builds it: its code, styles,
 * fonts and editor workers are inside the page (no CDN, so it works offline),
 * rendered once, when first asked for. The policy lets the page run only
 * its own inline script (by hash), its workers (blob: URLs it makes) and
 * data: fonts and images, and talk only to this origin.
 *
 * The page is about 9 MB: it is compressed once (brotli and gzip, in the
 * thread pool, on the first request) and sent in the encoding the browser
 * accepts, with an ETag so that a browser's copy is revalidated with a 304.
 */
export function offlineGraphiQL(options: GraphiQLOptions) {
  let page: { html: string; policy: string } | undefined;
  let encoded: Promise<EncodedPage> | undefined;
  const rendered = () => (page ??= pageWithPolicy(renderGraphiQL(options)));
  const plugin: Plugin = {
    async onResponse({ request, response, setResponse, fetchAPI }) {
      if (!response.headers.get('content-type')?.startsWith('text/html')) return;
      const { policy, html } = rendered();
      const ready = await (encoded ??= encodePage(html));
      const headers = {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': policy,
        ETag: ready.etag,
        // Kept, but asked about again each time: a new version shows at once.
        'Cache-Control': 'no-cache',
        Vary: 'Accept-Encoding',
      };
      if (matchesEtag(request.headers.get('if-none-match'), ready.etag)) {
        setResponse(new fetchAPI.Response(null, { status: 304, headers }));
        return;
      }
      const encoding = chooseEncoding(request.headers.get('accept-encoding'));
      const body = encoding === 'identity' ? ready.identity : ready[encoding];
      setResponse(new fetchAPI.Response(body, {
        status: 200,
        headers: { ...headers, ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }) },
      }));
    },
  };
  return { render: () => rendered().html, plugin };
}

interface EncodedPage {
  identity: Uint8Array<ArrayBuffer>;
  br: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  etag: string;
}

async function encodePage(html: string): Promise<EncodedPage> {
  const identity = Buffer.from(html);
  const [br, gzip] = await Promise.all([
    // Quality 6: about a fifth of the size in a fraction of a second (11 takes seconds).
    brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipAsync(identity),
  ]);
  // Weak: the same page in every encoding.
  // (Copied once into plain byte arrays, the body type a Response takes.)
  return { identity: new Uint8Array(identity), br: new Uint8Array(br), gzip: new Uint8Array(gzip), etag: `W/"${createHash('sha256').update(identity).digest('base64url')}"` };
}

/** The best encoding the Accept-Encoding header allows (q=0 refuses one). */
export function chooseEncoding(header: string | null): 'br' | 'gzip' | 'identity' {
  const accepted = new Map<string, number>();
  for (const item of (header ?? '').split(',')) {
    const [name = '', ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return allows('br') ? 'br' : allows('gzip') ? 'gzip' : 'identity';
}

function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

function pageWithPolicy(html: string) {
  const policy = [
    "default-src 'none'",
    `script-src ${scriptHashes(html).join(' ')}`,
    // The editor adds style elements and attributes as it runs.
    "style-src 'unsafe-inline'",
    'worker-src blob:',
    'img-src data:',
    'font-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, policy };
}

/** Most client addresses remembered; past it the least recently seen go. */
const MAX_ADDRESSES = 50_000;

export interface PageLoadLimits {
  /** Page loads an address may make at once (GRAPHIQL_PAGE_BURST). */
  burst: number;
  /** Page loads an address regains a minute (GRAPHIQL_PAGES_PER_MINUTE). */
  perMinute: number;
}

/**
 * GraphiQL's page needs no key and weighs about 9 MB (2 to 2.5 MB
 * compressed): page loads are limited per client address (IPv6 by /64, as
 * failed keys are), before authentication, so that asking for it in a loop
 * cannot fill this process's outgoing bandwidth and memory. Past its share
 * an address gets 429 with Retry-After. A revalidation answered 304 (a
 * browser's cached copy still current) is not counted.
 *
 * The count is a generic cell rate (one load every 60/perMinute s, `burst`
 * ahead at most), in memory per instance, like the failed-key throttle.
 */
export function limitGraphiQLPageLoads(limits: PageLoadLimits): Middleware {
  const interval = 60_000 / limits.perMinute;
  const tolerance = (limits.burst - 1) * interval;
  /** Per address: when its count is back to zero (the "theoretical arrival time"). */
  const dueAt = new Map<string, number>();
  return async (ctx, next) => {
    // yoga's own rule for serving the page (shouldRenderGraphiQL), on its endpoint.
    if (ctx.method !== 'GET' || ctx.path !== '/graphql' || !ctx.get('accept').includes('text/html')) return next();
    const address = clientNetwork(ctx.ip);
    const now = Date.now();
    const due = Math.max(dueAt.get(address) ?? now, now);
    if (due - now > tolerance) {
      const wait = Math.ceil((due - tolerance - now) / 1000);
      ctx.set('Retry-After', String(wait));
      throw new AppError('TOO_MANY_REQUESTS', `Too many GraphiQL page loads from this address (GRAPHIQL_PAGE_BURST, GRAPHIQL_PAGES_PER_MINUTE); retry in ${wait} s`);
    }
    // Taken before the page is sent (concurrent loads count at once), given back for a 304.
    dueAt.delete(address);
    dueAt.set(address, due + interval);
    if (dueAt.size > MAX_ADDRESSES) dueAt.delete(dueAt.keys().next().value as string);
    await next();
    if (ctx.status === 304) dueAt.set(address, (dueAt.get(address) ?? now) - interval);
  };
}
