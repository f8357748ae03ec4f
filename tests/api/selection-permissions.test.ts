// A mutation whose selection asks for something the key may not read is
// refused before it runs: 403 naming the permission, and nothing created,
// sent, stored or changed (database, SMTP server, object store), also when
// the same Idempotency-Key is sent again. Each case first shows that the
// same operation does run for a key that holds every permission.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Permission } from '../../src/auth/permissions.ts';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient } from '../helpers/http.ts';
import { png } from '../helpers/sample-files.ts';
import { createKey, createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { graphqlUpload } from '../helpers/uploads.ts';
import { waitFor } from '../helpers/wait.ts';
import { TEST_BUCKET } from '../setup/servers.ts';

let smtp: TestSmtpServer;
let service: RunningService;
let org: TestOrganization;
let full: ReturnType<typeof graphqlClient>;

/** A GraphQL POST with a key holding only `permissions`, optionally with an Idempotency-Key. */
async function asKeyWith(permissions: Permission[], query: string, variables?: Record<string, unknown>, idempotencyKey?: string) {
  const key = await createKey(service.db, org.id, permissions);
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, ...(await response.json()) } as { status: number; data?: unknown; errors?: Array<{ message: string; path?: string[]; extensions: { code: string } }> };
}

function expectForbidden(result: Awaited<ReturnType<typeof asKeyWith>>, permission: string, path: string[]) {
  expect(result.status, JSON.stringify(result)).toBe(403);
  expect(result.data ?? null).toBeNull();
  expect(result.errors).toEqual([
    expect.objectContaining({ message: `Forbidden: this API key lacks the permission ${permission}`, path, extensions: { code: 'FORBIDDEN' } }),
  ]);
}

async function objectCount(prefix: string) {
  const entries = await readdir(join(inject('s3Directory'), TEST_BUCKET, prefix), { recursive: true }).catch(() => [] as string[]);
  return entries.filter((name) => name.endsWith('._S3rver_object')).length;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startTestService({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'kyc@bank.example', WEBHOOK_DISPATCH_INTERVAL_MS: '100' } });
  org = await createOrganization(service.db, undefined, 'selection');
  full = graphqlClient(service.url, org.key);
});
afterAll(async () => {
  await service?.stop();
  await smtp?.stop();
});

