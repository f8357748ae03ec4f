// CORS only for configured origins (none by default; same-origin pages need
// none), and GraphiQL served whole from the installed package: no script,
// style, font or image from anywhere else, under a Content-Security-Policy.
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

const APP = 'https://app.example.com';
let closed: RunningService;
let open: RunningService;
let org: TestOrganization;

beforeAll(async () => {
  [closed, open] = await Promise.all([startTestService(), startTestService({ env: { CORS_ORIGINS: `${APP}, http://localhost:5173` } })]);
  org = await createOrganization(closed.db, undefined, 'cors');
});
afterAll(async () => {
  await closed?.stop();
  await open?.stop();
});

const CORS_HEADERS = ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-headers', 'access-control-allow-methods'];
const corsOf = (response: Response) => Object.fromEntries(CORS_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)]] : [])));

function post(service: RunningService, origin: string) {
  return fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': org.key, origin },
    body: JSON.stringify({ query: '{ tasks { meta { total } } }' }),
  });
}

function preflight(service: RunningService, origin: string) {
  return fetch(`${service.url}/graphql`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
  });
}

describe('CORS', () => {
  it('allows no other origin by default, with or without credentials', async () => {
    for (const origin of ['https://evil.example', APP, 'null']) {
      const answer = await post(closed, origin);
      expect(answer.status).toBe(200);
      expect(corsOf(answer)).toEqual({});
      expect(corsOf(await preflight(closed, origin))).toEqual({});
    }
  });

  it('allows the configured origins only, without credentials', async () => {
    const allowed = await post(open, APP);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(allowed.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    const flight = await preflight(open, 'http://localhost:5173');
    expect(flight.status).toBe(204);
    expect(corsOf(flight)).toMatchObject({ 'access-control-allow-origin': 'http://localhost:5173', 'access-control-allow-methods': 'GET, POST' });
    expect(flight.headers.get('access-control-allow-headers')).toContain('X-API-Key');
    for (const origin of ['https://evil.example', 'https://app.example.com.evil.example', 'http://app.example.com']) {
      expect(corsOf(await post(open, origin)), origin).toEqual({});
      expect(corsOf(await preflight(open, origin)), origin).toEqual({});
    }
  });

  it('sends no CORS headers from REST', async () => {
    const answer = await fetch(`${open.url}/v1/tasks`, { headers: { 'x-api-key': org.key, origin: APP } });
    expect(corsOf(answer)).toEqual({});
  });
});

describe('GraphiQL', () => {
  it('is one page with everything inside: no script, style, font or image from elsewhere', async () => {
    const response = await fetch(`${closed.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('YogaGraphiQL.renderYogaGraphiQL');
    // Nothing is loaded by address: no src= or href= but data: URLs, no @import, CSS url() only data:.
    const references = [...html.matchAll(/\b(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]!);
    const markup = html.replace(/<script>[\s\S]*?<\/script>/g, '');
    const markupReferences = [...markup.matchAll(/\b(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]!);
    expect(markupReferences.length).toBeGreaterThan(0);
    expect(markupReferences.filter((ref) => !ref.startsWith('data:'))).toEqual([]);
    expect(references.filter((ref) => /^(https?:)?\/\//i.test(ref) && /unpkg|jsdelivr|cdn|esm\.sh/i.test(ref))).toEqual([]);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!).join('\n');
    const urls = [...styles.matchAll(/url\(\s*["']?([^"')]+)/g)].map((m) => m[1]!);
    expect(urls.filter((url) => !url.startsWith('data:') && !url.startsWith('#'))).toEqual([]);
    expect(styles).not.toMatch(/@import/);
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+rel=["']?stylesheet/i);
  });

  it('carries a Content-Security-Policy that allows only its own inline script, blob workers and this origin', async () => {
    const response = await fetch(`${closed.url}/graphql`, { headers: { accept: 'text/html' } });
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain('worker-src blob:');
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:/);
    // JSON answers carry none.
    expect((await post(closed, 'https://evil.example')).headers.get('content-security-policy')).toBeNull();
  });

  it('is sent compressed when the browser accepts it, and revalidated with a 304', async () => {
    const plain = await page({ 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toContain('YogaGraphiQL.renderYogaGraphiQL');

    const gzipped = await page({ 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);

    const brotli = await page({ 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['content-security-policy']).toContain("default-src 'none'");

    const etag = gzipped.headers.etag as string;
    expect(etag).toBeTruthy();
    expect(plain.headers.etag).toBe(etag);
    expect(gzipped.headers['cache-control']).toBeTruthy();
    const again = await page({ 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Another version's tag gets the page.
    expect((await page({ 'accept-encoding': 'gzip', 'if-none-match': 'W/"old"' })).status).toBe(200);
  });
});

/** GET /graphql as a browser asks for the page, read as raw bytes (fetch would decompress). */
function page(headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    get(`${closed.url}/graphql`, { headers: { accept: 'text/html', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}
