import { createHash } from 'node:crypto';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';

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
 */
export function offlineGraphiQL(options: GraphiQLOptions) {
  let page: { html: string; policy: string } | undefined;
  const rendered = () => (page ??= pageWithPolicy(renderGraphiQL(options)));
  const plugin: Plugin = {
    onResponse({ response }) {
      if (response.headers.get('content-type')?.startsWith('text/html')) response.headers.set('Content-Security-Policy', rendered().policy);
    },
  };
  return { render: () => rendered().html, plugin };
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
