// Organization B holds every permission, yet nothing of organization A is
// visible or changeable to it, over REST and GraphQL, down to nested loads.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { startTestService, type TestOrganization, twoOrganizations } from '../helpers/service.ts';

let service: RunningService;
let orgA: TestOrganization;
let orgB: TestOrganization;
let restA: ReturnType<typeof restClient>;
let restB: ReturnType<typeof restClient>;
let gqlA: ReturnType<typeof graphqlClient>;
let gqlB: ReturnType<typeof graphqlClient>;
let caseA: { id: string; email: string };
let taskA: { id: string };
let businessA: string;

async function snapshotA() {
  return {
    consumerCase: (await restA('GET', `/v1/consumer-cases/${caseA.id}`)).body,
    task: (await restA('GET', `/v1/tasks/${taskA.id}`)).body,
    business: (await restA('GET', `/v1/business-cases/${businessA}`)).body,
  };
}

beforeAll(async () => {
  // One small real list, so that screenings run (without any, screening is 503).
  const sourceId = `peps-xorg-${Date.now().toString(36)}`;
  const peps = new URL('../../../shared/datasets/sanctions/us_congress_senzing.json', import.meta.url).pathname;
  service = await startTestService({
    env: { WATCHLIST_SOURCES: JSON.stringify([{ id: sourceId, name: 'PEPs', format: 'senzing-json', files: { primary: peps } }]), WATCHLIST_REFRESH_CRON: 'off' },
  });
  for (let i = 0; i < 300 && !(await service.db.watchlistLoad.findFirst({ where: { sourceId, status: 'LOADED' } })); i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  ({ orgA, orgB, restA, restB, gqlA, gqlB } = await twoOrganizations(service));
  caseA = (await restA('POST', '/v1/consumer-cases', { email: 'secret-a@example.com', firstName: 'Secret' })).body;
  businessA = (await service.db.businessCase.create({ data: { organizationId: orgA.id, legalName: 'A Holdings' } })).id;
  taskA = (await restA('POST', '/v1/tasks', { title: 'A only', consumerCaseId: caseA.id, businessCaseId: businessA })).body;
  await restA('POST', `/v1/tasks/${taskA.id}/assignees`, { userId: 'a-analyst' });
});
afterAll(() => service.stop());

describe('REST: organization B against organization A', () => {
  it('cannot read, update or delete A\'s consumer case: 404 exactly as for a missing id', async () => {
    const missing = randomUUID();
    for (const [method, body] of [['GET'], ['PATCH', { firstName: 'Hacked' }], ['PATCH', { status: 'ACTIVE' }], ['DELETE']] as const) {
      const foreign = await restB(method, `/v1/consumer-cases/${caseA.id}`, body);
      const absent = await restB(method, `/v1/consumer-cases/${missing}`, body);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ ...absent.body, message: absent.body.message.replace(missing, caseA.id) });
    }
  });

  it('cannot read, update, delete or (un)assign A\'s task', async () => {
    for (const [method, path, body] of [
      ['GET', `/v1/tasks/${taskA.id}`],
      ['PUT', `/v1/tasks/${taskA.id}`, { title: 'Hacked' }],
      ['DELETE', `/v1/tasks/${taskA.id}`],
      ['POST', `/v1/tasks/${taskA.id}/assignees`, { userId: 'b-analyst' }],
      ['DELETE', `/v1/tasks/${taskA.id}/assignees/a-analyst`],
    ] as const) {
      const response = await restB(method, path, body);
      expect(response.status).toBe(404);
      expect(response.body.message).toBe(`Task ${taskA.id} not found`);
    }
  });

  it('cannot read A\'s business case', async () => {
    const response = await restB('GET', `/v1/business-cases/${businessA}`);
    expect(response.status).toBe(404);
  });

  it('never lists A\'s rows, whatever the filter or search', async () => {
    for (const path of [
      '/v1/consumer-cases', '/v1/consumer-cases?search=secret', '/v1/consumer-cases?status=PENDING',
      '/v1/tasks', `/v1/tasks?consumerCaseId=${caseA.id}`, `/v1/tasks?businessCaseId=${businessA}`, '/v1/tasks?assigneeId=a-analyst', '/v1/tasks?search=only',
      '/v1/business-cases',
    ]) {
      const response = await restB('GET', path);
      expect(response.status).toBe(200);
      expect(response.body.items).toEqual([]);
      expect(response.body.meta.total).toBe(0);
    }
    expect((await restA('GET', '/v1/consumer-cases?search=secret')).body.meta.total).toBe(1);
  });

  it('cannot link a task to A\'s cases', async () => {
    const consumer = await restB('POST', '/v1/tasks', { title: 'steal', consumerCaseId: caseA.id });
    expect(consumer.status).toBe(404);
    expect(consumer.body.message).toBe(`Consumer case ${caseA.id} not found`);
    const business = await restB('POST', '/v1/tasks', { title: 'steal', businessCaseId: businessA });
    expect(business.status).toBe(404);
    expect((await restB('GET', '/v1/tasks')).body.meta.total).toBe(0);
  });

  it('cannot screen or assess A\'s cases, nor see their screenings and assessments', async () => {
    const screened = await restA('POST', `/v1/consumer-cases/${caseA.id}/screenings`, {});
    expect(screened.status).toBe(201);
    const assessment = (await restA('GET', `/v1/consumer-cases/${caseA.id}/risk-assessment`)).body;
    for (const [method, path] of [
      ['POST', `/v1/consumer-cases/${caseA.id}/screenings`],
      ['POST', `/v1/business-cases/${businessA}/screenings`],
      ['POST', `/v1/consumer-cases/${caseA.id}/risk-assessments`],
      ['POST', `/v1/business-cases/${businessA}/risk-assessments`],
      ['GET', `/v1/consumer-cases/${caseA.id}/risk-assessment`],
      ['GET', `/v1/risk-assessments/${assessment.id}`],
      ['GET', `/v1/screenings/${screened.body.screenings[0].id}`],
      ['GET', `/v1/screenings?consumerCaseId=${caseA.id}`],
      ['GET', `/v1/risk-assessments?consumerCaseId=${caseA.id}`],
    ] as const) {
      expect((await restB(method, path, method === 'POST' ? {} : undefined)).status, `${method} ${path}`).toBe(404);
    }
    expect((await restB('GET', '/v1/screenings')).body.meta.total).toBe(0);
    const nested = await gqlB('{ screenings { items { id } } riskAssessments { items { id } } }');
    expect(nested.data).toEqual({ screenings: { items: [] }, riskAssessments: { items: [] } });
    expect((await restA('GET', `/v1/risk-assessments?consumerCaseId=${caseA.id}`)).body.meta.total).toBe(1);
  });

  it('left A\'s data untouched', async () => {
    const after = await snapshotA();
    expect(after.consumerCase).toEqual(caseA);
    expect(after.task).toMatchObject({ title: 'A only', assignees: [{ userId: 'a-analyst', assignedAt: expect.any(String) }] });
    expect(after.business.legalName).toBe('A Holdings');
  });
});

