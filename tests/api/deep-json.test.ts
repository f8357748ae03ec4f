// JSON nested far too deeply (50,000 levels: a few hundred kilobytes) is a
// client error (400 in the shared shape), wherever it comes: a REST body, a
// GraphQL body, its variables or extensions, on the direct path or yoga's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;

beforeAll(async () => {
  service = await startTestService();
  org = await createOrganization(service.db, undefined, 'deep-json');
});
afterAll(() => service?.stop());

const DEPTH = 50_000;
const deepObject = (depth = DEPTH) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const deepArray = (depth = DEPTH) => '['.repeat(depth) + ']'.repeat(depth);
const QUERY = JSON.stringify('mutation ($input: CreateConsumerCaseInput!) { createConsumerCase(input: $input) { id } }');

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(service.url + path, {
    method: 'POST',
    headers: { 'x-api-key': org.key, 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: JSON.parse(await response.text()) };
}

const GRAPHQL_BODIES: Array<[string, string]> = [
  ['variables', `{"query":${QUERY},"variables":{"input":{"email":"deep@example.com","firstName":${deepObject()}}}}`],
  ['a variable of arrays', `{"query":${QUERY},"variables":{"input":${deepArray()}}}`],
  ['extensions', `{"query":"{ consumerCases { meta { total } } }","extensions":${deepObject()}}`],
  ['an unknown parameter', `{"query":"{ consumerCases { meta { total } } }","x":${deepObject()}}`],
];

describe('deeply nested JSON', () => {
  it('in a REST body is a 400', async () => {
    for (const body of [
      `{"email":"deep@example.com","firstName":${deepObject()}}`,
      `{"email":"deep@example.com","address":${deepObject()}}`,
      `{"email":"deep@example.com","x":${deepArray()}}`,
    ]) {
      const answer = await post('/v1/consumer-cases', body);
      expect(answer).toEqual({ status: 400, body: { statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/nested too deeply/) } });
    }
    expect(await service.db.consumerCase.count({ where: { organizationId: org.id } })).toBe(0);
  });

  for (const [where, body] of GRAPHQL_BODIES) {
    it(`in a GraphQL body's ${where} is a 400, on both paths`, async () => {
      for (const headers of [{}, { origin: 'http://browser.example' }] as Array<Record<string, string>>) {
        const answer = await post('/graphql', body, headers);
        expect(answer.status).toBe(400);
        expect(answer.body.errors[0]).toMatchObject({ message: expect.stringMatching(/nested too deeply/), extensions: { code: 'BAD_REQUEST' } });
      }
    });
  }

  it('in GraphQL variables of a GET (as deep as a request head can carry) is a 400', async () => {
    // Node takes 16 kB of request head: about 2,600 levels, which the pipeline refuses for their type.
    const variables = encodeURIComponent(`{"input":${deepArray(2_600)}}`);
    const query = encodeURIComponent('query ($input: Int) { consumerCases(limit: $input) { meta { total } } }');
    const response = await fetch(`${service.url}/graphql?query=${query}&variables=${variables}`, { headers: { 'x-api-key': org.key, accept: 'application/json' } });
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('is fine up to the bound', async () => {
    const answer = await post('/v1/consumer-cases', `{"email":"shallow@example.com","x":${deepArray(40)}}`);
    // Refused for the unknown field, not for its depth.
    expect(answer.status).toBe(400);
    expect(answer.body.message).not.toMatch(/nested too deeply/);
  });
});
