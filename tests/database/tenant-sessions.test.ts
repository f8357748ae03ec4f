// The request pool (src/db/tenant-sessions.ts): a request authenticates on a
// connection and reads through it as its tenant. One connection per request,
// read-only, row-level security without the application's filter, settings
// that never outlive their request, and nothing read outside a request.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { generateApiKey, hashApiKey, displayPrefix } from '../../src/auth/api-keys.ts';
import type { CounterTakes } from '../../src/auth/rate-limit-leases.ts';
import { createDatabase, type Database } from '../../src/db/client.ts';
import { forOrganization, SharedReadTransaction } from '../../src/db/tenant.ts';
import { TenantSessions } from '../../src/db/tenant-sessions.ts';
import { requestScope } from '../../src/http/request-scope.ts';
import { createLogger } from '../../src/logger.ts';

let db: Database;
let sessions: TenantSessions;
const orgA = randomUUID();
const orgB = randomUUID();
const keys: Record<string, { key: string; id: string }> = {};

beforeAll(async () => {
  db = createDatabase(inject('databaseUrl'), 2);
  // One connection: a session never released would make the next request wait for ever.
  sessions = new TenantSessions(inject('databaseUrl'), 1, createLogger('silent'));
  await db.organization.createMany({ data: [{ id: orgA, name: `session-a-${orgA}` }, { id: orgB, name: `session-b-${orgB}` }] });
  await db.consumerCase.create({ data: { organizationId: orgA, email: 'a@example.com' } });
  await db.consumerCase.create({ data: { organizationId: orgB, email: 'b@example.com' } });
  for (const [name, organizationId] of [['a', orgA], ['b', orgB]] as const) {
    const key = generateApiKey();
    const record = await db.apiKey.create({ data: { organizationId, label: `session ${name}`, prefix: displayPrefix(key), hash: hashApiKey(key), permissions: ['consumer_cases:read'] } });
    keys[name] = { key, id: record.id };
  }
});
afterAll(async () => {
  await db.organization.deleteMany({ where: { id: { in: [orgA, orgB] } } });
  await db.$disconnect();
  await sessions.end();
});

/** One request: open a session with the key, run `work` in its scope with a tenant client, release. */
async function request<T>(key: string, work: (tenant: ReturnType<typeof forOrganization>, shared: SharedReadTransaction) => Promise<T>, count?: CounterTakes) {
  const opened = await sessions.open({ keyHash: hashApiKey(key), now: new Date(), count, userId: 'user-1', requestId: `request-${randomUUID()}` });
  if (!opened) return null;
  const scope = { requestId: 'test', tenantSession: opened.session };
  try {
    return await requestScope.run(scope, async () => {
      const shared = new SharedReadTransaction(sessions);
      shared.active = true;
      const organizationId = opened.key.key_organization_id;
      try {
        return await work(forOrganization(db, organizationId, { actor: 'test' }, shared), shared);
      } finally {
        await shared.close();
      }
    });
  } finally {
    opened.session.release();
  }
}

