// Failed authentications are throttled per client address: past a burst,
// wrong keys get 429 with Retry-After without a database round trip, while a
// key that works keeps working from the same address.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../../src/auth/api-keys.ts';
import { TenantSessions } from '../../src/db/tenant-sessions.ts';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;
const BURST = 5;

beforeAll(async () => {
  service = await startTestService({ env: { FAILED_AUTH_BURST: String(BURST), FAILED_AUTH_PER_MINUTE: '1' } });
  org = await createOrganization(service.db, undefined, 'failed-keys');
});
afterAll(() => service?.stop());

describe('failed keys', () => {
  it('past the burst answer 429 without reaching PostgreSQL, and a working key keeps working', async () => {
    const good = restClient(service.url, org.key);
    expect((await good('GET', '/v1/consumer-cases')).status).toBe(200);
    // Every authentication that reaches the database opens a session on the request pool.
    const lookups = vi.spyOn(TenantSessions.prototype, 'open');
    try {
      for (let i = 0; i < BURST; i++) {
        expect((await restClient(service.url, generateApiKey())('GET', '/v1/consumer-cases')).status).toBe(401);
      }
      expect(lookups).toHaveBeenCalledTimes(BURST);

      for (let i = 0; i < 20; i++) {
        const wrong = generateApiKey();
        const rest = await restClient(service.url, wrong)('GET', '/v1/consumer-cases');
        expect(rest.status).toBe(429);
        expect(rest.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: expect.stringMatching(/failed authentications/) });
        expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
        const gql = await graphqlClient(service.url, wrong)('{ consumerCases { meta { total } } }');
        expect(gql.status).toBe(429);
        expect(gql.errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');
      }
      expect(lookups).toHaveBeenCalledTimes(BURST);

      // The key that works still does, from the same address (and is looked up as usual).
      expect((await good('GET', '/v1/consumer-cases')).status).toBe(200);
      expect((await graphqlClient(service.url, org.key)('{ consumerCases { meta { total } } }')).status).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(BURST + 2);
      // Requests without any key are not authentication attempts: still 401.
      expect((await restClient(service.url)('GET', '/v1/consumer-cases')).status).toBe(401);
    } finally {
      lookups.mockRestore();
    }
  });
});
