// Idempotency-Key on REST POSTs and GraphQL mutations: replays, conflicts,
// organization scope, and that failures are not kept.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;

beforeAll(async () => {
  service = await startTestService();
  org = await createOrganization(service.db, undefined, 'idempotent');
  rest = restClient(service.url, org.key);
});
afterAll(() => service?.stop());

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
});
