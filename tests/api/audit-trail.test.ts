// The audit trail: every change recorded by the database with who, what,
// before/after and the request id; readable per resource; not alterable.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { createKey, createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;

beforeAll(async () => {
  service = await startTestService();
  org = await createOrganization(service.db, undefined, 'audited');
  const labelled = await createKey(service.db, org.id, ['consumer_cases:write', 'consumer_cases:read', 'audit:read', 'tasks:write'], 'back office');
  rest = restClient(service.url, labelled);
});
afterAll(() => service?.stop());

describe('GET /v1/audit-events', () => {
  it('records creation, changes and deletion with who, when, the request id, and before/after', async () => {
    const created = await rest('POST', '/v1/consumer-cases', { email: 'audit@example.com', lastName: 'Before' }, { 'x-request-id': 'audit-create-1' });
    const id = created.body.id;
    await rest('PATCH', `/v1/consumer-cases/${id}`, { lastName: 'After' }, { 'x-request-id': 'audit-update-1' });
    // Saving the same values again is not a change.
    await rest('PATCH', `/v1/consumer-cases/${id}`, { lastName: 'After' });
    await rest('DELETE', `/v1/consumer-cases/${id}`, undefined, { 'x-request-id': 'audit-delete-1' });

    const trail = await rest('GET', `/v1/audit-events?resourceType=consumer_cases&resourceId=${id}`);
    expect(trail.status).toBe(200);
    expect(trail.body.meta.total).toBe(3);
    const [deleted, updated, createdEvent] = trail.body.items;
    expect(createdEvent).toMatchObject({ action: 'CREATE', actor: 'back office', requestId: 'audit-create-1', before: null, after: { id, last_name: 'Before', email: 'audit@example.com' } });
    expect(updated).toMatchObject({ action: 'UPDATE', requestId: 'audit-update-1', before: { last_name: 'Before' }, after: { last_name: 'After' } });
    expect(deleted).toMatchObject({ action: 'DELETE', requestId: 'audit-delete-1', before: { id, last_name: 'After' }, after: null });

    const byRequest = await rest('GET', '/v1/audit-events?requestId=audit-update-1');
    expect(byRequest.body.items.map((e: { id: string }) => e.id)).toEqual([updated.id]);
  });

  it('records nested changes too (a task created for a case), and hides other organizations\' events', async () => {
    const caseId = (await rest('POST', '/v1/consumer-cases', { email: 'nested@example.com' })).body.id;
    const task = await rest('POST', '/v1/tasks', { title: 'Audit me', consumerCaseId: caseId });
    const events = await rest('GET', `/v1/audit-events?resourceType=tasks&resourceId=${task.body.id}`);
    expect(events.body.items).toEqual([expect.objectContaining({ action: 'CREATE', after: expect.objectContaining({ title: 'Audit me', consumer_case_id: caseId }) })]);
    const other = await createOrganization(service.db, undefined, 'audit-other');
    const theirs = await restClient(service.url, other.key)('GET', `/v1/audit-events?resourceId=${caseId}`);
    expect(theirs.body.meta.total).toBe(0);
  });

  it('cannot be altered: the tenant role may only read it', async () => {
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    try {
      for (const statement of [
        'UPDATE audit_events SET actor = $2 WHERE organization_id = $1::uuid',
        'DELETE FROM audit_events WHERE organization_id = $1::uuid AND actor <> $2',
        "INSERT INTO audit_events (organization_id, resource_type, action, actor) VALUES ($1::uuid, 'consumer_cases', 'CREATE', $2)",
      ]) {
        await client.query('BEGIN');
        await client.query("SELECT set_config('role', 'compliance_tenant', TRUE), set_config('app.organization_id', $1, TRUE)", [org.id]);
        await expect(client.query(statement, [org.id, 'forger'])).rejects.toThrow(/permission denied/);
        await client.query('ROLLBACK');
      }
    } finally {
      await client.end();
    }
    const trail = await rest('GET', '/v1/audit-events?resourceType=consumer_cases');
    expect(trail.body.items.some((e: { actor: string }) => e.actor === 'forger')).toBe(false);
  });

  it('needs audit:read', async () => {
    const key = await createKey(service.db, org.id, ['consumer_cases:read']);
    expect((await restClient(service.url, key)('GET', '/v1/audit-events')).status).toBe(403);
  });
});
