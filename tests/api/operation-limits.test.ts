// The attacks of issue 18 against the real service: each is refused with a
// 400 naming the limit before anything runs (no screening, no email), fast,
// and an ordinary answer reports its cost. REST gets the same refusal in its
// own shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createKey, createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';

let smtp: TestSmtpServer;
let service: RunningService;
let org: TestOrganization;
let gql: ReturnType<typeof graphqlClient>;
let taskId: string;
let screeningId: string;

/** The refusal every limit gives: 400, BAD_REQUEST, the limit named with what was found. */
function expectRefused(result: Awaited<ReturnType<typeof gql>>, limit: string) {
  expect(result.status, JSON.stringify(result)).toBe(400);
  expect(result.data ?? null).toBeNull();
  expect(result.errors).toHaveLength(1);
  const [error] = result.errors as Array<{ message: string; extensions: { code: string; limit: { name: string; maximum: number; found: unknown } } }>;
  expect(error!.extensions.code).toBe('BAD_REQUEST');
  expect(error!.extensions.limit.name).toBe(limit);
  expect(error!.message).toMatch(new RegExp(`^Query too large: .*${error!.extensions.limit.found} exceeds the limit of ${error!.extensions.limit.maximum} \\(GRAPHQL_MAX_`));
  return error!;
}

/** `inner` wrapped `times` in `open … close`. */
const nest = (times: number, open: string, inner: string, close: string) => open.repeat(times) + inner + close.repeat(times);

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startTestService({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'kyc@bank.example' } });
  org = await createOrganization(service.db, undefined, 'limits');
  gql = graphqlClient(service.url, org.key);
  const created = await gql(`mutation { createConsumerCase(input: { email: "cyclic@example.org" }) { id } }`);
  const caseId = created.data.createConsumerCase.id;
  for (let i = 0; i < 3; i++) {
    const task = await gql(`mutation ($c: ID!) { createTask(input: { title: "T${i}", consumerCaseId: $c }) { id } }`, { c: caseId });
    taskId = task.data.createTask.id;
  }
  const screening = await service.db.screening.create({
    data: {
      organizationId: org.id, target: 'AD_HOC', subjectKey: 'limits-subject', name: 'Subject', kind: 'PERSON', threshold: 0.8,
      algorithmVersion: 'test', requestedBy: 'test', trigger: 'MANUAL', outcome: 'NO_HITS', hitCount: 0, mediaStatus: 'NOT_REQUESTED', listVersions: [],
    },
  });
  screeningId = screening.id;
});
afterAll(async () => {
  await service?.stop();
  await smtp?.stop();
});

