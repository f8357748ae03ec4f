// The audit trail: every change recorded by the database with who, what,
// before/after and the request id; readable per resource; not alterable.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { textPdf } from '../helpers/sample-files.ts';
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

let pdfBytes: Buffer;
beforeAll(async () => {
  pdfBytes = await textPdf([['Audit trail sample', 'Invoice 42']]);
});
const pdfForm = () => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdfBytes)]), 'sample.pdf');
  return form;
};

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

  it('names the key by id and the user it acted for (X-User-Id), filterable by user', async () => {
    const sameLabel = await createKey(service.db, org.id, ['consumer_cases:write', 'audit:read'], 'back office');
    const a = await rest('POST', '/v1/consumer-cases', { email: 'user-a@example.com' }, { 'x-user-id': 'analyst-7' });
    const b = await restClient(service.url, sameLabel)('POST', '/v1/consumer-cases', { email: 'user-b@example.com' });
    const [recordA] = (await rest('GET', `/v1/audit-events?resourceId=${a.body.id}`)).body.items;
    const [recordB] = (await rest('GET', `/v1/audit-events?resourceId=${b.body.id}`)).body.items;
    expect(recordA).toMatchObject({ actor: 'back office', userId: 'analyst-7', apiKeyId: expect.any(String) });
    expect(recordB).toMatchObject({ actor: 'back office', userId: null, apiKeyId: expect.any(String) });
    expect(recordA.apiKeyId).not.toBe(recordB.apiKeyId);
    const byUser = await rest('GET', '/v1/audit-events?userId=analyst-7');
    expect(byUser.body.items.map((e: { resourceId: string }) => e.resourceId)).toEqual([a.body.id]);
    // GraphQL takes the header too.
    const gql = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': sameLabel, 'x-user-id': 'analyst 8', 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { createConsumerCase(input: { email: "user-c@example.com" }) { id } }' }),
    }).then((response) => response.json());
    const [recordC] = (await rest('GET', `/v1/audit-events?resourceId=${gql.data.createConsumerCase.id}`)).body.items;
    expect(recordC.userId).toBe('analyst 8');
    // A malformed header is refused before anything runs.
    const before = await service.db.consumerCase.count({ where: { organizationId: org.id } });
    const bad = await rest('POST', '/v1/consumer-cases', { email: 'user-d@example.com' }, { 'x-user-id': 'u'.repeat(201) });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('X-User-Id: must be 1 to 200 printable ASCII characters');
    expect(await service.db.consumerCase.count({ where: { organizationId: org.id } })).toBe(before);
  });

  it('cannot be altered by the app\'s own role either', async () => {
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    try {
      for (const statement of [
        'UPDATE audit_events SET actor = $2 WHERE organization_id = $1::uuid',
        'DELETE FROM audit_events WHERE organization_id = $1::uuid AND actor <> $2',
      ]) {
        await expect(client.query(statement, [org.id, 'forger'])).rejects.toThrow(/append-only/);
      }
      await expect(client.query('TRUNCATE audit_events')).rejects.toThrow(/append-only/);
    } finally {
      await client.end();
    }
    expect(await service.db.auditEvent.count({ where: { organizationId: org.id } })).toBeGreaterThan(0);
  });

  it('records analyses and webhook endpoint changes too, never a secret', async () => {
    const full = restClient(service.url, org.key);
    const file = await fetch(`${service.url}/v1/files/upload/private`, {
      method: 'POST', headers: { 'x-api-key': org.key }, body: pdfForm(),
    }).then((response) => response.json());
    const before = (await full('GET', '/v1/audit-events?resourceType=document_analyses')).body.meta.total;
    const parsed = await full('GET', `/v1/document-analysis/parse/${encodeURIComponent(file.fileKey)}`);
    expect(parsed.status).toBe(200);
    const analyses = await full('GET', '/v1/audit-events?resourceType=document_analyses');
    expect(analyses.body.meta.total).toBeGreaterThan(before);
    expect(analyses.body.items[0]).toMatchObject({ actor: expect.any(String), apiKeyId: expect.any(String), after: expect.objectContaining({ status: expect.any(String) }) });

    const endpoint = await full('POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/audit', eventTypes: ['*'] });
    const trail = await full('GET', `/v1/audit-events?resourceType=webhook_endpoints&resourceId=${endpoint.body.endpoint.id}`);
    expect(trail.body.items).toHaveLength(1);
    expect(JSON.stringify(trail.body)).not.toContain(endpoint.body.secret);
  });

  it('needs audit:read', async () => {
    const key = await createKey(service.db, org.id, ['consumer_cases:read']);
    expect((await restClient(service.url, key)('GET', '/v1/audit-events')).status).toBe(403);
  });
});
