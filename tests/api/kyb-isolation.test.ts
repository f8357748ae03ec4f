// Organization B holds every permission, yet A's business cases, parties and
// notes are invisible to it (404 as for missing ids), over REST and GraphQL,
// down to nested loads where the database's row-level security is the backstop.
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
let gqlB: ReturnType<typeof graphqlClient>;
let caseA: string;
let partyA: string;
let noteA: string;

const snapshotA = async () => ({
  business: (await restA('GET', `/v1/business-cases/${caseA}`)).body,
  ownership: (await restA('GET', `/v1/business-cases/${caseA}/ownership`)).body,
  note: (await restA('GET', `/v1/notes/${noteA}`)).body,
});

beforeAll(async () => {
  service = await startTestService();
  ({ orgA, orgB, restA, restB, gqlB } = await twoOrganizations(service));
  caseA = (await restA('POST', '/v1/business-cases', { legalName: 'Secret Holdings A', registrationNumber: 'SECRET-1', taxId: '99-1234567' })).body.id;
  partyA = (await restA('POST', `/v1/business-cases/${caseA}/parties`, { kind: 'INDIVIDUAL', name: 'Secret Owner', roles: ['BENEFICIAL_OWNER'], ownershipPercentage: 100 })).body.id;
  noteA = (await restA('POST', '/v1/notes', { body: 'Secret finding', businessCaseId: caseA })).body.id;
});
afterAll(() => service.stop());

describe('REST: organization B against organization A', () => {
  it('gets 404 for A\'s business case, parties, ownership and notes, exactly as for missing ids', async () => {
    const missing = randomUUID();
    const requests: Array<[string, string, unknown?]> = [
      ['GET', `/v1/business-cases/${caseA}`],
      ['PATCH', `/v1/business-cases/${caseA}`, { legalName: 'Hacked' }],
      ['DELETE', `/v1/business-cases/${caseA}`],
      ['GET', `/v1/business-cases/${caseA}/parties`],
      ['POST', `/v1/business-cases/${caseA}/parties`, { kind: 'INDIVIDUAL', name: 'Intruder', roles: ['SHAREHOLDER'] }],
      ['GET', `/v1/business-cases/${caseA}/parties/${partyA}`],
      ['PATCH', `/v1/business-cases/${caseA}/parties/${partyA}`, { name: 'Hacked' }],
      ['DELETE', `/v1/business-cases/${caseA}/parties/${partyA}`],
      ['GET', `/v1/business-cases/${caseA}/ownership`],
      ['GET', `/v1/notes/${noteA}`],
      ['PATCH', `/v1/notes/${noteA}`, { body: 'Hacked' }],
      ['DELETE', `/v1/notes/${noteA}`],
      ['GET', `/v1/notes?businessCaseId=${caseA}`],
      ['POST', '/v1/notes', { body: 'Planted', businessCaseId: caseA }],
    ];
    for (const [method, path, body] of requests) {
      const foreign = await restB(method, path, body);
      const absent = await restB(method, path.replaceAll(caseA, missing).replaceAll(partyA, missing).replaceAll(noteA, missing), body === undefined ? undefined : JSON.parse(JSON.stringify(body).replaceAll(caseA, missing)));
      expect(foreign.status, `${method} ${path}`).toBe(404);
      expect(foreign.body.message.replaceAll(caseA, missing).replaceAll(partyA, missing).replaceAll(noteA, missing)).toBe(absent.body.message);
    }
  });

  it('never lists A\'s rows, whatever the filter or search', async () => {
    expect((await restB('GET', '/v1/business-cases?search=secret')).body.meta.total).toBe(0);
    expect((await restB('GET', '/v1/business-cases')).body.meta.total).toBe(0);
    expect((await restB('GET', '/v1/notes?search=secret')).body.meta.total).toBe(0);
  });

  it('cannot attach its own party to A\'s company or use A\'s consumer case', async () => {
    const caseB = (await restB('POST', '/v1/business-cases', { legalName: 'B Ltd' })).body.id;
    const owning = await restB('POST', `/v1/business-cases/${caseB}/parties`, { kind: 'INDIVIDUAL', name: 'B Person', roles: ['SHAREHOLDER'], owns: [{ partyId: partyA, percentage: 10 }] });
    expect(owning.status).toBe(400);
    expect(owning.body.message).toBe(`owns.0.partyId: no party ${partyA} in this business case`);
  });

  it('left A\'s data untouched', async () => {
    const snapshot = await snapshotA();
    expect(snapshot.business.legalName).toBe('Secret Holdings A');
    expect(snapshot.ownership.ultimateBeneficialOwners.map((o: { name: string }) => o.name)).toEqual(['Secret Owner']);
    expect(snapshot.note.body).toBe('Secret finding');
  });
});

describe('GraphQL and the database backstop', () => {
  it('gets NOT_FOUND for A\'s objects', async () => {
    const result = await gqlB('query ($c: ID!, $p: ID!) { businessParty(businessCaseId: $c, id: $p) { name } }', { c: caseA, p: partyA });
    expect(result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await gqlB('query ($n: ID!) { note(id: $n) { body } }', { n: noteA })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await gqlB('query ($c: ID!) { businessCaseOwnership(businessCaseId: $c) { threshold } }', { c: caseA })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('hides A\'s parties, holdings and notes in nested loads even when rows of B point at them', async () => {
    // Corrupt rows the API would refuse, written directly (bypassing RLS): B's
    // case with A's party inside it, A's note and a holding of A's party.
    const caseB = await service.db.businessCase.create({ data: { organizationId: orgB.id, legalName: 'B Corrupt' } });
    await service.db.$executeRaw`UPDATE business_parties SET business_case_id = ${caseB.id}::uuid WHERE id = ${partyA}::uuid`;
    await service.db.$executeRaw`UPDATE notes SET business_case_id = ${caseB.id}::uuid WHERE id = ${noteA}::uuid`;
    await service.db.$executeRaw`UPDATE party_holdings SET business_case_id = ${caseB.id}::uuid WHERE owner_id = ${partyA}::uuid`;
    try {
      const result = await gqlB(
        `query ($id: ID!) { businessCase(id: $id) {
          parties { name } notes(first: 5) { totalCount edges { node { body } } }
          ownership { parties { name } edges { ownerId } }
        } }`,
        { id: caseB.id },
      );
      expect(result.errors).toBeUndefined();
      expect(result.data.businessCase).toEqual({
        parties: [], notes: { totalCount: 0, edges: [] }, ownership: { parties: [], edges: [] },
      });
      expect((await restB('GET', `/v1/business-cases/${caseB.id}/parties`)).body.items).toEqual([]);
    } finally {
      await service.db.$executeRaw`UPDATE business_parties SET business_case_id = ${caseA}::uuid WHERE id = ${partyA}::uuid`;
      await service.db.$executeRaw`UPDATE notes SET business_case_id = ${caseA}::uuid WHERE id = ${noteA}::uuid`;
      await service.db.$executeRaw`UPDATE party_holdings SET business_case_id = ${caseA}::uuid WHERE owner_id = ${partyA}::uuid`;
    }
  });
});
