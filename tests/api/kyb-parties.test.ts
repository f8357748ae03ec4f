import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';

let service: RunningService;
let rest: ReturnType<typeof restClient>;
let gql: ReturnType<typeof graphqlClient>;

beforeAll(async () => {
  service = await startTestService();
  const org = await createOrganization(service.db);
  rest = restClient(service.url, org.key);
  gql = graphqlClient(service.url, org.key);
});
afterAll(() => service.stop());

async function newCase(legalName = 'Target Co') {
  const response = await rest('POST', '/v1/business-cases', { legalName });
  expect(response.status).toBe(201);
  return response.body.id as string;
}

async function addParty(caseId: string, body: Record<string, unknown>) {
  const response = await rest('POST', `/v1/business-cases/${caseId}/parties`, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

const company = (name: string, extra: Record<string, unknown> = {}) => ({ kind: 'COMPANY', name, roles: ['SHAREHOLDER'], ...extra });
const person = (name: string, extra: Record<string, unknown> = {}) => ({ kind: 'INDIVIDUAL', name, roles: ['SHAREHOLDER'], ...extra });

describe('a three-layer structure over REST', () => {
  // Business ← Alpha 70%, Dan 20%, Alice 10%; Alpha ← Beta 50%, Carol 50%; Beta ← Alice 80%, Bob 20%.
  let caseId: string;
  const id: Record<string, string> = {};
  beforeAll(async () => {
    caseId = await newCase('Layered Group plc');
    id.Alpha = await addParty(caseId, company('Alpha Holdings Ltd', { ownershipPercentage: 70, registrationNumber: '0123456', country: 'GB' }));
    id.Beta = await addParty(caseId, company('Beta Investments SA', { owns: [{ partyId: id.Alpha, percentage: 50 }] }));
    id.Carol = await addParty(caseId, person('Carol Director', { roles: ['SHAREHOLDER', 'DIRECTOR'], owns: [{ partyId: id.Alpha, percentage: 50 }] }));
    id.Dan = await addParty(caseId, person('Dan Minor', { ownershipPercentage: 20, dateOfBirth: '1970-01-01', country: 'us' }));
    id.Alice = await addParty(caseId, person('Alice Ultimate', { ownershipPercentage: 10, owns: [{ partyId: id.Beta, percentage: 80 }] }));
    id.Bob = await addParty(caseId, person('Bob Small', { owns: [{ partyId: id.Beta, percentage: 20 }] }));
  });

  it('computes effective ownership and the UBOs with their chains', async () => {
    const response = await rest('GET', `/v1/business-cases/${caseId}/ownership`);
    expect(response.status).toBe(200);
    const { body } = response;
    const effective = Object.fromEntries(body.parties.map((p: { name: string; effectivePercentage: number }) => [p.name, p.effectivePercentage]));
    // Alice 10 + 70×0.5×0.8 = 38; Carol 70×0.5 = 35; Bob 70×0.5×0.2 = 7.
    expect(effective).toEqual({
      'Alpha Holdings Ltd': 70, 'Beta Investments SA': 35, 'Carol Director': 35, 'Dan Minor': 20, 'Alice Ultimate': 38, 'Bob Small': 7,
    });
    expect(body.threshold).toBe(25);
    expect(body.ultimateBeneficialOwners).toEqual([
      {
        partyId: id.Alice, name: 'Alice Ultimate', effectivePercentage: 38,
        paths: [
          { partyIds: [id.Alice], names: ['Alice Ultimate'], percentage: 10 },
          { partyIds: [id.Alice, id.Beta, id.Alpha], names: ['Alice Ultimate', 'Beta Investments SA', 'Alpha Holdings Ltd'], percentage: 28 },
        ],
      },
      { partyId: id.Carol, name: 'Carol Director', effectivePercentage: 35, paths: [{ partyIds: [id.Carol, id.Alpha], names: ['Carol Director', 'Alpha Holdings Ltd'], percentage: 35 }] },
    ]);
    expect(body.controlPersons).toEqual([{ partyId: id.Carol, name: 'Carol Director', roles: ['DIRECTOR'] }]);
    expect(body.noOwnerReachesThreshold).toBe(false);
    expect(body.undisclosed).toEqual([]);
    expect(body.edges).toHaveLength(7);
  });

  it('takes the threshold from the request', async () => {
    const response = await rest('GET', `/v1/business-cases/${caseId}/ownership?threshold=5`);
    expect(response.body.ultimateBeneficialOwners.map((o: { name: string }) => o.name)).toEqual(['Alice Ultimate', 'Carol Director', 'Dan Minor', 'Bob Small']);
    expect((await rest('GET', `/v1/business-cases/${caseId}/ownership?threshold=0`)).body.message).toBe('threshold: must be above 0 and at most 100');
  });

  it('shows the same graph over GraphQL, from the case', async () => {
    const result = await gql(
      `query ($id: ID!) { businessCase(id: $id) {
        parties { name ownershipPercentage owns { ownedId percentage } owners { ownerId percentage } }
        ownership(threshold: 30) { ultimateBeneficialOwners { name effectivePercentage } edges { ownerId ownedId percentage } }
      } }`,
      { id: caseId },
    );
    expect(result.errors).toBeUndefined();
    const { parties, ownership } = result.data.businessCase;
    expect(parties.find((p: { name: string }) => p.name === 'Alpha Holdings Ltd')).toEqual({
      name: 'Alpha Holdings Ltd', ownershipPercentage: 70, owns: [],
      owners: expect.arrayContaining([{ ownerId: id.Beta, percentage: 50 }, { ownerId: id.Carol, percentage: 50 }]),
    });
    expect(parties.find((p: { name: string }) => p.name === 'Alice Ultimate')).toMatchObject({ ownershipPercentage: 10, owns: [{ ownedId: id.Beta, percentage: 80 }] });
    expect(ownership.ultimateBeneficialOwners).toEqual([{ name: 'Alice Ultimate', effectivePercentage: 38 }, { name: 'Carol Director', effectivePercentage: 35 }]);
    expect(ownership.edges).toContainEqual({ ownerId: id.Dan, ownedId: null, percentage: 20 });
  });

  it('lists and reads parties of the case; another case\'s party is 404 here', async () => {
    const list = await rest('GET', `/v1/business-cases/${caseId}/parties`);
    expect(list.body.items.map((p: { name: string }) => p.name)).toEqual(['Alpha Holdings Ltd', 'Beta Investments SA', 'Carol Director', 'Dan Minor', 'Alice Ultimate', 'Bob Small']);
    expect(list.body.meta.total).toBe(6);
    const dan = await rest('GET', `/v1/business-cases/${caseId}/parties/${id.Dan}`);
    expect(dan.body).toMatchObject({ kind: 'INDIVIDUAL', name: 'Dan Minor', dateOfBirth: '1970-01-01', country: 'US', ownershipPercentage: 20 });
    const otherCase = await newCase('Other Co');
    expect((await rest('GET', `/v1/business-cases/${otherCase}/parties/${id.Dan}`)).status).toBe(404);
  });
});

describe('impossible structures are refused and change nothing', () => {
  let caseId: string;
  const id: Record<string, string> = {};
  beforeAll(async () => {
    caseId = await newCase('Refusals Ltd');
    id.North = await addParty(caseId, company('North Ltd', { ownershipPercentage: 60 }));
    id.South = await addParty(caseId, company('South Ltd', { owns: [{ partyId: id.North, percentage: 50 }] }));
    id.Ann = await addParty(caseId, person('Ann Owner', { ownershipPercentage: 40 }));
  });
  const snapshot = async () => (await rest('GET', `/v1/business-cases/${caseId}/ownership`)).body;

  it.each([
    ['circular ownership', () => [`/parties/${id.North}`, 'PATCH', { owns: [{ partyId: id.South, percentage: 10 }] }], 'ownedBy: ownership is circular (South Ltd → North Ltd → South Ltd)'],
    ['over 100% of the business', () => ['/parties', 'POST', person('Greedy', { ownershipPercentage: 0.5 })], 'percentage: the owners of the business hold 100.5% together; at most 100% is possible'],
    ['over 100% of a company', () => ['/parties', 'POST', person('Greedy', { owns: [{ partyId: id.North, percentage: 50.01 }] })], 'percentage: the owners of North Ltd hold 100.01% together; at most 100% is possible'],
    ['a negative share', () => ['/parties', 'POST', person('Negative', { ownershipPercentage: -5 })], 'ownershipPercentage: must be a number above 0 and at most 100'],
    ['a non-numeric share', () => ['/parties', 'POST', person('Text', { ownershipPercentage: 'ten' })], 'ownershipPercentage: must be a number'],
    ['too many decimals', () => ['/parties', 'POST', person('Precise', { ownershipPercentage: 1.23456 })], 'ownershipPercentage: must have at most 4 decimals'],
    ['owning an individual', () => ['/parties', 'POST', person('Odd', { owns: [{ partyId: id.Ann, percentage: 10 }] })], 'ownedBy: only companies have owners; Ann Owner is an individual'],
    ['owning a party of no case here', () => ['/parties', 'POST', person('Odd', { owns: [{ partyId: '01a2003f-4ee6-75ce-9a3a-148295411474', percentage: 10 }] })], 'owns.0.partyId: no party 01a2003f-4ee6-75ce-9a3a-148295411474 in this business case'],
    ['a company twice', () => ['/parties', 'POST', person('Twice', { owns: [{ partyId: id.North, percentage: 1 }, { partyId: id.North, percentage: 1 }] })], 'owns: must name each company once'],
    ['no roles', () => ['/parties', 'POST', person('Roleless', { roles: [] })], 'roles: must name at least one role'],
    ['a date of birth on a company', () => ['/parties', 'POST', company('Born Ltd', { dateOfBirth: '2000-01-01' })], 'dateOfBirth: is only for individuals'],
    ['a registration number on a person', () => ['/parties', 'POST', person('Registered', { registrationNumber: '123' })], 'registrationNumber: is only for companies'],
  ])('%s', async (_name, request, message) => {
    const before = await snapshot();
    const [path, method, body] = request() as [string, string, object];
    const response = await rest(method, `/v1/business-cases/${caseId}${path}`, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses the same over GraphQL', async () => {
    const before = await snapshot();
    const cycle = await gql('mutation ($c: ID!, $p: ID!, $input: UpdateBusinessPartyInput!) { updateBusinessParty(businessCaseId: $c, id: $p, input: $input) { id } }', {
      c: caseId, p: id.North, input: { owns: [{ partyId: id.South, percentage: 10 }] },
    });
    expect(cycle.status).toBe(400);
    expect(cycle.errors?.[0]?.message).toBe('ownedBy: ownership is circular (South Ltd → North Ltd → South Ltd)');
    const negative = await gql('mutation ($c: ID!, $input: CreateBusinessPartyInput!) { createBusinessParty(businessCaseId: $c, input: $input) { id } }', {
      c: caseId, input: person('Negative', { ownershipPercentage: -1 }),
    });
    expect(negative.errors?.[0]?.message).toBe('ownershipPercentage: must be a number above 0 and at most 100');
    expect(await snapshot()).toEqual(before);
  });

  it('reports undisclosed shares and nobody at the threshold', async () => {
    const body = await snapshot();
    // North 60 + Ann 40 = 100 of the business; North's owners: South 50 → 50% undisclosed; South has no owners.
    expect(body.undisclosed).toEqual([{ ownedId: id.North, percentage: 50 }, { ownedId: id.South, percentage: 100 }]);
    expect(body.ultimateBeneficialOwners.map((o: { name: string }) => o.name)).toEqual(['Ann Owner']);
  });
});

describe('a structure where nobody reaches the threshold', () => {
  it('lists no UBO, says so, and names the control persons', async () => {
    const caseId = await newCase('Widely Held plc');
    for (const name of ['P1', 'P2', 'P3', 'P4', 'P5']) await addParty(caseId, person(name, { ownershipPercentage: 20 }));
    await addParty(caseId, person('Chief Executive', { roles: ['OFFICER', 'AUTHORIZED_SIGNATORY'] }));
    const body = (await rest('GET', `/v1/business-cases/${caseId}/ownership`)).body;
    expect(body.ultimateBeneficialOwners).toEqual([]);
    expect(body.noOwnerReachesThreshold).toBe(true);
    expect(body.controlPersons).toEqual([{ partyId: expect.any(String), name: 'Chief Executive', roles: ['OFFICER'] }]);
  });
});

describe('updating and removing parties', () => {
  it('replaces holdings, keeps other fields, and removing a company removes holdings in it', async () => {
    const caseId = await newCase('Changes Ltd');
    const hold = await addParty(caseId, company('HoldCo', { ownershipPercentage: 100 }));
    const eve = await addParty(caseId, person('Eve', { owns: [{ partyId: hold, percentage: 100 }] }));
    expect((await rest('GET', `/v1/business-cases/${caseId}/ownership`)).body.ultimateBeneficialOwners[0]).toMatchObject({ name: 'Eve', effectivePercentage: 100 });
    const patched = await rest('PATCH', `/v1/business-cases/${caseId}/parties/${eve}`, { owns: [{ partyId: hold, percentage: 30 }], roles: ['BENEFICIAL_OWNER'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Eve', roles: ['BENEFICIAL_OWNER'], owns: [{ ownedId: hold, percentage: 30 }] });
    const renamed = await rest('PATCH', `/v1/business-cases/${caseId}/parties/${eve}`, { name: 'Eve Example' });
    expect(renamed.body).toMatchObject({ name: 'Eve Example', owns: [{ ownedId: hold, percentage: 30 }] });
    const removed = await rest('DELETE', `/v1/business-cases/${caseId}/parties/${hold}`);
    expect(removed.status).toBe(200);
    expect((await rest('GET', `/v1/business-cases/${caseId}/parties/${eve}`)).body.owns).toEqual([]);
    expect((await rest('GET', `/v1/business-cases/${caseId}/parties/${hold}`)).status).toBe(404);
  });

  it('links an individual to a consumer case of the organization only', async () => {
    const caseId = await newCase('Linked Ltd');
    const kyc = (await rest('POST', '/v1/consumer-cases', { email: 'owner@linked.example' })).body.id;
    const party = await rest('POST', `/v1/business-cases/${caseId}/parties`, person('Owner', { consumerCaseId: kyc }));
    expect(party.body.consumerCaseId).toBe(kyc);
    const other = await createOrganization(service.db);
    const foreignKyc = (await restClient(service.url, other.key)('POST', '/v1/consumer-cases', { email: 'x@y.example' })).body.id;
    const refused = await rest('POST', `/v1/business-cases/${caseId}/parties`, person('Owner 2', { consumerCaseId: foreignKyc }));
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(`Consumer case ${foreignKyc} not found`);
    const graph = await gql('query ($c: ID!, $p: ID!) { businessParty(businessCaseId: $c, id: $p) { consumerCase { email } } }', { c: caseId, p: party.body.id });
    expect(graph.data.businessParty.consumerCase).toEqual({ email: 'owner@linked.example' });
  });

  it('answers 404 for a malformed party id, changing nothing', async () => {
    const caseId = await newCase('Malformed Ltd');
    const only = await addParty(caseId, person('Only One', { ownershipPercentage: 10 }));
    const response = await rest('PATCH', `/v1/business-cases/${caseId}/parties/not-a-uuid`, { name: 'Changed' });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('Party not-a-uuid not found');
    expect((await rest('GET', `/v1/business-cases/${caseId}/parties/${only}`)).body.name).toBe('Only One');
  });

  it('deleting the business case removes its parties and holdings', async () => {
    const caseId = await newCase('Gone Ltd');
    await addParty(caseId, person('Temp', { ownershipPercentage: 50 }));
    await rest('DELETE', `/v1/business-cases/${caseId}`);
    expect(await service.db.businessParty.count({ where: { businessCaseId: caseId } })).toBe(0);
    expect(await service.db.partyHolding.count({ where: { businessCaseId: caseId } })).toBe(0);
  });
});
