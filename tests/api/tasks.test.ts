import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;
let gql: ReturnType<typeof graphqlClient>;
let consumerCaseId: string;
let businessCaseId: string;

beforeAll(async () => {
  service = await startTestService();
  org = await createOrganization(service.db);
  rest = restClient(service.url, org.key);
  gql = graphqlClient(service.url, org.key);
  consumerCaseId = (await rest('POST', '/v1/consumer-cases', { email: 'task-subject@example.com' })).body.id;
  businessCaseId = (await service.db.businessCase.create({ data: { organizationId: org.id, legalName: 'Acme Ltd' } })).id;
});
afterAll(() => service.stop());

async function createTask(body: Record<string, unknown>) {
  const response = await rest('POST', '/v1/tasks', body);
  expect(response.status).toBe(201);
  return response.body;
}

describe('POST /v1/tasks', () => {
  it('creates a task with defaults', async () => {
    const task = await createTask({ title: '  Collect passport  ' });
    expect(task).toEqual({
      id: expect.any(String), title: 'Collect passport', description: null, dueDate: null,
      priority: 'MEDIUM', status: 'TODO', completedAt: null, businessCaseId: null, consumerCaseId: null,
      assignees: [], createdAt: expect.any(String), updatedAt: expect.any(String),
    });
  });

  it('accepts every field, a date or a date-time as due date, and links cases', async () => {
    const task = await createTask({
      title: 'Review UBOs', description: 'Check the register', dueDate: '2026-12-24', priority: 'URGENT', status: 'IN_PROGRESS',
      businessCaseId, consumerCaseId,
    });
    expect(task).toMatchObject({ dueDate: '2026-12-24T00:00:00.000Z', priority: 'URGENT', status: 'IN_PROGRESS', businessCaseId, consumerCaseId });
    const timed = await createTask({ title: 'Call back', dueDate: '2026-12-24T17:30:00+01:00' });
    expect(timed.dueDate).toBe('2026-12-24T16:30:00.000Z');
  });

  it('stamps completedAt when created DONE', async () => {
    const task = await createTask({ title: 'Already done', status: 'DONE' });
    expect(Date.parse(task.completedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it.each([
    [{}, 'title: is required'],
    [{ title: '   ' }, 'title: must not be empty'],
    [{ title: 'x'.repeat(201) }, 'title: must be at most 200 characters'],
    [{ title: 'x', priority: 'CRITICAL' }, 'priority: must be one of HIGH, LOW, MEDIUM, URGENT'],
    [{ title: 'x', status: 'OPEN' }, 'status: must be one of BLOCKED, CANCELLED, DONE, IN_PROGRESS, TODO'],
    [{ title: 'x', dueDate: '2026-02-30' }, 'dueDate: must be an ISO 8601 date (YYYY-MM-DD) or date-time with time zone (e.g. 2026-01-31T17:00:00Z)'],
    [{ title: 'x', dueDate: '2026-12-01T10:00:00' }, 'dueDate: must be an ISO 8601 date (YYYY-MM-DD) or date-time with time zone (e.g. 2026-01-31T17:00:00Z)'],
    [{ title: 'x', consumerCaseId: 'abc' }, 'consumerCaseId: must be a UUID'],
    [{ title: 'x', assignees: ['u1'] }, 'assignees: is not a known field'],
  ])('refuses %j with 400: %s', async (body, message) => {
    const response = await rest('POST', '/v1/tasks', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });

  it('refuses links to cases that do not exist, creating nothing', async () => {
    const before = (await rest('GET', '/v1/tasks?limit=1')).body.meta.total;
    const missing = '01a2003f-4ee6-75ce-9a3a-148295411474';
    const consumer = await rest('POST', '/v1/tasks', { title: 'x', consumerCaseId: missing });
    expect(consumer.status).toBe(404);
    expect(consumer.body.message).toBe(`Consumer case ${missing} not found`);
    const business = await rest('POST', '/v1/tasks', { title: 'x', businessCaseId: missing });
    expect(business.status).toBe(404);
    expect(business.body.message).toBe(`Business case ${missing} not found`);
    expect((await rest('GET', '/v1/tasks?limit=1')).body.meta.total).toBe(before);
  });
});

describe('GET /v1/tasks filters', () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    const fresh = await createOrganization(service.db);
    rest = restClient(service.url, fresh.key);
    gql = graphqlClient(service.url, fresh.key);
    consumerCaseId = (await rest('POST', '/v1/consumer-cases', { email: 'filters@example.com' })).body.id;
    businessCaseId = (await service.db.businessCase.create({ data: { organizationId: fresh.id, legalName: 'Filter Corp' } })).id;
    ids = {};
    ids.a = (await createTask({ title: 'Verify passport scan', priority: 'HIGH', consumerCaseId })).id;
    ids.b = (await createTask({ title: 'Request proof of address', priority: 'LOW', consumerCaseId, status: 'IN_PROGRESS' })).id;
    ids.c = (await createTask({ title: 'Check company register', description: 'Companies House extract', priority: 'HIGH', businessCaseId })).id;
    ids.d = (await createTask({ title: 'Escalate PEP hit', priority: 'URGENT', status: 'BLOCKED', businessCaseId })).id;
    await rest('POST', `/v1/tasks/${ids.a}/assignees`, { userId: 'analyst-1' });
    await rest('POST', `/v1/tasks/${ids.d}/assignees`, { userId: 'analyst-1' });
  });

  const listed = async (query: string) => {
    const response = await rest('GET', `/v1/tasks${query}`);
    expect(response.status).toBe(200);
    return response.body.items.map((t: { id: string }) => t.id);
  };

  it('lists newest first with meta', async () => {
    const response = await rest('GET', '/v1/tasks');
    expect(response.body.success).toBe(true);
    expect(response.body.meta).toEqual({ total: 4, page: 1, limit: 10, totalPages: 1 });
    expect(await listed('')).toEqual([ids.d, ids.c, ids.b, ids.a]);
  });

  it('filters by status, priority, case ids and assignee, and combines them', async () => {
    expect(await listed('?status=BLOCKED')).toEqual([ids.d]);
    expect(await listed('?priority=HIGH')).toEqual([ids.c, ids.a]);
    expect(await listed(`?consumerCaseId=${consumerCaseId}`)).toEqual([ids.b, ids.a]);
    expect(await listed(`?businessCaseId=${businessCaseId}`)).toEqual([ids.d, ids.c]);
    expect(await listed('?assigneeId=analyst-1')).toEqual([ids.d, ids.a]);
    expect(await listed(`?priority=HIGH&businessCaseId=${businessCaseId}`)).toEqual([ids.c]);
    expect(await listed('?status=DONE')).toEqual([]);
  });

  it('searches title and description', async () => {
    expect(await listed('?search=PASSPORT')).toEqual([ids.a]);
    expect(await listed('?search=companies%20extract')).toEqual([ids.c]);
    expect(await listed('?search=proof%20passport')).toEqual([]);
  });

  it('pages with limit', async () => {
    const response = await rest('GET', '/v1/tasks?limit=3&page=2');
    expect(response.body.meta).toEqual({ total: 4, page: 2, limit: 3, totalPages: 2 });
    expect(response.body.items.map((t: { id: string }) => t.id)).toEqual([ids.a]);
  });

  it.each([
    ['priority=SEVERE', 'priority: must be one of HIGH, LOW, MEDIUM, URGENT'],
    ['status=OPEN', 'status: must be one of BLOCKED, CANCELLED, DONE, IN_PROGRESS, TODO'],
    ['consumerCaseId=123', 'consumerCaseId: must be a UUID'],
    ['limit=500', 'limit: must be at most 100'],
    ['owner=me', 'Unknown query parameter: owner'],
  ])('refuses ?%s', async (query, message) => {
    const response = await rest('GET', `/v1/tasks?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });

  it('applies every filter the same way over GraphQL', async () => {
    const ids_ = async (args: string, variables?: Record<string, unknown>) => {
      const declared = Object.keys(variables ?? {}).map((name) => `$${name}: ID`).join(', ');
      const result = await gql(`query ${declared ? `(${declared})` : ''} { tasks(${args}) { items { id } meta { total } } }`, variables);
      expect(result.status).toBe(200);
      return result.data.tasks.items.map((t: { id: string }) => t.id);
    };
    expect(await ids_('status: BLOCKED')).toEqual([ids.d]);
    expect(await ids_('priority: HIGH')).toEqual([ids.c, ids.a]);
    expect(await ids_('businessCaseId: $b', { b: businessCaseId })).toEqual([ids.d, ids.c]);
    expect(await ids_('consumerCaseId: $c', { c: consumerCaseId })).toEqual([ids.b, ids.a]);
    expect(await ids_('assigneeId: "analyst-1"')).toEqual([ids.d, ids.a]);
    expect(await ids_('search: "companies extract"')).toEqual([ids.c]);
    expect(await ids_('limit: 3, page: 2')).toEqual([ids.a]);
    const bad = await gql('{ tasks(consumerCaseId: "123", page: 0) { meta { total } } }');
    expect(bad.status).toBe(400);
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('offers the same filters over GraphQL, with the linked cases', async () => {
    const result = await gql(`query ($c: ID) { tasks(consumerCaseId: $c, priority: HIGH) {
      items { id consumerCase { id email } businessCase { id } assignees { userId } } meta { total } } }`, { c: consumerCaseId });
    expect(result.data.tasks).toEqual({
      items: [{ id: ids.a, consumerCase: { id: consumerCaseId, email: 'filters@example.com' }, businessCase: null, assignees: [{ userId: 'analyst-1' }] }],
      meta: { total: 1 },
    });
    const viaCase = await gql(`query ($id: ID!) { consumerCase(id: $id) { tasks(first: 1) { totalCount edges { node { id } } pageInfo { hasNextPage } } } }`, { id: consumerCaseId });
    expect(viaCase.data.consumerCase.tasks).toEqual({ totalCount: 2, edges: [{ node: { id: ids.b } }], pageInfo: { hasNextPage: true } });
    const viaBusiness = await gql(`query ($id: ID!) { businessCase(id: $id) { legalName tasks { edges { node { id } } } } }`, { id: businessCaseId });
    expect(viaBusiness.data.businessCase.tasks.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([ids.d, ids.c]);
  });
});

describe('GET, PUT and DELETE /v1/tasks/{id}', () => {
  it('reads, updates (partially) and deletes a task', async () => {
    const task = await createTask({ title: 'Draft', description: 'first', dueDate: '2026-12-01', consumerCaseId });
    expect((await rest('GET', `/v1/tasks/${task.id}`)).body).toEqual(task);
    const updated = await rest('PUT', `/v1/tasks/${task.id}`, { title: 'Final', priority: 'HIGH', dueDate: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title: 'Final', description: 'first', priority: 'HIGH', dueDate: null, consumerCaseId });
    const deleted = await rest('DELETE', `/v1/tasks/${task.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(task.id);
    expect((await rest('GET', `/v1/tasks/${task.id}`)).status).toBe(404);
  });

  it('sets completedAt on DONE and clears it when reopened', async () => {
    const task = await createTask({ title: 'Complete me' });
    const done = await rest('PUT', `/v1/tasks/${task.id}`, { status: 'DONE' });
    expect(done.body.completedAt).not.toBeNull();
    const again = await rest('PUT', `/v1/tasks/${task.id}`, { status: 'DONE', title: 'Still done' });
    expect(again.body.completedAt).toBe(done.body.completedAt);
    const reopened = await rest('PUT', `/v1/tasks/${task.id}`, { status: 'TODO' });
    expect(reopened.body.completedAt).toBeNull();
  });

  it('does not let PUT change the linked cases or clear the title', async () => {
    const task = await createTask({ title: 'Linked', consumerCaseId });
    for (const [body, message] of [
      [{ consumerCaseId: null }, 'consumerCaseId: is not a known field'],
      [{ businessCaseId }, 'businessCaseId: is not a known field'],
      [{ title: null }, 'title: must not be null'],
      [{ title: '' }, 'title: must not be empty'],
      [{ priority: null }, 'priority: must not be null'],
    ] as const) {
      const response = await rest('PUT', `/v1/tasks/${task.id}`, body);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
    }
    expect((await rest('GET', `/v1/tasks/${task.id}`)).body).toEqual(task);
  });

  it('answers 404 for unknown ids', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await rest(method, '/v1/tasks/01a2003f-4ee6-75ce-9a3a-148295411474', method === 'PUT' ? { title: 'x' } : undefined);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ statusCode: 404, message: 'Task 01a2003f-4ee6-75ce-9a3a-148295411474 not found', error: 'Not Found' });
    }
  });

  it('keeps tasks when their case is deleted, unlinked', async () => {
    const subject = (await rest('POST', '/v1/consumer-cases', { email: 'temp@example.com' })).body.id;
    const task = await createTask({ title: 'Orphan', consumerCaseId: subject });
    await rest('DELETE', `/v1/consumer-cases/${subject}`);
    expect((await rest('GET', `/v1/tasks/${task.id}`)).body.consumerCaseId).toBeNull();
  });
});

