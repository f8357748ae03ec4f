// The outside tester's findings against the operation limits (issue 18
// review): arguments that do not coerce, negative page sizes, invalid
// cursors, heavy fields (bytes and CPU, not only rows) and refusals made
// before GraphQL runs. Each is a 4xx before anything runs; nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createKey, createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';

let smtp: TestSmtpServer;
let service: RunningService;
let org: TestOrganization;
let gql: ReturnType<typeof graphqlClient>;
let caseId: string;

/** A Markdown note of 20,000 characters, much of it markup to render. */
const LONG_MARKDOWN = '## Finding\n\n**Bold** _it_ [link](https://example.org/a) `code` and text.\n\n- one\n- two\n\n'.repeat(250).slice(0, 20_000);

/** One organization's case with `notes` long Markdown notes and `tasks` tasks on it. */
async function caseWithNotesAndTasks(target: RunningService, organization: TestOrganization, notes: number, tasks: number) {
  const created = await graphqlClient(target.url, organization.key)('mutation { createConsumerCase(input: { email: "heavy@example.org" }) { id } }');
  const id = created.data.createConsumerCase.id as string;
  await target.db.note.createMany({
    data: Array.from({ length: notes }, () => ({ organizationId: organization.id, consumerCaseId: id, body: LONG_MARKDOWN, format: 'MARKDOWN' as const, author: 't' })),
  });
  await target.db.task.createMany({ data: Array.from({ length: tasks }, (_, i) => ({ organizationId: organization.id, consumerCaseId: id, title: `T${i}` })) });
  return id;
}

const NESTED_NOTES = '{ tasks(limit: 30) { items { id consumerCase { notes(first: 20) { edges { node { body bodyHtml } } } } } } }';

/** A refusal before execution: the status, no data, one error with its code. */
function expectRefusal(result: Awaited<ReturnType<typeof gql>>, status: number, code: string) {
  expect(result.status, JSON.stringify(result)).toBe(status);
  expect(result.data ?? null).toBeNull();
  expect(result.errors).toHaveLength(1);
  expect(result.errors![0]!.extensions?.code).toBe(code);
  return result.errors![0]!;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startTestService({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'kyc@bank.example' } });
  org = await createOrganization(service.db, undefined, 'review');
  gql = graphqlClient(service.url, org.key);
  caseId = await caseWithNotesAndTasks(service, org, 20, 30);
});
afterAll(async () => {
  await service?.stop();
  await smtp?.stop();
});

describe('arguments that do not coerce (finding 4)', () => {
  it('refuses the whole operation when null goes into a variable with a default, before anything runs', async () => {
    const heavy = `a: tasks(limit: 100) { items { consumerCase { tasks(first: 100) { edges { node { id } } } } } }`;
    const result = await gql(`query ($n: ID = "x") { ${heavy} w: task(id: $n) { id } }`, { n: null });
    const error = expectRefusal(result, 400, 'BAD_USER_INPUT');
    expect(error.message).toMatch(/^Invalid arguments: /);
  });

  it('creates nothing for a mutation whose later field gets null for a required argument', async () => {
    const writer = graphqlClient(service.url, await createKey(service.db, org.id, ['tasks:write']));
    const result = await writer('mutation ($n: ID = "x") { createTask(input: { title: "permbypass" }) { id notes { totalCount } } d: deleteTask(id: $n) { id } }', { n: null });
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
    expect(result.data ?? null).toBeNull();
    expect(await service.db.task.count({ where: { organizationId: org.id, title: 'permbypass' } })).toBe(0);
  });
});

describe('negative page sizes (finding 3)', () => {
  it('answers tasks(first: -5) with a 400, not a 500', async () => {
    const error = expectRefusal(await gql(`{ consumerCase(id: "${caseId}") { tasks(first: -5) { edges { node { id } } } } }`), 400, 'BAD_USER_INPUT');
    expect(error.message).toContain('"first" must be a non-negative integer');
    expectRefusal(await gql(`{ consumerCase(id: "${caseId}") { tasks(last: -1) { edges { node { id } } } } }`), 400, 'BAD_USER_INPUT');
  });

  it('sends no email for 25 aliased sendOnboardingEmail beside a negative page, and creates nothing', async () => {
    const sends = Array.from({ length: 25 }, (_, i) => `e${i}: sendOnboardingEmail(input: { email: "victim${i}@example.org", fullName: "Victim ${i}" }) { success }`).join('\n');
    const neg = 'neg: createTask(input: { title: "negative-page" }) { consumerCase { tasks(first: -1000000) { edges { node { id } } } } }';
    const result = await gql(`mutation { ${sends} ${neg} }`);
    expect(result.status).toBe(400);
    expect(result.data ?? null).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(0);
    expect(await service.db.task.count({ where: { organizationId: org.id, title: 'negative-page' } })).toBe(0);
  });
});

