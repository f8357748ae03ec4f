// When PostgreSQL cannot keep up (every request connection busy, a write that
// cannot start its transaction, PostgreSQL paused), requests answer 503 with
// Retry-After in the error shape, quickly, never a 500 or a hang; and the
// service serves again once PostgreSQL does. Runs on a PostgreSQL of its own,
// which it locks and pauses.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, type HttpResult, restClient } from '../helpers/http.ts';
import { lockablePostgres } from '../helpers/lockable-postgres.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';

const POOL_SIZE = 3;
const STATEMENT_TIMEOUT_MS = 4000;

let database: Awaited<ReturnType<typeof lockablePostgres>>;
let service: RunningService;
let org: TestOrganization;

beforeAll(async () => {
  database = await lockablePostgres('overload');
  service = await startTestService({
    databaseUrl: database.url,
    env: {
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      REQUEST_CONNECTION_WAIT_MS: '1000',
      REQUEST_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      REQUEST_LOCK_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    },
  });
  org = await createOrganization(service.db, undefined, 'overload');
}, 120_000);
afterAll(async () => {
  await service?.stop().catch(() => {});
  await database?.stop();
});

const UNAVAILABLE = /busy|unavailable|did not answer/i;

function expectRest503(answer: HttpResult) {
  expect(answer.status).toBe(503);
  expect(answer.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: expect.stringMatching(UNAVAILABLE) });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** A GraphQL request, with its Retry-After header. */
async function graphql(query: string) {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', 'x-api-key': org.key },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

function expectGraphQL503(answer: Awaited<ReturnType<typeof graphql>>) {
  expect(answer.status).toBe(503);
  expect(answer.body.errors[0]).toMatchObject({ message: expect.stringMatching(UNAVAILABLE), extensions: { code: 'SERVICE_UNAVAILABLE' } });
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
}

/** Holds an ACCESS EXCLUSIVE lock on `table` while `work` runs, once `waiting` statements wait for it. */
async function withTableLocked<T>(table: string, waiting: number, start: () => Array<Promise<unknown>>, work: () => Promise<T>): Promise<T> {
  const { locker } = database;
  const lockerPid = (await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  await locker.query('BEGIN');
  try {
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const blocked = start();
    await waitFor(async () => (await database.waitingForLocks(lockerPid)) >= waiting, `${waiting} statements waiting for ${table}`, 10_000, 50);
    try {
      return await work();
    } finally {
      await locker.query('COMMIT');
      // Whatever they were given (an answer once the lock went, or 503 past their timeouts): never a 500.
      for (const answer of (await Promise.all(blocked)) as Array<{ status: number }>) expect([200, 201, 503]).toContain(answer.status);
    }
  } catch (error) {
    await locker.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** The postmaster, then the processes it started (each in a session of its own, so not one process group). */
async function postgresProcesses(): Promise<number[]> {
  const postmaster = Number((await readFile(join(database.dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // "pid (name) state ppid ...": the name may hold spaces and parentheses.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === postmaster) children.push(Number(entry));
  }
  return [postmaster, ...children];
}

describe('when PostgreSQL cannot keep up', () => {
  it('a request that finds every request connection busy gets 503 with Retry-After', async () => {
    const rest = restClient(service.url, org.key);
    expect((await rest('GET', '/v1/consumer-cases')).status).toBe(200);
    // Authentications wait for the key table, each holding one of the request pool's connections.
    await withTableLocked('api_keys', POOL_SIZE, () => Array.from({ length: POOL_SIZE }, () => rest('GET', '/v1/consumer-cases')), async () => {
      expectRest503(await rest('GET', '/v1/consumer-cases'));
      expectGraphQL503(await graphql('{ consumerCases { meta { total } } }'));
    });
    expect((await rest('GET', '/v1/consumer-cases')).status).toBe(200);
  }, 60_000);

  it('a write that cannot start its transaction in time gets 503 with Retry-After, and writes nothing', async () => {
    const rest = restClient(service.url, org.key);
    // Writes wait for the case table, each holding one of the service's connections.
    await withTableLocked(
      'consumer_cases', POOL_SIZE,
      () => Array.from({ length: POOL_SIZE }, (_, i) => rest('POST', '/v1/consumer-cases', { email: `blocked-${i}@example.com` })),
      async () => {
        expectRest503(await rest('POST', '/v1/consumer-cases', { email: 'refused@example.com' }));
        expectGraphQL503(await graphql('mutation { createConsumerCase(input: { email: "refused-too@example.com" }) { id } }'));
      },
    );
    expect(await service.db.consumerCase.count({ where: { email: { startsWith: 'refused' } } })).toBe(0);
    expect((await rest('POST', '/v1/consumer-cases', { email: 'after@example.com' })).status).toBe(201);
  }, 60_000);

  it('a paused PostgreSQL answers 503 with Retry-After (no hang), and the service recovers when it resumes', async () => {
    const rest = restClient(service.url, org.key);
    expect((await rest('GET', '/v1/consumer-cases')).status).toBe(200);
    const processes = await postgresProcesses();
    for (const pid of processes) process.kill(pid, 'SIGSTOP');
    try {
      // Bounded by the request timeouts (a few seconds here), not by how long PostgreSQL stays paused.
      const hang = new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('no answer while PostgreSQL was paused')), 30_000).unref());
      const [list, created, query] = await Promise.race([
        Promise.all([
          rest('GET', '/v1/consumer-cases'),
          rest('POST', '/v1/consumer-cases', { email: 'paused@example.com' }),
          graphql('{ consumerCases { meta { total } } }'),
        ]),
        hang,
      ]);
      expectRest503(list);
      expectRest503(created);
      expectGraphQL503(query);
    } finally {
      for (const pid of processes) process.kill(pid, 'SIGCONT');
    }
    await waitFor(async () => (await rest('GET', '/v1/consumer-cases')).status === 200, 'recovery', 30_000);
    expect((await rest('POST', '/v1/consumer-cases', { email: 'resumed@example.com' })).status).toBe(201);
  }, 90_000);
});
