import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';

let service: RunningService;
let rest: ReturnType<typeof restClient>;
let gql: ReturnType<typeof graphqlClient>;

const ACME = {
  legalName: '  Acme Widgets Inc.  ',
  dbaName: 'Acme',
  websiteUrl: 'https://acme.example.com',
  riskScore: 42.5,
  recommendation: 'REVIEW',
  registrationNumber: 'DE-1234567',
  jurisdictionCountry: 'us',
  jurisdictionSubdivision: 'us-de',
  entityType: 'CORPORATION',
  incorporationDate: '2015-06-01',
  industryCode: '541511',
  industryDescription: 'Custom Computer Programming Services',
  taxId: '12-3456789',
  registeredAddress: { line1: '1209 Orange Street', city: 'Wilmington', region: 'DE', postalCode: '19801', country: 'US' },
  operatingAddress: { line1: '500 Market St', line2: 'Floor 4', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'us' },
  email: 'Compliance@Acme.example.com',
  phoneNumber: '+1 (415) 555-0123',
};

beforeAll(async () => {
  service = await startTestService();
  const org = await createOrganization(service.db);
  rest = restClient(service.url, org.key);
  gql = graphqlClient(service.url, org.key);
});
afterAll(() => service.stop());

const create = async (body: Record<string, unknown>) => {
  const response = await rest('POST', '/v1/business-cases', body);
  expect(response.status).toBe(201);
  return response.body;
};