describe('permissions of the whole selection, before anything runs', () => {
  it('createTask { notes }: no task, not even twice under one Idempotency-Key', async () => {
    const query = 'mutation { createTask(input: { title: "Selected notes" }) { id notes { edges { node { id } } } } }';
    const tasks = () => service.db.task.count({ where: { organizationId: org.id, title: 'Selected notes' } });
    expectForbidden(await asKeyWith(['tasks:write'], query), 'notes:read', ['createTask', 'notes']);
    expectForbidden(await asKeyWith(['tasks:write'], query, undefined, 'selection-1'), 'notes:read', ['createTask', 'notes']);
    expectForbidden(await asKeyWith(['tasks:write'], query, undefined, 'selection-1'), 'notes:read', ['createTask', 'notes']);
    expect(await tasks()).toBe(0);
    expect(await service.db.idempotencyKey.count({ where: { organizationId: org.id, key: 'selection-1' } })).toBe(0);
    // The key was never claimed: a key that may read notes runs the operation under it, once.
    const allowed = await asKeyWith(['tasks:write', 'notes:read'], query, undefined, 'selection-1');
    expect(allowed.status).toBe(200);
    expect(await tasks()).toBe(1);
  });

  it('sendOnboardingEmail { onboarding { consumerCase { tasks } } }: no email, no case, no invitation', async () => {
    const query = (email: string) => `mutation { sendOnboardingEmail(input: { email: "${email}", fullName: "Pat Doe" }) { token onboarding { consumerCase { tasks { totalCount } } } } }`;
    expectForbidden(await asKeyWith(['consumer_cases:write'], query('pat@example.org')), 'tasks:read', ['sendOnboardingEmail', 'onboarding', 'consumerCase', 'tasks']);
    expectForbidden(await asKeyWith(['consumer_cases:write'], query('pat@example.org'), undefined, 'selection-2'), 'tasks:read', ['sendOnboardingEmail', 'onboarding', 'consumerCase', 'tasks']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter((m) => m.envelope.to.includes('pat@example.org'))).toHaveLength(0);
    expect(await service.db.consumerCase.count({ where: { organizationId: org.id, email: 'pat@example.org' } })).toBe(0);
    expect(await service.db.onboardingInvitation.count({ where: { organizationId: org.id, email: 'pat@example.org' } })).toBe(0);
    // With every permission the same operation sends.
    expect((await full(query('control@example.org'))).data).toMatchObject({ sendOnboardingEmail: { onboarding: { consumerCase: { tasks: { totalCount: 0 } } } } });
    await smtp.messageTo('control@example.org');
  });

  it('replayWebhookDelivery { event } and updateWebhookEndpoint { deliveries { event } }: no delivery, no change', async () => {
    const created = await full('mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:9/hook", eventTypes: ["*"], description: "before" }) { endpoint { id } } }');
    const endpointId: string = created.data.createWebhookEndpoint.endpoint.id;
    await full('mutation { createTask(input: { title: "For a delivery" }) { id } }');
    const delivery = await waitFor(() => service.db.webhookDelivery.findFirst({ where: { organizationId: org.id, endpointId } }), 'a delivery');
    const deliveries = () => service.db.webhookDelivery.count({ where: { organizationId: org.id, endpointId } });
    const before = await deliveries();

    const replay = `mutation { replayWebhookDelivery(id: "${delivery.id}") { id event { id } } }`;
    expectForbidden(await asKeyWith(['webhooks:write'], replay), 'events:read', ['replayWebhookDelivery', 'event']);
    expectForbidden(await asKeyWith(['webhooks:write'], replay, undefined, 'selection-3'), 'events:read', ['replayWebhookDelivery', 'event']);
    expect(await deliveries()).toBe(before);

    const update = `mutation { updateWebhookEndpoint(id: "${endpointId}", input: { description: "after" }) { id deliveries { edges { node { event { type } } } } } }`;
    expectForbidden(await asKeyWith(['webhooks:write'], update), 'events:read', ['updateWebhookEndpoint', 'deliveries', 'edges', 'node', 'event']);
    expect((await service.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).description).toBe('before');

    // With every permission both run.
    expect((await full(replay)).data).toMatchObject({ replayWebhookDelivery: { event: { id: delivery.eventId } } });
    expect(await deliveries()).toBe(before + 1);
    expect((await full(update)).status).toBe(200);
    expect((await service.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).description).toBe('after');
  });

  it('createDocument { consumerCase }: no document', async () => {
    const uploaded = await graphqlUpload(service.url, org.key, 'mutation ($file: Upload!) { uploadPrivateFile(file: $file) { fileKey } }', png());
    const fileKey: string = uploaded.data.uploadPrivateFile.fileKey;
    const query = `mutation { createDocument(input: { fileKey: "${fileKey}", type: PASSPORT }) { id consumerCase { id } } }`;
    expectForbidden(await asKeyWith(['documents:write'], query), 'consumer_cases:read', ['createDocument', 'consumerCase']);
    expect(await service.db.document.count({ where: { organizationId: org.id } })).toBe(0);
    expect((await full(query)).status).toBe(200);
    expect(await service.db.document.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it('uploadPrivateFile { analyses }: no file record, no stored object', async () => {
    const query = 'mutation ($file: Upload!) { uploadPrivateFile(file: $file) { fileKey analyses { jobId } } }';
    const files = () => service.db.storedFile.count({ where: { organizationId: org.id } });
    const [recordsBefore, objectsBefore] = [await files(), await objectCount(`private/${org.id}`)];
    const filesOnly = await createKey(service.db, org.id, ['files:write']);
    const refused = await graphqlUpload(service.url, filesOnly, query, png(2048));
    expect(refused.status).toBe(403);
    expect(refused.errors).toEqual([expect.objectContaining({ message: 'Forbidden: this API key lacks the permission document_analysis:read', path: ['uploadPrivateFile', 'analyses'] })]);
    expect(await files()).toBe(recordsBefore);
    expect(await objectCount(`private/${org.id}`)).toBe(objectsBefore);
    // The same upload by a key with every permission is stored, its relation loaded with it (it was a 500).
    const allowed = await graphqlUpload(service.url, org.key, query, png(2048));
    expect(allowed.status).toBe(200);
    expect(allowed.data.uploadPrivateFile).toMatchObject({ fileKey: expect.stringMatching(/^private\//), analyses: [] });
    expect(await files()).toBe(recordsBefore + 1);
    expect(await objectCount(`private/${org.id}`)).toBe(objectsBefore + 1);
  });

  it('names every field of a query the key may not read, and runs none', async () => {
    const result = await asKeyWith(['consumer_cases:read'], '{ consumerCases { meta { total } } tasks { meta { total } } notes { meta { total } } }');
    expect(result.status).toBe(403);
    expect(result.errors!.map((e) => [e.path, e.extensions.code])).toEqual([[['tasks'], 'FORBIDDEN'], [['notes'], 'FORBIDDEN']]);
  });
});
