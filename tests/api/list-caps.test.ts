// Lists the cost analysis charges by a declared size hold at most that many:
// parties of a business case, holdings of a party, owners of a company and
// assignees of a task are capped on write (400 naming the cap, nothing
// written) and never read past the cap (docs/api-limits.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HOLDINGS_PER_PARTY, MAX_OWNERS_PER_COMPANY, MAX_PARTIES_PER_CASE } from '../../src/schema/business-party.ts';
import { MAX_ASSIGNEES_PER_TASK } from '../../src/schema/task.ts';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;
let gql: ReturnType<typeof graphqlClient>;

beforeAll(async () => {
  service = await startTestService();
  org = await createOrganization(service.db, undefined, 'list-caps');
  rest = restClient(service.url, org.key);
  gql = graphqlClient(service.url, org.key);
});
afterAll(() => service.stop());

const newCase = async () => (await service.db.businessCase.create({ data: { organizationId: org.id, legalName: 'Capped Group plc' } })).id;

/** Parties written straight to the database (as before the caps, or to fill a case quickly). */
async function storedParties(businessCaseId: string, count: number, kind: 'COMPANY' | 'INDIVIDUAL' = 'INDIVIDUAL') {
  const data = Array.from({ length: count }, (_, i) => ({ organizationId: org.id, businessCaseId, kind, name: `Stored ${kind} ${i}`, roles: ['SHAREHOLDER' as const] }));
  return (await service.db.businessParty.createManyAndReturn({ data, select: { id: true } })).map((p) => p.id);
}

const CREATE_PARTY = `mutation ($c: ID!, $input: CreateBusinessPartyInput!) { createBusinessParty(businessCaseId: $c, input: $input) { id } }`;

