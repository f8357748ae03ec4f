import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';

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
