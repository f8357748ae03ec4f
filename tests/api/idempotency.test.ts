// Idempotency-Key on REST POSTs and GraphQL mutations: replays, conflicts,
// organization scope, and that failures are not kept.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { png } from '../helpers/sample-files.ts';
import { createKey, createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { formWith, upload } from '../helpers/uploads.ts';

let service: RunningService;
let smtp: TestSmtpServer;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startTestService({ env: { SMTP_URL: smtp.url } });
  org = await createOrganization(service.db, undefined, 'idempotent');
  rest = restClient(service.url, org.key);
});
afterAll(async () => {
  await service?.stop();
  await smtp?.stop();
});

const caseCount = (organizationId: string) => service.db.consumerCase.count({ where: { organizationId } });

describe('Idempotency-Key', () => {
  it('replays the first result for the same key and body, without repeating the effect', async () => {
    const key = randomUUID();
    const before = await caseCount(org.id);
    const first = await rest('POST', '/v1/consumer-cases', { email: 'once@example.com' }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await rest('POST', '/v1/consumer-cases', { email: 'once@example.com' }, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await caseCount(org.id)).toBe(before + 1);
  });

  it('refuses the same key with a different body (422) and changes nothing', async () => {
    const key = randomUUID();
    await rest('POST', '/v1/consumer-cases', { email: 'first@example.com' }, { 'idempotency-key': key });
    const before = await caseCount(org.id);
    const other = await rest('POST', '/v1/consumer-cases', { email: 'second@example.com' }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ statusCode: 422, error: 'Unprocessable Entity', message: 'Idempotency-Key: already used for a different request in the last 24 hours' });
    expect(await caseCount(org.id)).toBe(before);
  });

  it('works on GraphQL mutations, and ignores queries', async () => {
    const key = randomUUID();
    const gql = (query: string, variables?: Record<string, unknown>) =>
      fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'x-api-key': org.key, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ query, variables }),
      }).then(async (response) => ({ status: response.status, replayed: response.headers.get('idempotent-replayed'), body: await response.json() }));
    const mutation = 'mutation($input: CreateTaskInput!) { createTask(input: $input) { id title } }';
    const first = await gql(mutation, { input: { title: 'Once only' } });
    const again = await gql(mutation, { input: { title: 'Once only' } });
    expect(first.body.data.createTask.id).toBeDefined();
    expect(again).toMatchObject({ status: 200, replayed: 'true', body: first.body });
    expect(await service.db.task.count({ where: { organizationId: org.id, title: 'Once only' } })).toBe(1);
    const query = await gql('{ tasks { meta { total } } }');
    expect(query.status).toBe(200);
    expect(query.replayed).toBeNull();
  });

  it('is scoped to the organization', async () => {
    const key = randomUUID();
    const other = await createOrganization(service.db, undefined, 'idempotent-other');
    const mine = await rest('POST', '/v1/consumer-cases', { email: 'scoped@example.com' }, { 'idempotency-key': key });
    const theirs = await restClient(service.url, other.key)('POST', '/v1/consumer-cases', { email: 'scoped@example.com' }, { 'idempotency-key': key });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('keeps no failed result: a corrected retry with the same key runs', async () => {
    const key = randomUUID();
    const invalid = await rest('POST', '/v1/consumer-cases', { email: 'not-an-email' }, { 'idempotency-key': key });
    expect(invalid.status).toBe(400);
    const valid = await rest('POST', '/v1/consumer-cases', { email: 'corrected@example.com' }, { 'idempotency-key': key });
    expect(valid.status).toBe(201);
  });

  it('refuses malformed keys, and lets one of simultaneous requests run', async () => {
    const bad = await rest('POST', '/v1/consumer-cases', { email: 'bad-key@example.com' }, { 'idempotency-key': 'x'.repeat(300) });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Idempotency-Key: must be 1 to 255 printable ASCII characters');
    const key = randomUUID();
    const before = await caseCount(org.id);
    const results = await Promise.all([1, 2, 3].map(() => rest('POST', '/v1/consumer-cases', { email: 'race@example.com' }, { 'idempotency-key': key })));
    expect(results.every((result) => result.status === 201 || result.status === 409)).toBe(true);
    expect(await caseCount(org.id)).toBe(before + 1);
  });

  it('replays within 24 hours, and runs the request again once its key is older', async () => {
    const key = randomUUID();
    const first = await rest('POST', '/v1/consumer-cases', { email: 'window@example.com' }, { 'idempotency-key': key });
    const age = (hours: number) => service.db.$executeRaw`
      UPDATE idempotency_keys SET created_at = now() - make_interval(hours => ${hours}) WHERE organization_id = ${org.id}::uuid AND key = ${key}`;
    await age(23);
    const replayed = await rest('POST', '/v1/consumer-cases', { email: 'window@example.com' }, { 'idempotency-key': key });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.id).toBe(first.body.id);
    await age(25);
    const again = await rest('POST', '/v1/consumer-cases', { email: 'window@example.com' }, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
  });

  it('keeps no shown-once value: a replayed invitation has no token, and the stored result holds none', async () => {
    const key = randomUUID();
    const body = { fullName: 'Ida Replay', email: 'ida.replay@example.com' };
    const first = await rest('POST', '/v1/consumer-cases/onboarding/send-email', body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.body.token).toMatch(/^[\w-]{40,}$/);
    const again = await rest('POST', '/v1/consumer-cases/onboarding/send-email', body, { 'idempotency-key': key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({ ...first.body, token: null });
    // One email, and the emailed link still works.
    expect(smtp.received.filter((mail) => mail.envelope.to.includes(body.email))).toHaveLength(1);
    expect((await rest('GET', `/v1/consumer-cases/onboarding/${first.body.token}`)).status).toBe(200);
    const [stored] = await service.db.$queryRaw<Array<{ result: string }>>`
      SELECT result::text FROM idempotency_keys WHERE organization_id = ${org.id}::uuid AND key = ${key}`;
    expect(stored!.result).toContain(first.body.consumerCaseId);
    expect(stored!.result).not.toContain(first.body.token);

    const created = await rest('POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', eventTypes: ['task.assigned'] }, { 'idempotency-key': key + '-hook' });
    expect(created.body.secret).toMatch(/^whsec_/);
    const replayedHook = await rest('POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', eventTypes: ['task.assigned'] }, { 'idempotency-key': key + '-hook' });
    expect(replayedHook.body).toEqual({ ...created.body, secret: null });
  });

  it('replays only to a key that holds the operation\'s permission', async () => {
    const key = randomUUID();
    await rest('POST', '/v1/consumer-cases', { email: 'perm@example.com' }, { 'idempotency-key': key });
    const readOnly = await createKey(service.db, org.id, ['consumer_cases:read']);
    const replay = await restClient(service.url, readOnly)('POST', '/v1/consumer-cases', { email: 'perm@example.com' }, { 'idempotency-key': key });
    expect(replay.status).toBe(403);
    const gqlKey = randomUUID();
    const createCase = (apiKey: string) => fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'idempotency-key': gqlKey },
      body: JSON.stringify({
        query: 'mutation CreateConsumerCase($input: CreateConsumerCaseInput!) { createConsumerCase(input: $input) { id } }',
        variables: { input: { email: 'perm-gql@example.com' } },
      }),
    }).then((response) => response.json());
    expect((await createCase(org.key)).data.createConsumerCase.id).toBeDefined();
    const viaGraphql = await createCase(readOnly);
    expect(viaGraphql.data ?? null).toBeNull();
    expect(viaGraphql.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('compares uploads by content: another file under the same name is a 422, the same file a replay (REST and GraphQL)', async () => {
    const key = randomUUID();
    const send = (data: Buffer) => upload(service.url, org.key, 'private', formWith([{ name: 'file', data, filename: 'scan.png', type: 'image/png' }]), { 'idempotency-key': key });
    const first = await send(png());
    expect(first.status).toBe(201);
    const same = await send(png());
    expect(same.body).toEqual(first.body);
    const other = await send(png(4096));
    expect(other.status).toBe(422);

    const gqlKey = randomUUID();
    const mutation = 'mutation ($file: Upload!) { uploadPrivateFile(file: $file) { fileKey sha256 } }';
    const gql = (data: Buffer) => graphqlUploadWithKey(mutation, data, gqlKey);
    const one = await gql(png());
    expect(one.body.data.uploadPrivateFile.sha256).toMatch(/^[0-9a-f]{64}$/);
    const replay = await gql(png());
    expect(replay.replayed).toBe('true');
    expect(replay.body).toEqual(one.body);
    const different = await gql(png(4096));
    expect(different.body.errors[0].extensions.code).toBe('UNPROCESSABLE');
  });

  it('says so when the first request with a key never finished', async () => {
    const key = randomUUID();
    await service.db.$executeRaw`
      INSERT INTO idempotency_keys (organization_id, key, fingerprint, created_at) VALUES (${org.id}::uuid, ${key}, ${'0'.repeat(64)}, now() - interval '10 minutes')`;
    const fingerprinted = await rest('POST', '/v1/consumer-cases', { email: 'abandoned@example.com' }, { 'idempotency-key': key });
    // Another fingerprint: a 422 comes first.
    expect(fingerprinted.status).toBe(422);
    const running = randomUUID();
    const before = await caseCount(org.id);
    const first = await rest('POST', '/v1/consumer-cases', { email: 'abandoned@example.com' }, { 'idempotency-key': running });
    await service.db.$executeRaw`
      UPDATE idempotency_keys SET result = NULL, created_at = now() - interval '10 minutes' WHERE organization_id = ${org.id}::uuid AND key = ${running}`;
    const again = await rest('POST', '/v1/consumer-cases', { email: 'abandoned@example.com' }, { 'idempotency-key': running });
    expect(first.status).toBe(201);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('did not finish');
    expect(await caseCount(org.id)).toBe(before + 1);
  });
});

/** A GraphQL multipart upload with an Idempotency-Key. */
async function graphqlUploadWithKey(query: string, data: Buffer, key: string) {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query, variables: { file: null } }));
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', new Blob([new Uint8Array(data)]), 'scan.png');
  const response = await fetch(`${service.url}/graphql`, { method: 'POST', headers: { 'x-api-key': org.key, 'idempotency-key': key }, body: form });
  return { replayed: response.headers.get('idempotent-replayed'), body: await response.json() };
}
