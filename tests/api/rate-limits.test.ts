// Rate limits per key and per organization, counted in PostgreSQL: two
// instances of the service share them. A day-long window keeps the counts
// from resetting during the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { createKey, createOrganization, startServicePair, startTestService } from '../helpers/service.ts';

const LIMITS = { RATE_LIMIT_PER_KEY: '5', RATE_LIMIT_PER_ORGANIZATION: '8', RATE_LIMIT_WINDOW_SECONDS: '86400' };
let first: RunningService;
let second: RunningService;

beforeAll(async () => {
  [first, second] = await startServicePair(LIMITS);
});
afterAll(async () => {
  await first?.stop();
  await second?.stop();
});

const get = (service: RunningService, key: string) => fetch(`${service.url}/v1/consumer-cases`, { headers: { 'x-api-key': key } });

describe('rate limits', () => {
  it('counts per key, tells the caller how many are left, and answers 429 with Retry-After past the limit', async () => {
    const org = await createOrganization(first.db, undefined, 'limited');
    for (let i = 1; i <= 5; i++) {
      const response = await get(first, org.key);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe('5');
      expect(response.headers.get('ratelimit-remaining')).toBe(String(5 - i));
      const reset = Number(response.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(86_400);
    }
    const refused = await get(first, org.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await refused.json();
    expect(body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(body.message).toMatch(/^Too many requests: the API key limit is 5 per 86400 s; retry in \d+ s$/);
    // GraphQL counts against the same key.
    const graphql = await fetch(`${first.url}/graphql`, {
      method: 'POST', headers: { 'x-api-key': org.key, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ consumerCases { meta { total } } }' }),
    });
    expect(graphql.status).toBe(429);
    expect(graphql.headers.get('retry-after')).not.toBeNull();
    // In GraphQL's own shape, with the same code as everywhere else.
    const graphqlBody = await graphql.json();
    expect(graphqlBody.errors[0]).toMatchObject({ message: expect.stringMatching(/^Too many requests/), extensions: { code: 'TOO_MANY_REQUESTS' } });
  });

  it('counts all keys of an organization together', async () => {
    const org = await createOrganization(first.db, undefined, 'limited-org');
    const other = await createKey(first.db, org.id, ['consumer_cases:read']);
    for (let i = 0; i < 5; i++) expect((await get(first, org.key)).status).toBe(200);
    // The second key has 5 of its own, but the organization only 3 left.
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(first, other)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await get(first, other);
    expect((await refused.json()).message).toMatch(/the organization limit is 8 per 86400 s/);
  });

  it('is shared by every instance', async () => {
    const org = await createOrganization(first.db, undefined, 'limited-shared');
    const statuses = [];
    for (const service of [first, second, first, second, first, second]) statuses.push((await get(service, org.key)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('far from the limit counts in blocks, so most requests write nothing, and still tells the exact number left', async () => {
    const roomy = await startTestService({ env: { RATE_LIMIT_PER_KEY: '1000', RATE_LIMIT_PER_ORGANIZATION: '0', RATE_LIMIT_WINDOW_SECONDS: '86400' } });
    try {
      const org = await createOrganization(roomy.db, undefined, 'roomy');
      for (let i = 1; i <= 40; i++) {
        const response = await get(roomy, org.key);
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit-remaining')).toBe(String(1000 - i));
      }
      // The first request counted 1, the second took a block of 50 (a 16th of the 999 left, at most 50); the other 38 wrote nothing.
      const apiKey = await roomy.db.apiKey.findFirstOrThrow({ where: { organizationId: org.id } });
      const counters = await roomy.db.rateLimitWindow.findMany({ where: { bucket: `key:${apiKey.id}` } });
      expect(counters.map((counter) => counter.count)).toEqual([51]);
    } finally {
      await roomy.stop();
    }
  });

  it('does not count requests without a valid key', async () => {
    const response = await get(first, 'cpk_invalid');
    expect(response.status).toBe(401);
    expect(response.headers.get('ratelimit-limit')).toBeNull();
  });
});
