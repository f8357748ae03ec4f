// The read requests' shared transaction (src/db/tenant.ts): every query of
// the request runs in it, as the tenant, read-only; closing frees the
// connection (a pool of one would otherwise hang the next request).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/client.ts';
import { forOrganization, SharedReadTransaction } from '../../src/db/tenant.ts';

let db: Database;
let readDb: Database;
const orgA = randomUUID();
const orgB = randomUUID();

beforeAll(async () => {
  db = createDatabase(inject('databaseUrl'), 2);
  // One connection: a transaction left open would make the next request wait for ever.
  readDb = createDatabase(inject('databaseUrl'), 1);
  await db.organization.createMany({ data: [{ id: orgA, name: `read-a-${orgA}` }, { id: orgB, name: `read-b-${orgB}` }] });
  await db.consumerCase.create({ data: { organizationId: orgA, email: 'a@example.com' } });
  await db.consumerCase.create({ data: { organizationId: orgB, email: 'b@example.com' } });
});
afterAll(async () => {
  await db.organization.deleteMany({ where: { id: { in: [orgA, orgB] } } });
  await db.$disconnect();
  await readDb.$disconnect();
});

function readRequest(organizationId: string) {
  const shared = new SharedReadTransaction(readDb, organizationId, { actor: 'test', requestId: randomUUID() });
  shared.active = true;
  return { shared, tenant: forOrganization(db, organizationId, undefined, shared) };
}

describe('shared read transaction', () => {
  it('runs a request\'s queries in one read-only transaction as its tenant, and frees it when closed', async () => {
    for (let request = 0; request < 5; request++) {
      const { shared, tenant } = readRequest(request % 2 ? orgB : orgA);
      const [cases, count] = await Promise.all([tenant.consumerCase.findMany({ select: { email: true } }), tenant.consumerCase.count()]);
      expect(cases).toEqual([{ email: request % 2 ? 'b@example.com' : 'a@example.com' }]);
      expect(count).toBe(1);
      const [row] = await (await shared.client()).$queryRaw<Array<{ role: string; readOnly: string; organization: string }>>`
        SELECT current_user AS role, current_setting('transaction_read_only') AS "readOnly", current_setting('app.organization_id') AS organization`;
      expect(row).toEqual({ role: 'compliance_tenant', readOnly: 'on', organization: request % 2 ? orgB : orgA });
      await shared.close();
    }
  });

  it('is read-only: a write through it fails and changes nothing', async () => {
    const { shared, tenant } = readRequest(orgA);
    await expect(tenant.consumerCase.create({ data: { email: 'write@example.com' } as never })).rejects.toThrow(/read-only transaction/);
    await shared.close();
    expect(await db.consumerCase.count({ where: { organizationId: orgA } })).toBe(1);
  });

  it('sees no other organization even without the application filter', async () => {
    const { shared } = readRequest(orgA);
    const rows = await (await shared.client()).$queryRaw<Array<{ email: string }>>`SELECT email FROM consumer_cases WHERE organization_id IN (${orgA}::uuid, ${orgB}::uuid)`;
    expect(rows).toEqual([{ email: 'a@example.com' }]);
    await shared.close();
  });

  it('leaves queries to their own transactions when not active (mutations)', async () => {
    const shared = new SharedReadTransaction(readDb, orgA);
    const tenant = forOrganization(db, orgA, { actor: 'test' }, shared);
    const created = await tenant.consumerCase.create({ data: { email: 'mutation@example.com' } as never });
    expect(await db.consumerCase.findUnique({ where: { id: created.id } })).not.toBeNull();
    await shared.close();
    await db.consumerCase.delete({ where: { id: created.id } });
  });
});
