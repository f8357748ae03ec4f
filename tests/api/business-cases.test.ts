import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';

let service: RunningService;
let rest: ReturnType<typeof restClient>;
let gql: ReturnType<typeof graphqlClient>;
const ids: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  const org = await createOrganization(service.db);
  rest = restClient(service.url, org.key);
  gql = graphqlClient(service.url, org.key);
  // Seeded directly, with fixed creation dates for the ordering checks.
  for (let i = 1; i <= 12; i++) {
    const row = await service.db.businessCase.create({
      data: {
        organizationId: org.id, legalName: `Company ${i} Ltd`, dbaName: i % 2 ? `Brand ${i}` : null,
        websiteUrl: `https://company${i}.example`, riskScore: i * 7.5, recommendation: i % 3 === 0 ? 'REJECT' : 'APPROVE',
        createdAt: new Date(Date.UTC(2026, 0, i)),
      },
    });
    ids.push(row.id);
  }
});
afterAll(() => service.stop());

describe('GET /v1/business-cases', () => {
  it('returns success, items with the spec fields, and meta, newest first', async () => {
    const response = await rest('GET', '/v1/business-cases');
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.meta).toEqual({ total: 12, page: 1, limit: 10, totalPages: 2 });
    expect(response.body.items[0]).toEqual({
      id: ids[11], legalName: 'Company 12 Ltd', dbaName: null, websiteUrl: 'https://company12.example',
      riskScore: 90, recommendation: 'REJECT', createdAt: '2026-01-12T00:00:00.000Z', updatedAt: expect.any(String),
      status: 'PENDING', registrationNumber: null, jurisdictionCountry: null, jurisdictionSubdivision: null, entityType: null,
      incorporationDate: null, industryCode: null, industryDescription: null, taxId: null, registeredAddress: null,
      operatingAddress: null, email: null, phoneNumber: null,
    });
    const second = await rest('GET', '/v1/business-cases?page=2');
    expect(second.body.items.map((b: { id: string }) => b.id)).toEqual([ids[1], ids[0]]);
  });

  it('validates pagination like every list', async () => {
    const response = await rest('GET', '/v1/business-cases?limit=1000');
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('limit: must be at most 100');
  });

  it('reads one by id, 404 otherwise, and over GraphQL', async () => {
    expect((await rest('GET', `/v1/business-cases/${ids[0]}`)).body.legalName).toBe('Company 1 Ltd');
    expect((await rest('GET', '/v1/business-cases/01a2003f-4ee6-75ce-9a3a-148295411474')).status).toBe(404);
    const result = await gql('{ businessCases(limit: 2) { items { legalName riskScore } meta { total } } }');
    expect(result.data.businessCases).toEqual({
      items: [{ legalName: 'Company 12 Ltd', riskScore: 90 }, { legalName: 'Company 11 Ltd', riskScore: 82.5 }],
      meta: { total: 12 },
    });
  });
});