describe('POST /v1/business-cases', () => {
  it('creates a case with every KYB field, normalized, in status PENDING', async () => {
    const created = await create(ACME);
    expect(created).toEqual({
      id: expect.any(String), legalName: 'Acme Widgets Inc.', dbaName: 'Acme', websiteUrl: 'https://acme.example.com', riskScore: 42.5,
      recommendation: 'REVIEW', status: 'PENDING', registrationNumber: 'DE-1234567', jurisdictionCountry: 'US', jurisdictionSubdivision: 'US-DE',
      entityType: 'CORPORATION', incorporationDate: '2015-06-01', industryCode: '541511', industryDescription: 'Custom Computer Programming Services',
      taxId: '12-3456789',
      registeredAddress: { line1: '1209 Orange Street', line2: null, city: 'Wilmington', region: 'DE', postalCode: '19801', country: 'US' },
      operatingAddress: { line1: '500 Market St', line2: 'Floor 4', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US' },
      email: 'compliance@acme.example.com', phoneNumber: '+14155550123', createdAt: expect.any(String), updatedAt: expect.any(String),
    });
  });

  it.each([
    [{}, 'legalName: is required'],
    [{ legalName: '' }, 'legalName: must not be empty'],
    [{ legalName: 'x'.repeat(301) }, 'legalName: must be at most 300 characters'],
    [{ legalName: 'A', websiteUrl: 'javascript:alert(1)' }, 'websiteUrl: must be an http(s) URL with a domain name, e.g. https://example.com'],
    [{ legalName: 'A', websiteUrl: 'https://localhost' }, 'websiteUrl: must be an http(s) URL with a domain name, e.g. https://example.com'],
    [{ legalName: 'A', riskScore: 101 }, 'riskScore: must be between 0 and 100'],
    [{ legalName: 'A', riskScore: '50' }, 'riskScore: must be a number'],
    [{ legalName: 'A', recommendation: 'MAYBE' }, 'recommendation: must be one of APPROVE, REJECT, REVIEW'],
    [{ legalName: 'A', jurisdictionCountry: 'XX' }, 'jurisdictionCountry: must be an ISO 3166-1 alpha-2 country code, e.g. DE'],
    [{ legalName: 'A', jurisdictionSubdivision: 'Delaware' }, 'jurisdictionSubdivision: must be an ISO 3166-2 code, e.g. US-DE'],
    [{ legalName: 'A', jurisdictionCountry: 'GB', jurisdictionSubdivision: 'US-DE' }, 'jurisdictionSubdivision: must be a subdivision of GB, e.g. GB-...'],
    [{ legalName: 'A', entityType: 'GMBH' }, 'entityType: must be one of CORPORATION, LLC, NON_PROFIT, OTHER, PARTNERSHIP, SOLE_PROPRIETORSHIP, TRUST'],
    [{ legalName: 'A', incorporationDate: '2999-01-01' }, 'incorporationDate: must not be in the future'],
    [{ legalName: 'A', incorporationDate: '2020-02-30' }, 'incorporationDate: must be a real calendar date in YYYY-MM-DD format'],
    [{ legalName: 'A', industryCode: '5415111' }, 'industryCode: must be a NAICS code: 2 to 6 digits starting with a NAICS sector, e.g. 541511'],
    [{ legalName: 'A', industryCode: '991234' }, 'industryCode: must be a NAICS code: 2 to 6 digits starting with a NAICS sector, e.g. 541511'],
    [{ legalName: 'A', taxId: '12' }, 'taxId: must have at least 4 letters or digits'],
    [{ legalName: 'A', taxId: '12<script>' }, 'taxId: may contain only letters, digits, spaces and . / -'],
    [{ legalName: 'A', registrationNumber: 'x'.repeat(51) }, 'registrationNumber: must be at most 50 characters'],
    [{ legalName: 'A', registeredAddress: { line1: '1 Main St', country: 'US' } }, 'registeredAddress.city: is required'],
    [{ legalName: 'A', registeredAddress: { line1: '1 Main St', city: 'X', country: 'ZZ' } }, 'registeredAddress.country: must be an ISO 3166-1 alpha-2 country code, e.g. DE'],
    [{ legalName: 'A', operatingAddress: { line1: '1 Main St', city: 'X', country: 'US', planet: 'Mars' } }, 'operatingAddress.planet: is not a known field (did you mean "line1" or "line2"?)'],
    [{ legalName: 'A', email: 'not-an-email' }, 'email: must be a valid email address'],
    [{ legalName: 'A', phoneNumber: '555-0123' }, 'phoneNumber: must be a valid phone number in international format, e.g. +14155550123'],
    [{ legalName: 'A', status: 'APPROVED' }, 'status: is not a known field'],
  ])('refuses %j with 400 over REST and GraphQL: %s', async (body, message) => {
    const before = (await rest('GET', '/v1/business-cases?limit=1')).body.meta.total;
    const response = await rest('POST', '/v1/business-cases', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    const graph = await gql('mutation ($input: CreateBusinessCaseInput!) { createBusinessCase(input: $input) { id } }', { input: body });
    expect(graph.status).toBe(400);
    expect(graph.errors?.map((e) => e.message)).toEqual([message]);
    expect((await rest('GET', '/v1/business-cases?limit=1')).body.meta.total).toBe(before);
  });
});

describe('GET /v1/business-cases', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const org = await createOrganization(service.db);
    rest = restClient(service.url, org.key);
    gql = graphqlClient(service.url, org.key);
    const rows = [
      { legalName: 'Zeta Shipping Ltd', dbaName: 'ZetaShip', riskScore: 80, recommendation: 'REJECT', jurisdictionCountry: 'GB', registrationNumber: 'SC123456', taxId: 'GB999888777' },
      { legalName: 'Alpha Bakery LLC', riskScore: 10, recommendation: 'APPROVE', jurisdictionCountry: 'US', jurisdictionSubdivision: 'US-NY' },
      { legalName: 'Mid Holdings Inc', dbaName: 'Alpha Capital', riskScore: 55, recommendation: 'REVIEW', jurisdictionCountry: 'US', jurisdictionSubdivision: 'US-DE' },
      { legalName: 'Unscored Startup', jurisdictionCountry: 'DE' },
    ];
    for (const row of rows) ids[row.legalName] = (await create(row)).id;
    await rest('PATCH', `/v1/business-cases/${ids['Mid Holdings Inc']}`, { status: 'IN_REVIEW' });
  });
  const names = async (query: string) => {
    const response = await rest('GET', `/v1/business-cases${query}`);
    expect(response.status).toBe(200);
    return response.body.items.map((b: { legalName: string }) => b.legalName);
  };

  it('filters by status, recommendation, jurisdiction (country or subdivision) and risk score range', async () => {
    expect(await names('?status=IN_REVIEW')).toEqual(['Mid Holdings Inc']);
    expect(await names('?recommendation=APPROVE')).toEqual(['Alpha Bakery LLC']);
    expect(await names('?jurisdiction=us&sortBy=legalName')).toEqual(['Alpha Bakery LLC', 'Mid Holdings Inc']);
    expect(await names('?jurisdiction=US-DE')).toEqual(['Mid Holdings Inc']);
    expect(await names('?riskScoreMin=50&riskScoreMax=80&sortBy=riskScore')).toEqual(['Zeta Shipping Ltd', 'Mid Holdings Inc']);
    expect(await names('?riskScoreMin=10.5&riskScoreMax=55&sortBy=riskScore')).toEqual(['Mid Holdings Inc']);
  });

  it('searches legal name, DBA name and registration number', async () => {
    expect(await names('?search=alpha&sortBy=legalName')).toEqual(['Alpha Bakery LLC', 'Mid Holdings Inc']);
    expect(await names('?search=sc1234')).toEqual(['Zeta Shipping Ltd']);
    expect(await names('?search=alpha%20capital')).toEqual(['Mid Holdings Inc']);
  });

  it('sorts by createdAt, riskScore (unscored last) and legalName, either way', async () => {
    expect(await names('')).toEqual(['Unscored Startup', 'Mid Holdings Inc', 'Alpha Bakery LLC', 'Zeta Shipping Ltd']);
    expect(await names('?sortBy=riskScore')).toEqual(['Zeta Shipping Ltd', 'Mid Holdings Inc', 'Alpha Bakery LLC', 'Unscored Startup']);
    expect(await names('?sortBy=riskScore&sortOrder=asc')).toEqual(['Alpha Bakery LLC', 'Mid Holdings Inc', 'Zeta Shipping Ltd', 'Unscored Startup']);
    expect(await names('?sortBy=legalName')).toEqual(['Alpha Bakery LLC', 'Mid Holdings Inc', 'Unscored Startup', 'Zeta Shipping Ltd']);
    expect(await names('?sortBy=legalName&sortOrder=desc')).toEqual(['Zeta Shipping Ltd', 'Unscored Startup', 'Mid Holdings Inc', 'Alpha Bakery LLC']);
  });

  it('never shows a tax id in full in lists; one case shows it', async () => {
    const list = await rest('GET', '/v1/business-cases?search=zeta');
    expect(list.body.items[0].taxId).toBe('•••••••8777');
    expect((await rest('GET', `/v1/business-cases/${ids['Zeta Shipping Ltd']}`)).body.taxId).toBe('GB999888777');
    const graph = await gql('{ businessCases(search: "zeta") { items { taxId } } }');
    expect(graph.data.businessCases.items[0].taxId).toBe('•••••••8777');
  });

  it.each([
    ['?status=DONE', 'status: must be one of APPROVED, ARCHIVED, IN_REVIEW, PENDING, REJECTED'],
    ['?jurisdiction=Delaware', 'jurisdiction: must be an ISO 3166-1 alpha-2 country (US) or an ISO 3166-2 subdivision (US-DE)'],
    ['?riskScoreMin=abc', 'riskScoreMin: must be a number'],
    ['?riskScoreMin=-1', 'riskScoreMin: must be between 0 and 100'],
    ['?riskScoreMin=60&riskScoreMax=40', 'riskScoreMax: must not be below riskScoreMin'],
    ['?sortBy=taxId', 'sortBy: must be one of createdAt, legalName, riskScore'],
    ['?sortOrder=up', 'sortOrder: must be one of asc, desc'],
  ])('refuses %s with 400', async (query, message) => {
    const response = await rest('GET', `/v1/business-cases${query}`);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });
});