describe('invalid cursors and refusals before GraphQL runs (finding 6)', () => {
  it('answers a cursor it never gave out with a 400, after and before', async () => {
    for (const page of ['first: 1, after: "garbage"', 'last: 1, before: "garbage"']) {
      expectRefusal(await gql(`{ consumerCase(id: "${caseId}") { tasks(${page}) { edges { node { id } } } } }`), 400, 'BAD_USER_INPUT');
    }
    // A cursor it gave out still pages.
    const first = await gql(`{ consumerCase(id: "${caseId}") { tasks(first: 1) { pageInfo { endCursor } } } }`);
    const cursor = first.data.consumerCase.tasks.pageInfo.endCursor as string;
    const next = await gql(`query ($c: String) { consumerCase(id: "${caseId}") { tasks(first: 1, after: $c) { edges { node { id } } } } }`, { c: cursor });
    expect(next.status).toBe(200);
    expect(next.data.consumerCase.tasks.edges).toHaveLength(1);
  });

  it('keeps extensions.http out of a refusal made before GraphQL runs', async () => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': org.key }, body: JSON.stringify([{ query: '{ __typename }' }]),
    });
    expect(response.status).toBe(400);
    const body = await response.json() as { errors: Array<{ extensions: Record<string, unknown> }> };
    expect(body.errors[0]!.extensions.code).toBeTypeOf('string');
    expect(body.errors[0]!.extensions).not.toHaveProperty('http');
  });
});

describe('heavy fields (finding 2)', () => {
  it('refuses nested long notes with their HTML by cost, before anything runs', async () => {
    const result = await gql(NESTED_NOTES);
    const error = expectRefusal(result, 400, 'BAD_REQUEST');
    expect(error.message).toMatch(/^Query too large: estimated cost \d+ exceeds the limit of 10000/);
  });

  it('still answers a page of notes with their HTML', async () => {
    const result = await gql(`{ notes(limit: 20) { items { body bodyHtml } } }`);
    expect(result.status).toBe(200);
    expect(result.data.notes.items).toHaveLength(20);
    expect(result.data.notes.items[0].bodyHtml).toContain('<strong>Bold</strong>');
  });

  describe('whatever the estimate: the query deadline', () => {
    let loose: RunningService;
    let heavy: TestOrganization;
    let other: TestOrganization;
    beforeAll(async () => {
      // A cost limit that lets the nested query through: only the deadline stands in its way.
      loose = await startTestService({ env: { GRAPHQL_MAX_COST: '10000000', GRAPHQL_MAX_QUERY_MS: '100' } });
      heavy = await createOrganization(loose.db, undefined, 'heavy');
      other = await createOrganization(loose.db, undefined, 'other');
      await caseWithNotesAndTasks(loose, heavy, 20, 30);
    });
    afterAll(() => loose?.stop());

    it('stops the query with a 400 naming the limit, and another tenant is answered meanwhile', async () => {
      const slow = graphqlClient(loose.url, heavy.key)(NESTED_NOTES);
      const otherAnswer = restClient(loose.url, other.key)('GET', '/v1/tasks');
      const [stopped, answered] = await Promise.all([slow, otherAnswer]);
      const error = expectRefusal(stopped, 400, 'BAD_REQUEST');
      expect(error.message).toMatch(/^Query too slow: stopped after 100 ms \(GRAPHQL_MAX_QUERY_MS\)/);
      expect(answered.status).toBe(200);
      // Generous: "does not hang".
      const started = Date.now();
      expect((await restClient(loose.url, other.key)('GET', '/v1/tasks')).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('lets a quick query through', async () => {
      const result = await graphqlClient(loose.url, heavy.key)('{ tasks(limit: 5) { items { id } } }');
      expect(result.status).toBe(200);
      expect(result.data.tasks.items).toHaveLength(5);
    });
  });
});