describe('GraphQL: organization B against organization A', () => {
  it('gets NOT_FOUND for A\'s objects, reads and writes alike', async () => {
    const operations: Array<[string, Record<string, unknown>]> = [
      ['query ($id: ID!) { consumerCase(id: $id) { id } }', { id: caseA.id }],
      ['mutation ($id: ID!) { updateConsumerCase(id: $id, input: {firstName: "X"}) { id } }', { id: caseA.id }],
      ['mutation ($id: ID!) { deleteConsumerCase(id: $id) { id } }', { id: caseA.id }],
      ['query ($id: ID!) { task(id: $id) { id } }', { id: taskA.id }],
      ['mutation ($id: ID!) { updateTask(id: $id, input: {title: "X"}) { id } }', { id: taskA.id }],
      ['mutation ($id: ID!) { deleteTask(id: $id) { id } }', { id: taskA.id }],
      ['mutation ($id: ID!) { addTaskAssignee(taskId: $id, userId: "b") { id } }', { id: taskA.id }],
      ['mutation ($id: ID!) { removeTaskAssignee(taskId: $id, userId: "a-analyst") { id } }', { id: taskA.id }],
      ['query ($id: ID!) { businessCase(id: $id) { id } }', { id: businessA }],
      ['mutation ($id: ID!) { createTask(input: {title: "x", consumerCaseId: $id}) { id } }', { id: caseA.id }],
      ['mutation ($id: ID!) { createTask(input: {title: "x", businessCaseId: $id}) { id } }', { id: businessA }],
    ];
    for (const [document, variables] of operations) {
      const result = await gqlB(document, variables);
      expect(result.status).toBe(404);
      expect(result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(result.data ?? null).toBeNull();
    }
    expect((await snapshotA()).consumerCase).toEqual(caseA);
  });

  it('lists nothing of A', async () => {
    const result = await gqlB(`query ($c: ID) {
      consumerCases(search: "secret") { meta { total } }
      tasks(consumerCaseId: $c) { meta { total } }
      businessCases { meta { total } }
    }`, { c: caseA.id });
    expect(result.data).toEqual({ consumerCases: { meta: { total: 0 } }, tasks: { meta: { total: 0 } }, businessCases: { meta: { total: 0 } } });
  });

  it('shows A its own nested relations', async () => {
    const result = await gqlA(`query ($id: ID!) { task(id: $id) { consumerCase { email } businessCase { legalName } } consumerCase(id: "${caseA.id}") { tasks { totalCount } } }`, { id: taskA.id });
    expect(result.data).toEqual({
      task: { consumerCase: { email: 'secret-a@example.com' }, businessCase: { legalName: 'A Holdings' } },
      consumerCase: { tasks: { totalCount: 1 } },
    });
  });

  it('hides A\'s rows in nested loads even when a row of B points at them (database backstop)', async () => {
    // A corrupt row that the API would refuse: written directly, bypassing
    // the application and RLS (the connecting role is not the tenant role).
    const corrupt = await service.db.task.create({
      data: { organizationId: orgB.id, title: 'corrupt link', consumerCaseId: caseA.id, businessCaseId: businessA },
    });
    const single = await gqlB(`query ($id: ID!) { task(id: $id) { id consumerCaseId consumerCase { id email } businessCase { id legalName } } }`, { id: corrupt.id });
    expect(single.data.task).toEqual({ id: corrupt.id, consumerCaseId: caseA.id, consumerCase: null, businessCase: null });
    const list = await gqlB('{ tasks { items { id consumerCase { email } businessCase { legalName } } } }');
    expect(list.data.tasks.items).toEqual([{ id: corrupt.id, consumerCase: null, businessCase: null }]);
    // ...and A's connection does not pick up B's row either.
    const fromA = await gqlA(`query ($id: ID!) { consumerCase(id: $id) { tasks { totalCount edges { node { id } } } } }`, { id: caseA.id });
    expect(fromA.data.consumerCase.tasks).toEqual({ totalCount: 1, edges: [{ node: { id: taskA.id } }] });
    await service.db.task.delete({ where: { id: corrupt.id } });
  });
});
