// The /graphql fast path (src/http/graphql-json.ts) answers exactly as yoga's
// own HTTP handler: every request here is sent as a server would send it
// (fast path) and again with an Origin header (a browser's CORS request, which
// the fast path leaves to yoga), and status, content type and body must be the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerType } from '../../src/http/graphql-json.ts';
import type { RunningService } from '../../src/service.ts';
import { createKey, createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;
let readOnly: string;

beforeAll(async () => {
  service = await startTestService();
  org = await createOrganization(service.db, undefined, 'graphql-json');
  readOnly = await createKey(service.db, org.id, ['tasks:read']);
  await fetch(`${service.url}/v1/consumer-cases`, {
    method: 'POST', headers: { 'x-api-key': org.key, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'fast@example.com', firstName: 'Fast' }),
  });
});
afterAll(() => service?.stop());

async function send(body: string, headers: Record<string, string>, viaYoga: boolean) {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers, ...(viaYoga ? { origin: 'http://browser.example' } : {}) },
    body,
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), allow: response.headers.get('allow'), body: JSON.parse(text) as unknown };
}

const QUERY = '{ consumerCases(limit: 5) { items { email firstName status } meta { total page limit totalPages } } }';
const CASES: Array<[string, unknown, Record<string, string>?]> = [
  ['a query', { query: QUERY }],
  ['a query with variables and an operation name', { query: 'query Cases($limit: Int) { consumerCases(limit: $limit) { meta { total } } }', variables: { limit: 2 }, operationName: 'Cases' }],
  ['a syntax error', { query: '{ consumerCases { ' }],
  ['a validation error', { query: '{ consumerCases { nope } }' }],
  ['a validation error, answered as graphql-response+json', { query: '{ consumerCases { nope } }' }, { accept: 'application/graphql-response+json' }],
  ['a bad variable', { query: 'query ($limit: Int) { consumerCases(limit: $limit) { meta { total } } }', variables: { limit: 'ten' } }],
  ['an argument out of range', { query: '{ consumerCases(limit: 1000) { meta { total } } }' }],
  ['no query', {}],
  ['a query that is not a string', { query: 42 }],
  ['variables that are not an object', { query: QUERY, variables: 'x' }],
  ['an unknown parameter', { query: QUERY, colour: 'red' }],
  ['an unknown operation name', { query: QUERY, operationName: 'Missing' }],
  ['a missing case', { query: '{ consumerCase(id: "00000000-0000-4000-8000-000000000000") { id } }' }],
  ['a string with NUL', { query: 'query ($s: String) { consumerCases(search: $s) { meta { total } } }', variables: { s: 'a\u0000b' } }],
];

describe('/graphql fast path', () => {
  for (const [what, body, headers] of CASES) {
    it(`answers ${what} as yoga does`, async () => {
      const text = JSON.stringify(body);
      const fast = await send(text, { 'x-api-key': org.key, ...headers }, false);
      const yoga = await send(text, { 'x-api-key': org.key, ...headers }, true);
      expect(fast).toEqual(yoga);
    });
  }

  it('answers a missing key, a missing permission and a mutation as yoga does', async () => {
    for (const [key, query] of [[undefined, QUERY], [readOnly, QUERY], [org.key, 'mutation { createTask(input: { title: "Fast path" }) { title status } }']] as const) {
      const headers: Record<string, string> = key ? { 'x-api-key': key } : {};
      const fast = await send(JSON.stringify({ query }), headers, false);
      const yoga = await send(JSON.stringify({ query }), headers, true);
      expect(fast).toEqual(yoga);
    }
  });

  it('takes only plain JSON answers: one media type, utf-8', () => {
    expect(answerType('')).toBe('application/json');
    expect(answerType('*/*')).toBe('application/json');
    expect(answerType('application/json; charset=utf-8')).toBe('application/json');
    expect(answerType('Application/GraphQL-Response+JSON')).toBe('application/graphql-response+json');
    for (const other of ['text/event-stream', 'multipart/mixed', 'application/json, text/event-stream', 'application/json; charset=latin1', 'text/html']) {
      expect(answerType(other), other).toBeUndefined();
    }
  });
});