describe('parties of a business case', () => {
  it(`are at most ${MAX_PARTIES_PER_CASE}: the next is refused with a 400 naming the cap, over GraphQL and REST`, async () => {
    const caseId = await newCase();
    await storedParties(caseId, MAX_PARTIES_PER_CASE - 1);
    const last = await gql(CREATE_PARTY, { c: caseId, input: { kind: 'INDIVIDUAL', name: 'Last One', roles: ['DIRECTOR'] } });
    expect(last.errors).toBeUndefined();

    const over = await gql(CREATE_PARTY, { c: caseId, input: { kind: 'INDIVIDUAL', name: 'One Too Many', roles: ['DIRECTOR'] } });
    expect(over.status).toBe(400);
    expect(over.errors![0]).toMatchObject({
      message: `businessCaseId: a business case has at most ${MAX_PARTIES_PER_CASE} parties; this one has ${MAX_PARTIES_PER_CASE}`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const overRest = await rest('POST', `/v1/business-cases/${caseId}/parties`, { kind: 'COMPANY', name: 'Also Too Many', roles: ['SHAREHOLDER'] });
    expect(overRest.status).toBe(400);
    expect(overRest.body).toEqual({ statusCode: 400, message: expect.stringContaining(`at most ${MAX_PARTIES_PER_CASE} parties`), error: 'Bad Request' });
    expect(await service.db.businessParty.count({ where: { businessCaseId: caseId } })).toBe(MAX_PARTIES_PER_CASE);
  });

  it('are never read past the cap the cost analysis charges, even when stored before it', async () => {
    const caseId = await newCase();
    await storedParties(caseId, MAX_PARTIES_PER_CASE + 10);
    const read = await gql('query ($c: ID!) { businessCase(id: $c) { parties { id } } }', { c: caseId });
    expect(read.errors).toBeUndefined();
    expect(read.data.businessCase.parties).toHaveLength(MAX_PARTIES_PER_CASE);
  });
});

describe('holdings', () => {
  it(`of one party are at most ${MAX_HOLDINGS_PER_PARTY}`, async () => {
    const caseId = await newCase();
    const companies = await storedParties(caseId, MAX_HOLDINGS_PER_PARTY + 1, 'COMPANY');
    const owns = companies.map((partyId) => ({ partyId, percentage: 1 }));
    const over = await gql(CREATE_PARTY, { c: caseId, input: { kind: 'INDIVIDUAL', name: 'Big Holder', roles: ['SHAREHOLDER'], owns } });
    expect(over.status).toBe(400);
    expect(over.errors![0]!.message).toContain(`must have at most ${MAX_HOLDINGS_PER_PARTY} holdings`);
    const fits = await gql(CREATE_PARTY, { c: caseId, input: { kind: 'INDIVIDUAL', name: 'Holder', roles: ['SHAREHOLDER'], owns: owns.slice(1) } });
    expect(fits.errors).toBeUndefined();
  });

  it(`in one company come from at most ${MAX_OWNERS_PER_COMPANY} owners, and are never read past it`, async () => {
    const caseId = await newCase();
    const [target] = await storedParties(caseId, 1, 'COMPANY');
    const owners = await storedParties(caseId, MAX_OWNERS_PER_COMPANY);
    await service.db.partyHolding.createMany({
      data: owners.map((ownerId) => ({ organizationId: org.id, businessCaseId: caseId, ownerId, ownedId: target!, percentage: 1 })),
    });
    const over = await gql(CREATE_PARTY, { c: caseId, input: { kind: 'INDIVIDUAL', name: 'Owner Too Many', roles: ['SHAREHOLDER'], owns: [{ partyId: target, percentage: 1 }] } });
    expect(over.status).toBe(400);
    expect(over.errors![0]).toMatchObject({
      message: `owns.0.partyId: a company party has at most ${MAX_OWNERS_PER_COMPANY} owners; ${target} would have ${MAX_OWNERS_PER_COMPANY + 1}`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(await service.db.partyHolding.count({ where: { ownedId: target } })).toBe(MAX_OWNERS_PER_COMPANY);

    // Owners stored before the cap are not all read.
    const [extra] = await storedParties(caseId, 1);
    await service.db.partyHolding.create({ data: { organizationId: org.id, businessCaseId: caseId, ownerId: extra!, ownedId: target!, percentage: 1 } });
    const read = await gql('query ($c: ID!, $p: ID!) { businessParty(businessCaseId: $c, id: $p) { owners { percentage } } }', { c: caseId, p: target });
    expect(read.errors).toBeUndefined();
    expect(read.data.businessParty.owners).toHaveLength(MAX_OWNERS_PER_COMPANY);
  });
});

describe('updating a party', () => {
  const UPDATE = 'mutation ($c: ID!, $p: ID!, $input: UpdateBusinessPartyInput!) { updateBusinessParty(businessCaseId: $c, id: $p, input: $input) { name } }';

  it('reads the ownership structure only when its holdings change, and is charged for it then', async () => {
    const caseId = await newCase();
    // A structure no write could make (circular), stored directly: only a change of holdings checks it.
    const [alpha, beta] = await storedParties(caseId, 2, 'COMPANY');
    await service.db.partyHolding.createMany({
      data: [
        { organizationId: org.id, businessCaseId: caseId, ownerId: alpha!, ownedId: beta!, percentage: 50 },
        { organizationId: org.id, businessCaseId: caseId, ownerId: beta!, ownedId: alpha!, percentage: 50 },
      ],
    });
    const renamed = await gql(UPDATE, { c: caseId, p: alpha, input: { name: 'Alpha Renamed' } });
    expect(renamed.errors).toBeUndefined();
    expect(renamed.data.updateBusinessParty.name).toBe('Alpha Renamed');
    const reshared = await gql(UPDATE, { c: caseId, p: alpha, input: { ownershipPercentage: 10 } });
    expect(reshared.status).toBe(400);
    expect(reshared.errors![0]!.message).toMatch(/^ownedBy: ownership is circular/);

    const costOf = (result: { extensions?: { cost?: { requested?: number } } }) => result.extensions?.cost?.requested;
    expect(costOf(reshared as never)! - costOf(renamed as never)!).toBe(20);
  });
});

describe('assignees of a task', () => {
  const ASSIGN = 'mutation ($t: ID!, $u: String!) { addTaskAssignee(taskId: $t, userId: $u) { assignees { userId } } }';

  it(`are at most ${MAX_ASSIGNEES_PER_TASK}: the next is refused, re-assigning one already there is not`, async () => {
    const task = await service.db.task.create({ data: { organizationId: org.id, title: 'Busy task' } });
    await service.db.taskAssignee.createMany({
      data: Array.from({ length: MAX_ASSIGNEES_PER_TASK - 1 }, (_, i) => ({ organizationId: org.id, taskId: task.id, userId: `user-${i}` })),
    });
    const last = await gql(ASSIGN, { t: task.id, u: 'last-user' });
    expect(last.errors).toBeUndefined();
    expect(last.data.addTaskAssignee.assignees).toHaveLength(MAX_ASSIGNEES_PER_TASK);

    const over = await gql(ASSIGN, { t: task.id, u: 'one-too-many' });
    expect(over.status).toBe(400);
    expect(over.errors![0]).toMatchObject({
      message: `taskId: a task has at most ${MAX_ASSIGNEES_PER_TASK} assignees; this one has ${MAX_ASSIGNEES_PER_TASK}`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect((await gql(ASSIGN, { t: task.id, u: 'user-0' })).errors).toBeUndefined();
    expect(await service.db.taskAssignee.count({ where: { taskId: task.id } })).toBe(MAX_ASSIGNEES_PER_TASK);
  });

  it('are never read past the cap, even when stored before it', async () => {
    const task = await service.db.task.create({ data: { organizationId: org.id, title: 'Crowded task' } });
    await service.db.taskAssignee.createMany({
      data: Array.from({ length: MAX_ASSIGNEES_PER_TASK + 5 }, (_, i) => ({ organizationId: org.id, taskId: task.id, userId: `user-${i}` })),
    });
    const read = await gql('query ($t: ID!) { task(id: $t) { assignees { userId } } }', { t: task.id });
    expect(read.errors).toBeUndefined();
    expect(read.data.task.assignees).toHaveLength(MAX_ASSIGNEES_PER_TASK);
  });
});