describe('PATCH and DELETE /v1/business-cases/{id}', () => {
  it('updates any subset, clears with null, and refuses bad fields without changing anything', async () => {
    const created = await create(ACME);
    const patched = await rest('PATCH', `/v1/business-cases/${created.id}`, { dbaName: null, operatingAddress: null, riskScore: 12 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ dbaName: null, operatingAddress: null, riskScore: 12, legalName: 'Acme Widgets Inc.', taxId: '12-3456789' });
    const bad = await rest('PATCH', `/v1/business-cases/${created.id}`, { legalName: null, industryCode: '12' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('legalName: must not be null; industryCode: must be a NAICS code: 2 to 6 digits starting with a NAICS sector, e.g. 541511');
    expect((await rest('GET', `/v1/business-cases/${created.id}`)).body).toEqual(patched.body);
  });

  it('enforces the lifecycle: a decision needs a review, ARCHIVED is final', async () => {
    const { id } = await create({ legalName: 'Lifecycle Ltd' });
    const move = (status: string) => rest('PATCH', `/v1/business-cases/${id}`, { status });
    const early = await move('APPROVED');
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('status: cannot change from PENDING to APPROVED; allowed from PENDING: IN_REVIEW, ARCHIVED');
    expect((await move('IN_REVIEW')).body.status).toBe('IN_REVIEW');
    expect((await move('APPROVED')).body.status).toBe('APPROVED');
    expect((await move('IN_REVIEW')).body.status).toBe('IN_REVIEW');
    expect((await move('REJECTED')).body.status).toBe('REJECTED');
    expect((await move('ARCHIVED')).body.status).toBe('ARCHIVED');
    expect((await move('IN_REVIEW')).body.message).toBe('status: cannot change from ARCHIVED to IN_REVIEW; allowed from ARCHIVED: none (final state)');
  });

  it('deletes a case and returns it; then it is gone', async () => {
    const { id } = await create({ legalName: 'Short Lived Ltd' });
    const deleted = await rest('DELETE', `/v1/business-cases/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.legalName).toBe('Short Lived Ltd');
    expect((await rest('GET', `/v1/business-cases/${id}`)).status).toBe(404);
    expect((await rest('DELETE', `/v1/business-cases/${id}`)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('creates and updates with the same rules and messages', async () => {
    const created = await gql('mutation ($input: CreateBusinessCaseInput!) { createBusinessCase(input: $input) { id status jurisdictionSubdivision } }', {
      input: { legalName: 'Graph Co', jurisdictionCountry: 'US', jurisdictionSubdivision: 'us-ca' },
    });
    expect(created.data.createBusinessCase).toMatchObject({ status: 'PENDING', jurisdictionSubdivision: 'US-CA' });
    const refused = await gql('mutation ($input: CreateBusinessCaseInput!) { createBusinessCase(input: $input) { id } }', {
      input: { legalName: 'Graph Co', websiteUrl: 'ftp://files.example.com' },
    });
    expect(refused.status).toBe(400);
    expect(refused.errors?.[0]?.message).toBe('websiteUrl: must be an http(s) URL with a domain name, e.g. https://example.com');
  });
});