describe('tenant sessions', () => {
  it('read as the key\'s tenant on one connection, read-only, with who acts set; each request afresh', async () => {
    const pids = new Set<number>();
    for (let round = 0; round < 6; round++) {
      const name = round % 2 ? 'b' : 'a';
      const result = await request(keys[name]!.key, async (tenant, shared) => {
        const [cases, count] = await Promise.all([tenant.consumerCase.findMany({ select: { email: true } }), tenant.consumerCase.count()]);
        const [row] = await (await shared.client()).$queryRaw<Array<Record<string, string | number>>>`
          SELECT current_user AS role, current_setting('transaction_read_only') AS "readOnly", current_setting('app.organization_id') AS organization,
                 current_setting('app.api_key_id') AS "keyId", current_setting('app.user_id') AS "userId", current_setting('app.actor') AS actor,
                 pg_backend_pid() AS pid`;
        return { cases, count, row };
      });
      expect(result!.cases).toEqual([{ email: `${name}@example.com` }]);
      expect(result!.count).toBe(1);
      expect(result!.row).toMatchObject({
        role: 'compliance_tenant', readOnly: 'on', organization: name === 'a' ? orgA : orgB, keyId: keys[name]!.id, userId: 'user-1', actor: `session ${name}`,
      });
      pids.add(Number(result!.row!.pid));
    }
    // The pool of one: every request had the same connection, set up each time for its own key.
    expect(pids.size).toBe(1);
  });

  it('keeps one Prisma transaction per connection for the requests it serves, renewed after a minute', async () => {
    const first = await request(keys.a!.key, async (_tenant, shared) => shared.client());
    const second = await request(keys.b!.key, async (_tenant, shared) => shared.client());
    expect(second).toBe(first);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    try {
      const renewed = await request(keys.a!.key, async (tenant, shared) => ({ tx: await shared.client(), count: await tenant.consumerCase.count() }));
      expect(renewed!.tx).not.toBe(first);
      expect(renewed!.count).toBe(1);
    } finally {
      clock.mockRestore();
    }
  });

  it('is read-only: a write through it fails and changes nothing', async () => {
    await expect(request(keys.a!.key, (tenant) => tenant.consumerCase.create({ data: { email: 'write@example.com' } as never }))).rejects.toThrow(/read-only transaction/);
    expect(await db.consumerCase.count({ where: { organizationId: orgA } })).toBe(1);
  });

  it('sees no other organization even without the application filter', async () => {
    const rows = await request(keys.a!.key, async (_tenant, shared) =>
      (await shared.client()).$queryRaw<Array<{ email: string }>>`SELECT email FROM consumer_cases WHERE organization_id IN (${orgA}::uuid, ${orgB}::uuid)`);
    expect(rows).toEqual([{ email: 'a@example.com' }]);
  });

  it('adds the takes to the rate-limit counters of the window in the same round trip, and counts nothing without', async () => {
    const window = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 7);
    // The request reads as usual after a counting (read-write) authentication.
    expect(await request(keys.b!.key, async (tenant) => tenant.consumerCase.count(), { window, key: 1, organization: 2 })).toBe(1);
    const opened = await sessions.open({ keyHash: hashApiKey(keys.b!.key), now: new Date(), count: { window, key: 3, organization: 0 } });
    opened!.session.release();
    expect(opened!.key).toMatchObject({ key_id: keys.b!.id, key_count: 4, organization_count: null });
    const uncounted = await sessions.open({ keyHash: hashApiKey(keys.b!.key), now: new Date(), count: { window, key: 0, organization: 0 } });
    uncounted!.session.release();
    expect(uncounted!.key).toMatchObject({ key_count: null, organization_count: null });
    const rows = await db.rateLimitWindow.findMany({ where: { windowStart: window }, orderBy: { bucket: 'asc' } });
    expect(rows.map((row) => [row.bucket, row.count])).toEqual([[`key:${keys.b!.id}`, 4], [`org:${orgB}`, 2]]);
  });

  it('gives the tenant no way to count for any organization but through authentication', async () => {
    await expect(request(keys.a!.key, async (_tenant, shared) =>
      (await shared.client()).$queryRaw`SELECT count_rate_limit_take(${`org:${orgB}`}, now(), 1000)`)).rejects.toThrow(/permission denied for function count_rate_limit_take/);
  });

  it('opens nothing for an unknown, revoked or expired key', async () => {
    expect(await sessions.open({ keyHash: hashApiKey(generateApiKey()), now: new Date() })).toBeNull();
    await db.apiKey.update({ where: { id: keys.b!.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    try {
      expect(await sessions.open({ keyHash: hashApiKey(keys.b!.key), now: new Date() })).toBeNull();
    } finally {
      await db.apiKey.update({ where: { id: keys.b!.id }, data: { expiresAt: null } });
    }
    // The one connection is free again.
    expect(await request(keys.a!.key, async (tenant) => tenant.consumerCase.count())).toBe(1);
  });

  it('reads nothing outside a request', async () => {
    const shared = new SharedReadTransaction(sessions);
    shared.active = true;
    await expect(forOrganization(db, orgA, { actor: 'test' }, shared).consumerCase.count()).rejects.toThrow(/No tenant session/);
    await shared.close();
  });

  it('leaves queries to their own transactions when not active (mutations)', async () => {
    const shared = new SharedReadTransaction(sessions);
    const tenant = forOrganization(db, orgA, { actor: 'test' }, shared);
    const created = await tenant.consumerCase.create({ data: { email: 'mutation@example.com' } as never });
    expect(await db.consumerCase.findUnique({ where: { id: created.id } })).not.toBeNull();
    await shared.close();
    await db.consumerCase.delete({ where: { id: created.id } });
  });
});