describe('assignees', () => {
  it('adds idempotently, lists with assignment time, and removes', async () => {
    const task = await createTask({ title: 'Assign me' });
    const path = `/v1/tasks/${task.id}/assignees`;
    const first = await rest('POST', path, { userId: 'alice@corp' });
    expect(first.status).toBe(200);
    expect(first.body.assignees).toEqual([{ userId: 'alice@corp', assignedAt: expect.any(String) }]);
    const again = await rest('POST', path, { userId: 'alice@corp' });
    expect(again.body.assignees).toEqual(first.body.assignees);
    const second = await rest('POST', path, { userId: 'bob' });
    expect(second.body.assignees.map((a: { userId: string }) => a.userId)).toEqual(['alice@corp', 'bob']);
    const removed = await rest('DELETE', `${path}/alice@corp`);
    expect(removed.status).toBe(200);
    expect(removed.body.assignees.map((a: { userId: string }) => a.userId)).toEqual(['bob']);
    const notAssigned = await rest('DELETE', `${path}/alice@corp`);
    expect(notAssigned.status).toBe(404);
    expect(notAssigned.body.message).toBe(`User alice@corp is not assigned to task ${task.id}`);
    expect((await rest('GET', `/v1/tasks?assigneeId=bob`)).body.items.map((t: { id: string }) => t.id)).toContain(task.id);
  });

  it('validates the user id and the task', async () => {
    const task = await createTask({ title: 'Assign checks' });
    for (const [body, message] of [
      [{}, 'userId: is required'],
      [{ userId: '' }, 'userId: must not be empty'],
      [{ userId: 'has space' }, 'userId: may contain only letters, digits and . _ @ : + -'],
      [{ userId: 7 }, 'userId: must be a string'],
    ] as const) {
      const response = await rest('POST', `/v1/tasks/${task.id}/assignees`, body);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
    }
    const missing = await rest('POST', '/v1/tasks/01a2003f-4ee6-75ce-9a3a-148295411474/assignees', { userId: 'u' });
    expect(missing.status).toBe(404);
  });

  it('works over GraphQL too', async () => {
    const task = await createTask({ title: 'GraphQL assign' });
    const added = await gql('mutation ($t: ID!) { addTaskAssignee(taskId: $t, userId: "carol") { assignees { userId } } }', { t: task.id });
    expect(added.data.addTaskAssignee.assignees).toEqual([{ userId: 'carol' }]);
    const removed = await gql('mutation ($t: ID!) { removeTaskAssignee(taskId: $t, userId: "carol") { assignees { userId } } }', { t: task.id });
    expect(removed.data.removeTaskAssignee.assignees).toEqual([]);
    const again = await gql('mutation ($t: ID!) { removeTaskAssignee(taskId: $t, userId: "carol") { id } }', { t: task.id });
    expect(again.status).toBe(404);
    expect(again.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('GraphQL task mutations', () => {
  it('create, update and delete with validation', async () => {
    const created = await gql('mutation { createTask(input: {title: "G", priority: LOW, dueDate: "2026-12-31"}) { id priority dueDate } }');
    expect(created.data.createTask).toMatchObject({ priority: 'LOW', dueDate: '2026-12-31T00:00:00.000Z' });
    const id = created.data.createTask.id;
    const updated = await gql('mutation ($id: ID!) { updateTask(id: $id, input: {status: DONE}) { status completedAt } }', { id });
    expect(updated.data.updateTask.status).toBe('DONE');
    const bad = await gql('mutation { createTask(input: {title: ""}) { id } }');
    expect(bad.status).toBe(400);
    expect(bad.errors?.[0]?.message).toBe('title: must not be empty');
    const deleted = await gql('mutation ($id: ID!) { deleteTask(id: $id) { id } }', { id });
    expect(deleted.data.deleteTask.id).toBe(id);
  });
});
