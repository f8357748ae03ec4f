import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, type Permission } from '../../src/auth/permissions.ts';
import type { RunningService } from '../../src/service.ts';
import { routes } from '../../rest/routes.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createKey, createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' };
const SOME_ID = '01a2003f-4ee6-75ce-9a3a-148295411474';

let service: RunningService;
let org: TestOrganization;

beforeAll(async () => {
  service = await startTestService();
  org = await createOrganization(service.db);
});
afterAll(() => service.stop());

/** The documented permission of every endpoint (README, "Permissions"). */
const DOCUMENTED: Record<string, Permission> = {
  'GET /v1/audit-events': 'audit:read',
  'GET /v1/events': 'events:read',
  'GET /v1/events/:id': 'events:read',
  'POST /v1/webhook-endpoints': 'webhooks:write',
  'GET /v1/webhook-endpoints': 'webhooks:read',
  'GET /v1/webhook-endpoints/:id': 'webhooks:read',
  'PATCH /v1/webhook-endpoints/:id': 'webhooks:write',
  'DELETE /v1/webhook-endpoints/:id': 'webhooks:write',
  'POST /v1/webhook-endpoints/:id/rotate-secret': 'webhooks:write',
  'GET /v1/webhook-deliveries': 'webhooks:read',
  'GET /v1/webhook-deliveries/:id': 'webhooks:read',
  'POST /v1/webhook-deliveries/:id/replay': 'webhooks:write',
  'POST /v1/consumer-cases': 'consumer_cases:write',
  'POST /v1/consumer-cases/onboarding/send-email': 'consumer_cases:write',
  'GET /v1/consumer-cases/onboarding/:token': 'consumer_cases:read',
  'GET /v1/consumer-cases': 'consumer_cases:read',
  'GET /v1/consumer-cases/:id': 'consumer_cases:read',
  'PATCH /v1/consumer-cases/:id': 'consumer_cases:write',
  'DELETE /v1/consumer-cases/:id': 'consumer_cases:write',
  'POST /v1/business-cases': 'business_cases:write',
  'GET /v1/business-cases': 'business_cases:read',
  'GET /v1/business-cases/:id': 'business_cases:read',
  'PATCH /v1/business-cases/:id': 'business_cases:write',
  'DELETE /v1/business-cases/:id': 'business_cases:write',
  'GET /v1/business-cases/:id/parties': 'business_cases:read',
  'POST /v1/business-cases/:id/parties': 'business_cases:write',
  'GET /v1/business-cases/:id/parties/:partyId': 'business_cases:read',
  'PATCH /v1/business-cases/:id/parties/:partyId': 'business_cases:write',
  'DELETE /v1/business-cases/:id/parties/:partyId': 'business_cases:write',
  'GET /v1/business-cases/:id/ownership': 'business_cases:read',
  'GET /v1/watchlists': 'screening:read',
  'POST /v1/screenings': 'screening:write',
  'GET /v1/screenings': 'screening:read',
  'GET /v1/screenings/:id': 'screening:read',
  'POST /v1/consumer-cases/:id/screenings': 'screening:write',
  'POST /v1/business-cases/:id/screenings': 'screening:write',
  'GET /v1/screening-hits': 'screening:read',
  'GET /v1/screening-hits/:id': 'screening:read',
  'POST /v1/screening-hits/:id/decision': 'screening:review',
  'GET /v1/screening-settings': 'screening:read',
  'PATCH /v1/screening-settings': 'screening:configure',
  'POST /v1/consumer-cases/:id/risk-assessments': 'risk:write',
  'GET /v1/consumer-cases/:id/risk-assessment': 'risk:read',
  'POST /v1/business-cases/:id/risk-assessments': 'risk:write',
  'GET /v1/business-cases/:id/risk-assessment': 'risk:read',
  'GET /v1/risk-assessments': 'risk:read',
  'GET /v1/risk-assessments/:id': 'risk:read',
  'POST /v1/notes': 'notes:write',
  'GET /v1/notes': 'notes:read',
  'GET /v1/notes/:id': 'notes:read',
  'PATCH /v1/notes/:id': 'notes:write',
  'DELETE /v1/notes/:id': 'notes:write',
  'POST /v1/tasks': 'tasks:write',
  'GET /v1/tasks': 'tasks:read',
  'GET /v1/tasks/:id': 'tasks:read',
  'PUT /v1/tasks/:id': 'tasks:write',
  'DELETE /v1/tasks/:id': 'tasks:write',
  'POST /v1/tasks/:id/assignees': 'tasks:write',
  'DELETE /v1/tasks/:id/assignees/:userId': 'tasks:write',
  'POST /v1/files/upload/public': 'files:write',
  'POST /v1/files/upload/private': 'files:write',
  'GET /v1/files/signed-url': 'files:read',
  'DELETE /v1/files/*key': 'files:write',
  'POST /v1/documents': 'documents:write',
  'GET /v1/documents': 'documents:read',
  'GET /v1/documents/:id': 'documents:read',
  'PATCH /v1/documents/:id': 'documents:write',
  'DELETE /v1/documents/:id': 'documents:write',
  'POST /v1/document-analysis/analyze': 'document_analysis:write',
  'POST /v1/document-analysis/analyze-async': 'document_analysis:write',
  'GET /v1/document-analysis/jobs/:jobId': 'document_analysis:read',
  'GET /v1/document-analysis/parse/:fileKey': 'document_analysis:write',
  'POST /v1/document-analysis/analyze-id': 'document_analysis:write',
};

