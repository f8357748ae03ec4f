// The benchmarked operations. Each is one REST request, the same route's named
// GraphQL operation sent to /graphql directly (the document the REST adapter
// runs, with the variables it would build), and the same request to the Koa +
// pg baseline (which serves the REST paths). Every request picks one of the
// seeded organizations at random and uses its key.
import { randomUUID } from 'node:crypto';
import { getOperationAST, print } from 'graphql';
import { routes } from '../../rest/routes.ts';
import { CASE_STATUSES, FAMILY, GIVEN, NATIONALITIES, PRIORITIES, type SeededOrganization, TASK_STATUSES } from './seed.ts';

export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  /** Reads count towards the throughput target; the write is reported beside them. */
  read: boolean;
  /** REST request (the Koa + pg baseline gets the same one) and the GraphQL request for one organization. */
  rest(organization: SeededOrganization): HttpRequest;
  graphql(organization: SeededOrganization): HttpRequest;
}

const pick = <T>(values: readonly T[]) => values[Math.floor(Math.random() * values.length)]!;
const JSON_HEADERS = { 'content-type': 'application/json' };

/** The route's own document, as the REST adapter sends it. */
function operationOf(method: string, path: string) {
  const route = routes.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  return { query: print(route.operation), operationName: getOperationAST(route.operation)!.name!.value };
}

function restGet(organization: SeededOrganization, path: string, query: Record<string, string | number | undefined> = {}): HttpRequest {
  const search = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
  const text = search.toString();
  return { method: 'GET', path: text ? `${path}?${text}` : path, headers: { 'x-api-key': organization.key } };
}

function graphqlPost(organization: SeededOrganization, operation: ReturnType<typeof operationOf>, variables: Record<string, unknown>): HttpRequest {
  return {
    method: 'POST', path: '/graphql', headers: { 'x-api-key': organization.key, ...JSON_HEADERS },
    body: JSON.stringify({ ...operation, variables }),
  };
}

/**
 * A list scenario: `variables()` draws one request's parameters, which become
 * the REST query string and the GraphQL variables alike.
 */
function listScenario(name: string, path: string, variables: () => Record<string, string | number | undefined>): Scenario {
  const operation = operationOf('GET', path);
  return {
    name, read: true,
    rest: (organization) => restGet(organization, path, variables()),
    graphql: (organization) => graphqlPost(organization, operation, Object.fromEntries(Object.entries(variables()).filter(([, v]) => v !== undefined))),
  };
}

/** Two word fragments, as someone types a name into a search box: part of a family name and part of a given name. */
export const searchWords = () => `${pick(FAMILY).slice(0, 5)} ${pick(GIVEN).slice(1, 4)}`;

export function scenarios(): Scenario[] {
  const getCase = operationOf('GET', '/v1/consumer-cases/:id');
  const createCase = operationOf('POST', '/v1/consumer-cases');
  const newCase = () => ({
    email: `bench-${randomUUID()}@example.com`, firstName: pick(GIVEN), lastName: pick(FAMILY),
    phoneNumber: `+4420794${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`, dateOfBirth: '1985-12-10', nationality: pick(NATIONALITIES),
  });
  return [
    listScenario('List consumer cases, page 1', '/v1/consumer-cases', () => ({ page: 1, limit: 20 })),
    listScenario('List consumer cases, status filter', '/v1/consumer-cases', () => ({ status: pick(CASE_STATUSES), limit: 20 })),
    listScenario('Search consumer cases', '/v1/consumer-cases', () => ({ search: searchWords(), limit: 20 })),
    {
      name: 'Get a consumer case by id', read: true,
      rest: (organization) => restGet(organization, `/v1/consumer-cases/${pick(organization.caseIds)}`),
      graphql: (organization) => graphqlPost(organization, getCase, { id: pick(organization.caseIds) }),
    },
    listScenario('List tasks, status and priority filter', '/v1/tasks', () => ({ status: pick(TASK_STATUSES), priority: pick(PRIORITIES), limit: 20 })),
    {
      name: 'Create a consumer case', read: false,
      rest: (organization) => ({ method: 'POST', path: '/v1/consumer-cases', headers: { 'x-api-key': organization.key, ...JSON_HEADERS }, body: JSON.stringify(newCase()) }),
      graphql: (organization) => graphqlPost(organization, createCase, { input: newCase() }),
    },
  ];
}
