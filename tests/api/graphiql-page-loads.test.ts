// GraphiQL's page needs no key and weighs megabytes: loads are limited per
// client address (429 with Retry-After past them); a 304 revalidation is not
// counted, and the address's API requests are not affected.
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient } from '../helpers/http.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;

beforeAll(async () => {
  service = await startTestService({ env: { GRAPHIQL_PAGE_BURST: '3', GRAPHIQL_PAGES_PER_MINUTE: '1' } });
  org = await createOrganization(service.db, undefined, 'graphiql-loads');
});
afterAll(async () => {
  await service?.stop();
});

/** GET /graphql as a browser asks for the page (raw bytes: no decompression). */
function page(headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    get(`${service.url}/graphql`, { headers: { accept: 'text/html', 'accept-encoding': 'gzip', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe('GraphiQL page loads', () => {
  it('are limited per address: past the burst 429 with Retry-After, in GraphQL\'s error shape; 304s are free', async () => {
    const first = await page();
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    // A browser's revalidation of its copy costs nothing (the page is not sent).
    for (let i = 0; i < 3; i += 1) expect((await page({ 'if-none-match': etag })).status).toBe(304);
    expect((await page()).status).toBe(200);
    expect((await page({ 'accept-encoding': 'identity' })).status).toBe(200);

    // The burst of 3 is spent: concurrent loads are all refused, before any page is sent.
    const refused = await Promise.all(Array.from({ length: 10 }, () => page({ 'accept-encoding': 'identity' })));
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      const body = JSON.parse(answer.body.toString('utf8'));
      expect(body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
      expect(body.errors[0].message).toContain('GRAPHIQL_PAGES_PER_MINUTE');
      expect(answer.body.length).toBeLessThan(1000);
    }

    // The same address's API calls go on.
    const answer = await graphqlClient(service.url, org.key)('{ tasks { meta { total } } }');
    expect(answer.status).toBe(200);
    expect(answer.errors).toBeUndefined();
  }, 60_000);
});