/** A concrete request for every route of the table, with plausible values. */
function sampleRequest(route: (typeof routes)[number]) {
  const path = route.path.replace(':id', SOME_ID).replace(':userId', 'user-1').replace(':partyId', SOME_ID).replace('*key', `private/${SOME_ID}/${SOME_ID}.pdf`)
    .replace(':jobId', SOME_ID).replace(':token', 'A'.repeat(43))
    .replace(':fileKey', encodeURIComponent(`private/${SOME_ID}/${SOME_ID}.pdf`));
  const body = route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT' ? { title: 'x', email: 'a@b.co', userId: 'u', fileKey: 'private/x/y.pdf' } : undefined;
  return { path, body };
}

describe('authentication', () => {
  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s without a key is 401 with exactly the error body', async (_name, route) => {
    const { path, body } = sampleRequest(route);
    const response = await restClient(service.url)(route.method, path, body);
    expect(response.status).toBe(401);
    expect(response.body).toStrictEqual(UNAUTHORIZED);
  });

  it('refuses unknown, malformed and revoked keys with 401', async () => {
    const revoked = await createOrganization(service.db);
    await service.db.apiKey.updateMany({ where: { organizationId: revoked.id }, data: { revokedAt: new Date() } });
    for (const key of ['cpk_not-a-real-key', 'garbage', `${org.key}x`, revoked.key]) {
      const response = await restClient(service.url, key)('GET', '/v1/consumer-cases');
      expect(response.status).toBe(401);
      expect(response.body).toStrictEqual(UNAUTHORIZED);
    }
  });

  it('is checked before the input: a bad body without a key is still 401', async () => {
    const response = await restClient(service.url)('POST', '/v1/consumer-cases', '{not json');
    expect(response.status).toBe(401);
  });

  it('gives GraphQL the same outcome: HTTP 401 and code UNAUTHENTICATED', async () => {
    for (const key of [undefined, 'cpk_wrong']) {
      const result = await graphqlClient(service.url, key)('{ consumerCases { meta { total } } }');
      expect(result.status).toBe(401);
      expect(result.data ?? null).toBeNull();
      expect(result.errors?.[0]).toMatchObject({ message: 'Unauthorized', extensions: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('accepts a valid key', async () => {
    const response = await restClient(service.url, org.key)('GET', '/v1/consumer-cases');
    expect(response.status).toBe(200);
  });

  it('serves GraphiQL to browsers without a key', async () => {
    const response = await fetch(`${service.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('GraphiQL');
  });
});

describe('permissions', () => {
  it('documents every route', () => {
    expect(Object.keys(DOCUMENTED).sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s needs its documented permission', async (name, route) => {
    const { path, body } = sampleRequest(route);
    const permission = DOCUMENTED[name]!;
    const others = ALL_PERMISSIONS.filter((p) => p !== permission);
    const without = await createKey(service.db, org.id, others);
    const denied = await restClient(service.url, without)(route.method, path, body);
    expect(denied.status).toBe(403);
    expect(denied.body).toStrictEqual({
      statusCode: 403,
      message: `Forbidden: this API key lacks the permission ${permission}`,
      error: 'Forbidden',
    });
    const only = await createKey(service.db, org.id, [permission]);
    const allowed = await restClient(service.url, only)(route.method, path, body);
    expect(allowed.status).not.toBe(403);
    expect(allowed.status).not.toBe(401);
  });

  it('gives GraphQL HTTP 403 and code FORBIDDEN, field by field', async () => {
    const readOnly = await createKey(service.db, org.id, ['consumer_cases:read']);
    const gql = graphqlClient(service.url, readOnly);
    const denied = await gql('mutation { createConsumerCase(input: {email: "a@b.co"}) { id } }');
    expect(denied.status).toBe(403);
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const partial = await gql('{ consumerCases { meta { total } } tasks { meta { total } } }');
    expect(partial.status).toBe(403);
    expect(partial.errors?.map((e) => e.path?.[0])).toEqual(['tasks']);
  });

  it('guards nested fields by their own permission', async () => {
    const casesOnly = await createKey(service.db, org.id, ['consumer_cases:read', 'consumer_cases:write']);
    const gql = graphqlClient(service.url, casesOnly);
    const created = await gql('mutation { createConsumerCase(input: {email: "n@b.co"}) { id } }');
    const result = await gql(`{ consumerCase(id: "${created.data.createConsumerCase.id}") { id tasks { totalCount } } }`);
    expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(result.errors?.[0]?.path).toEqual(['consumerCase', 'tasks']);
  });
});