describe('GraphQL operation limits', () => {
  it('refuses the cyclic task → case → tasks nesting 16 deep at once', async () => {
    const started = Date.now();
    const query = `{ task(id: "${taskId}") ${nest(16, '{ consumerCase { tasks { edges { node ', '{ id }', '} } } } ')} }`;
    const error = expectRefused(await gql(query), 'depth');
    expect(error.extensions.limit).toEqual({ name: 'depth', maximum: 12, found: 66 });
    // Generous: it must not run (the report saw 84 s of CPU).
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses the same cycle within the depth limit by its cost (pages multiply along the path)', async () => {
    const query = `{ task(id: "${taskId}") ${nest(2, '{ consumerCase { tasks(first: 100) { edges { node ', '{ id }', '} } } } ')} }`;
    const error = expectRefused(await gql(query), 'cost');
    expect(error.extensions.limit).toMatchObject({ maximum: 10_000, found: 1 + 1 + 100 * (1 + 1 + 100) });
  });

  it('refuses screening → hits → screening … for a key with only screening:read, by depth and by cost', async () => {
    const reader = graphqlClient(service.url, await createKey(service.db, org.id, ['screening:read']));
    expectRefused(await reader(`{ screening(id: "${screeningId}") ${nest(15, '{ hits { screening ', '{ id }', '} } ')} }`), 'depth');
    // Three levels: 25 hits a screening, each with its screening and 25 hits again.
    const error = expectRefused(await reader(`{ screening(id: "${screeningId}") ${nest(3, '{ hits { screening ', '{ id }', '} } ')} }`), 'cost');
    expect(error.extensions.limit.found).toBe(1 + 25 * (2 + 25 * (2 + 25 * 2)));
    // The same key reads a screening with its hits as before.
    const fine = await reader(`{ screening(id: "${screeningId}") { id hits { id screening { id } } } }`);
    expect(fine).toMatchObject({ status: 200, data: { screening: { id: screeningId, hits: [] } } });
  });

  it('answers depth 30 and more with a 400, not a 500', async () => {
    for (const depth of [30, 60, 200]) {
      const result = await gql(`{ task(id: "${taskId}") ${nest(depth, '{ consumerCase ', '{ id }', '} ')} }`);
      expect(result.status).toBe(400);
      expect(result.errors![0]!.extensions).toMatchObject({ code: 'BAD_REQUEST' });
    }
  });

  it('runs no screening for 1,000 aliases of screenName', async () => {
    const aliases = Array.from({ length: 1_000 }, (_, i) => `s${i}: screenName(input: $s) { id }`).join('\n');
    const result = await gql(`mutation ($s: ScreenNameInput!) { ${aliases} }`, { s: { name: 'Vladimir Putin', kind: 'PERSON' } });
    expect(result.status).toBe(400);
    expect(result.errors![0]!.message).toMatch(/^Query too large: (tokens|aliases) /);
    expect(await service.db.screening.count({ where: { organizationId: org.id, target: 'AD_HOC', name: 'Vladimir Putin' } })).toBe(0);
    // Within the token limit, the alias limit says so.
    const thirtyOne = Array.from({ length: 31 }, (_, i) => `s${i}: screenName(input: $s) { id }`).join(' ');
    expectRefused(await gql(`mutation ($s: ScreenNameInput!) { ${thirtyOne} }`, { s: { name: 'Vladimir Putin', kind: 'PERSON' } }), 'aliases');
    expect(await service.db.screening.count({ where: { organizationId: org.id, target: 'AD_HOC', name: 'Vladimir Putin' } })).toBe(0);
  });

  it('sends no email for 20 aliased sendOnboardingEmail', async () => {
    const sends = Array.from({ length: 20 }, (_, i) => `e${i}: sendOnboardingEmail(input: { email: "victim${i}@example.org", fullName: "Victim ${i}" }) { success }`).join('\n');
    const error = expectRefused(await gql(`mutation { ${sends} }`), 'cost');
    expect(error.extensions.limit.found).toBe(20 * (1000 + 10));
    // Give a send that did start time to arrive: none may.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(0);
    expect(await service.db.onboardingInvitation.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it('refuses 1,000 aliased auditEvents(limit: 100) without building the answer', async () => {
    const pages = Array.from({ length: 1_000 }, (_, i) => `a${i}: auditEvents(limit: 100) { items { id before after } }`).join('\n');
    // As a plain JSON client asks (application/json answers keep GraphQL's own request errors at 200; these are 400).
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': org.key }, body: JSON.stringify({ query: `{ ${pages} }` }),
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text.length).toBeLessThan(2_000);
    expect(JSON.parse(text).errors[0].message).toMatch(/^Query too large: (tokens|aliases) /);
    // 31 aliased pages of 100 fit the token limit, not the alias limit (30 pages: 3,000 records at most).
    const some = Array.from({ length: 31 }, (_, i) => `a${i}: auditEvents(limit: 100) { items { id } }`).join(' ');
    expectRefused(await gql(`{ ${some} }`), 'aliases');
  });

  it('refuses a document over the token limit, naming how many tokens it has', async () => {
    const fields = Array.from({ length: 5_100 }, () => '__typename').join(' ');
    const error = expectRefused(await gql(`{ ${fields} }`), 'tokens');
    expect(error.extensions.limit).toEqual({ name: 'tokens', maximum: 5_000, found: 5_102 });
  });

  it('gives plain application/json clients the same status (not GraphQL-over-HTTP\'s 200 for request errors)', async () => {
    const queries = {
      tokens: `{ ${Array.from({ length: 5_100 }, () => '__typename').join(' ')} }`,
      depth: `{ task(id: "${taskId}") ${nest(20, '{ consumerCase ', '{ id }', '} ')} }`,
      aliases: `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: screeningSettings { threshold }`).join(' ')} }`,
      cost: `{ task(id: "${taskId}") ${nest(2, '{ consumerCase { tasks(first: 100) { edges { node ', '{ id }', '} } } } ')} }`,
    };
    for (const [limit, query] of Object.entries(queries)) {
      for (const accept of ['application/json', undefined]) {
        const response = await fetch(`${service.url}/graphql`, {
          method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': org.key, ...(accept ? { accept } : {}) }, body: JSON.stringify({ query }),
        });
        expect(response.status, `${limit} with accept ${accept}`).toBe(400);
        expect((await response.json()).errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', limit: { name: limit } });
      }
    }
  });

  it('reports the cost of an answer: requested, the limit and the rate-limit points', async () => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': org.key },
      body: JSON.stringify({ query: '{ tasks(limit: 100) { items { id assignees { userId } } meta { total } } }' }),
    });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.extensions).toEqual({ cost: { requested: 100 * (1 + 10), limit: 10_000, rateLimitPoints: 2 } });
    expect((await gql('{ screeningSettings { threshold } }') as { extensions?: unknown }).extensions).toEqual({ cost: { requested: 0, limit: 10_000, rateLimitPoints: 1 } });
  });
});

describe('limits as configured, through REST', () => {
  let small: RunningService;
  let key: string;
  beforeAll(async () => {
    small = await startTestService({ env: { GRAPHQL_MAX_COST: '50', GRAPHQL_MAX_DEPTH: '4' } });
    key = (await createOrganization(small.db, undefined, 'small-limits')).key;
  });
  afterAll(() => small?.stop());

  it('answers a REST route over the cost limit with the shared 400 shape', async () => {
    const rest = restClient(small.url, key);
    expect((await rest('GET', '/v1/tasks?limit=4')).status).toBe(200);
    const refused = await rest('GET', '/v1/tasks?limit=100');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      statusCode: 400,
      message: 'Query too large: estimated cost 1100 exceeds the limit of 50 (GRAPHQL_MAX_COST); see docs/api-limits.md',
      error: 'Bad Request',
    });
  });

  it('applies the configured depth', async () => {
    const result = await graphqlClient(small.url, key)('{ tasks { items { consumerCase { address { city } } } } }');
    expect(result.status).toBe(400);
    expect(result.errors![0]!.message).toBe('Query too large: depth 5 exceeds the limit of 4 (GRAPHQL_MAX_DEPTH); see docs/api-limits.md');
  });
});
