// Each organization holds at most its share of the request pool
// (REQUEST_CONNECTIONS_PER_ORGANIZATION): one organization's slow requests
// wait for their own (then 503 naming the cap) while the others are served.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-keys.ts';
import { createDatabase, type Database } from '../../src/db/client.ts';
import type { RequestDatabaseLimits } from '../../src/db/request-limits.ts';
import { TenantSessions } from '../../src/db/tenant-sessions.ts';
import { AppError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';

const POOL = 3;
const limits: RequestDatabaseLimits = {
  connectionWaitMs: 1_000,
  statementTimeoutMs: 10_000,
  lockTimeoutMs: 5_000,
  idleInTransactionMs: 60_000,
  queryTimeoutMs: 12_000,
  connectionsPerOrganization: 2,
};

let db: Database;
let sessions: TenantSessions;
const orgA = randomUUID();
const orgB = randomUUID();
const keys: Record<string, string> = {};

beforeAll(async () => {
  db = createDatabase(inject('databaseUrl'), 1);
  sessions = new TenantSessions(inject('databaseUrl'), POOL, createLogger('silent'), limits);
  await db.organization.createMany({ data: [{ id: orgA, name: `share-a-${orgA}` }, { id: orgB, name: `share-b-${orgB}` }] });
  for (const [name, organizationId] of [['a', orgA], ['b', orgB]] as const) {
    const key = generateApiKey();
    await db.apiKey.create({ data: { organizationId, label: `share ${name}`, prefix: displayPrefix(key), hash: hashApiKey(key), permissions: ['consumer_cases:read'] } });
    keys[name] = key;
  }
});
afterAll(async () => {
  for (const { session } of opened) session.release();
  await db.organization.deleteMany({ where: { id: { in: [orgA, orgB] } } });
  await db.$disconnect();
  await sessions.end();
});

/** Every session opened, released at the end whatever happened (releasing is idempotent). */
const opened: Array<{ session: { release(): void } }> = [];

async function open(name: string) {
  const result = await sessions.open({ keyHash: hashApiKey(keys[name]!), now: new Date() });
  if (result) opened.push(result);
  return result;
}

describe('each organization\'s share of the request pool', () => {
  it('makes a request past its organization\'s share wait, serves the others meanwhile, and answers 503 naming the cap when none ends', async () => {
    // A holds its share (as slow requests would).
    const held = [await open('a'), await open('a')];
    expect(held.every((opened) => opened?.key.key_organization_id === orgA)).toBe(true);

    // A third of A's waits holding no connection: B is served at once from the rest of the pool.
    const waiting = open('a');
    const other = await open('b');
    expect(other?.key.key_organization_id).toBe(orgB);

    // One of A's ends: the waiting request gets its place, authenticated as A.
    held[0]!.session.release();
    const served = await waiting;
    expect(served?.key.key_organization_id).toBe(orgA);
    other!.session.release();

    // None of A's ends: past the wait, a 503 naming the setting (Retry-After comes with every 503).
    const refused = await open('a').then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 503, message: expect.stringContaining('REQUEST_CONNECTIONS_PER_ORGANIZATION') });

    // B still is served while A is at its share.
    const again = await open('b');
    expect(again?.key.key_organization_id).toBe(orgB);
    for (const opened of [held[1], served, again]) opened?.session.release();

    // Released, A's share is whole again.
    const after = [await open('a'), await open('a')];
    for (const opened of after) opened?.session.release();
  }, 30_000);
});
