// One organization's slow reads cannot take the whole request pool: each
// organization holds at most REQUEST_CONNECTIONS_PER_ORGANIZATION (default
// half of DATABASE_POOL_SIZE), so another organization keeps being served,
// and the slow organization's requests past its share answer 503 with
// Retry-After naming the cap. Runs on a PostgreSQL of its own, which it locks.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { lockablePostgres } from '../helpers/lockable-postgres.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';

const POOL_SIZE = 4;
const SHARE = POOL_SIZE / 2;

let database: Awaited<ReturnType<typeof lockablePostgres>>;
let service: RunningService;
let slow: TestOrganization;
let other: TestOrganization;
/** The service's log, as JSON lines. */
const logLines: Array<{ level: number; msg: string; err?: { stack?: string } }> = [];

beforeAll(async () => {
  database = await lockablePostgres('pool-share');
  service = await startTestService({
    databaseUrl: database.url,
    logger: pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) }),
    env: { DATABASE_POOL_SIZE: String(POOL_SIZE), REQUEST_CONNECTION_WAIT_MS: '1500', REQUEST_STATEMENT_TIMEOUT_MS: '15000', REQUEST_LOCK_TIMEOUT_MS: '15000' },
  });
  slow = await createOrganization(service.db, undefined, 'pool-share-slow');
  other = await createOrganization(service.db, undefined, 'pool-share-other');
}, 120_000);
afterAll(async () => {
  await service?.stop().catch(() => {});
  await database?.stop();
});

const waitingForLocks = () => database.waitingForLocks();

describe('each organization\'s share of the request pool', () => {
  it('keeps serving another organization while one organization\'s reads hang, and answers the hanging one 503 past its share', async () => {
    const slowRest = restClient(service.url, slow.key);
    const otherRest = restClient(service.url, other.key);
    // The slow organization's reads of tasks hang on a lock (as slow reads would hold their connections).
    await database.locker.query('BEGIN');
    await database.locker.query('LOCK TABLE tasks IN ACCESS EXCLUSIVE MODE');
    let hanging: Array<Promise<{ status: number }>> = [];
    try {
      hanging = Array.from({ length: POOL_SIZE }, () => slowRest('GET', '/v1/tasks'));
      await waitFor(async () => (await waitingForLocks()) >= SHARE, `${SHARE} reads waiting for the lock`, 10_000, 50);

      // Another organization is served at once, from the rest of the pool.
      const served = await otherRest('GET', '/v1/consumer-cases');
      expect(served.status).toBe(200);

      // Past its share the slow organization waits for its own, then gets a 503 naming the cap; only its share holds connections.
      const refused = await slowRest('GET', '/v1/consumer-cases');
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: expect.stringContaining('REQUEST_CONNECTIONS_PER_ORGANIZATION') });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await waitingForLocks()).toBe(SHARE);
      // A refusal under load is a warning without a stack, not an error: a tenant cannot flood the error log.
      const logged = logLines.filter((line) => line.msg.includes('REQUEST_CONNECTIONS_PER_ORGANIZATION') || line.err?.stack?.includes('REQUEST_CONNECTIONS_PER_ORGANIZATION'));
      expect(logged.length).toBeGreaterThan(0);
      expect(logged.every((line) => line.level === 40 && line.err === undefined)).toBe(true);
    } finally {
      await database.locker.query('COMMIT');
    }
    // Whatever the hanging reads were given: an answer once the lock went, or 503 past their wait; never a 500.
    for (const answer of await Promise.all(hanging)) expect([200, 503]).toContain(answer.status);
  }, 60_000);
});
