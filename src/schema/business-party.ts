import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { builder, type Types } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import * as kyb from '../domain/kyb-validation.ts';
import { assertPossibleStructure, computeOwnership, type Holding, type OwnershipParty } from '../domain/ownership.ts';
import * as rules from '../domain/validation.ts';
import { invalidInput } from '../errors.ts';
import { PartyKind, PartyRole } from '../generated/prisma/enums.ts';
import { BusinessCase, requireBusinessCase } from './business-case.ts';
import { ConsumerCase, requireConsumerCase } from './consumer-case.ts';
import { findOr404 } from './find-or-404.ts';
import { costs, listOfAtMost, OWNERSHIP } from './cost.ts';
import { listOf, pageArgs, pageOf } from './pagination.ts';

const PartyKindEnum = builder.enumType(PartyKind, { name: 'PartyKind' });
const PartyRoleEnum = builder.enumType(PartyRole, { name: 'PartyRole' });
const ENTERED_FIRST = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];

// Caps on what a case holds, enforced on write (400 naming the cap) and used
// as the list sizes the operation cost analysis charges (docs/api-limits.md),
// so that the charge of a read is its real bound. Reads never return more,
// even of rows written before the caps.
/** Parties of one business case. */
export const MAX_PARTIES_PER_CASE = 50;
/** Shares one party holds in company parties of its case (`owns`). */
export const MAX_HOLDINGS_PER_PARTY = 20;
/** Holders of one company party's shares (`owners`). */
export const MAX_OWNERS_PER_COMPANY = 20;

export const PartyHolding = builder.prismaObject('PartyHolding', {
  description: 'A share one party holds: of a company party, or of the case\'s business when `ownedId` is null.',
  fields: (t) => ({
    id: t.exposeID('id'),
    ownerId: t.exposeID('ownerId'),
    ownedId: t.exposeID('ownedId', { nullable: true, description: 'The company party owned; null: the business itself.' }),
    percentage: t.exposeFloat('percentage'),
    owner: t.relation('owner'),
    owned: t.relation('owned', { nullable: true }),
  }),
});

export const BusinessParty = builder.prismaObject('BusinessParty', {
  description: 'A person or company related to a business case: owner, officer, signatory ...',
  fields: (t) => ({
    id: t.exposeID('id'),
    businessCaseId: t.exposeID('businessCaseId'),
    kind: t.expose('kind', { type: PartyKindEnum }),
    name: t.exposeString('name'),
    roles: t.expose('roles', { type: [PartyRoleEnum] }),
    dateOfBirth: t.expose('dateOfBirth', { type: 'Date', nullable: true }),
    country: t.exposeString('country', { nullable: true, description: 'Nationality of an individual; country of registration of a company.' }),
    registrationNumber: t.exposeString('registrationNumber', { nullable: true }),
    consumerCaseId: t.exposeID('consumerCaseId', { nullable: true, description: 'The KYC case of an individual party.' }),
    consumerCase: t.relation('consumerCase', { type: ConsumerCase, nullable: true, authScopes: { permission: 'consumer_cases:read' } }),
    // Both read the one `holdings` relation unfiltered: two differently
    // filtered loads of it could not share the party's query.
    ownershipPercentage: t.float({
      nullable: true,
      description: 'Direct share of the business (null: none).',
      select: { holdings: { select: { ownedId: true, percentage: true } } },
      resolve: (party) => party.holdings.find((h) => h.ownedId === null)?.percentage ?? null,
    }),
    owns: t.field({
      type: [PartyHolding],
      extensions: listOfAtMost(MAX_HOLDINGS_PER_PARTY),
      description: `Shares this party holds in company parties of the case (at most ${MAX_HOLDINGS_PER_PARTY}).`,
      select: (_args, _context, nestedSelection) => ({ holdings: nestedSelection({ select: { ownedId: true } }) }),
      // The nested selection holds what the client asked of each holding (plus ownedId); the types only know ownedId.
      resolve: (party) => party.holdings.filter((h) => h.ownedId !== null).slice(0, MAX_HOLDINGS_PER_PARTY) as never,
    }),
    owners: t.relation('owners', {
      description: `Holders of this company party's shares (at most ${MAX_OWNERS_PER_COMPANY}).`,
      extensions: listOfAtMost(MAX_OWNERS_PER_COMPANY),
      query: { take: MAX_OWNERS_PER_COMPANY },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const BusinessPartyList = listOf('BusinessPartyList', BusinessParty, 'Parties of a business case, in the order entered.');

const requireParty = (db: TenantDatabase, businessCaseId: string, id: string) =>
  findOr404('Party', id, (uuid) =>
    db.businessParty.findFirst({ where: { id: uuid, businessCaseId }, select: { id: true, kind: true, name: true, roles: true } }),
  );

builder.prismaObjectField(BusinessCase, 'parties', (t) =>
  t.relation('parties', {
    description: `Parties in the order entered (at most ${MAX_PARTIES_PER_CASE}).`,
    extensions: listOfAtMost(MAX_PARTIES_PER_CASE),
    query: () => ({ orderBy: ENTERED_FIRST, take: MAX_PARTIES_PER_CASE }),
  }),
);

// ----- ownership view -----

interface OwnershipView extends ReturnType<typeof computeOwnership> {
  parties: Array<OwnershipParty & { effectivePercentage: number }>;
  edges: Holding[];
}

const OwnershipNode = builder.objectRef<OwnershipView['parties'][number]>('OwnershipNode').implement({
  fields: (t) => ({
    partyId: t.exposeID('id'),
    name: t.exposeString('name'),
    kind: t.field({ type: PartyKindEnum, resolve: (p) => p.kind }),
    roles: t.field({ type: [PartyRoleEnum], resolve: (p) => p.roles }),
    effectivePercentage: t.exposeFloat('effectivePercentage', { description: 'Share of the business held directly and through companies.' }),
  }),
});

const OwnershipEdge = builder.objectRef<Holding>('OwnershipEdge').implement({
  fields: (t) => ({
    ownerId: t.exposeID('ownerId'),
    ownedId: t.exposeID('ownedId', { nullable: true, description: 'Null: the business itself.' }),
    percentage: t.exposeFloat('percentage'),
  }),
});

const OwnershipPath = builder.objectRef<{ partyIds: string[]; names: string[]; percentage: number }>('OwnershipPath').implement({
  description: 'One chain of holdings from an owner down to the business.',
  fields: (t) => ({
    partyIds: t.exposeIDList('partyIds'),
    names: t.exposeStringList('names'),
    percentage: t.exposeFloat('percentage', { description: 'The product of the shares along the chain.' }),
  }),
});

const BeneficialOwner = builder.objectRef<OwnershipView['ultimateBeneficialOwners'][number] & { names: Map<string, string> }>('BeneficialOwner').implement({
  fields: (t) => ({
    partyId: t.exposeID('partyId'),
    name: t.exposeString('name'),
    effectivePercentage: t.exposeFloat('effectivePercentage'),
    paths: t.field({
      type: [OwnershipPath],
      resolve: (owner) => owner.paths.map((p) => ({ ...p, names: p.partyIds.map((id) => owner.names.get(id) ?? id) })),
    }),
  }),
});

const ControlPerson = builder.objectRef<OwnershipView['controlPersons'][number]>('ControlPerson').implement({
  fields: (t) => ({
    partyId: t.exposeID('partyId'),
    name: t.exposeString('name'),
    roles: t.field({ type: [PartyRoleEnum], resolve: (p) => p.roles }),
  }),
});

const UndisclosedShare = builder.objectRef<OwnershipView['undisclosed'][number]>('UndisclosedShare').implement({
  description: 'A share whose holders were not entered.',
  fields: (t) => ({
    ownedId: t.exposeID('ownedId', { nullable: true, description: 'Null: the business itself.' }),
    percentage: t.exposeFloat('percentage'),
  }),
});

const Ownership = builder.objectRef<OwnershipView>('Ownership').implement({
  description: 'The ownership structure of a business case as a graph, with its computed beneficial owners.',
  fields: (t) => ({
    threshold: t.exposeFloat('threshold'),
    parties: t.field({ type: [OwnershipNode], resolve: (o) => o.parties }),
    edges: t.field({ type: [OwnershipEdge], resolve: (o) => o.edges }),
    ultimateBeneficialOwners: t.field({
      type: [BeneficialOwner],
      resolve: (o) => {
        const names = new Map(o.parties.map((p) => [p.id, p.name]));
        return o.ultimateBeneficialOwners.map((owner) => ({ ...owner, names }));
      },
    }),
    controlPersons: t.field({ type: [ControlPerson], resolve: (o) => o.controlPersons }),
    noOwnerReachesThreshold: t.exposeBoolean('noOwnerReachesThreshold'),
    undisclosed: t.field({ type: [UndisclosedShare], resolve: (o) => o.undisclosed }),
  }),
});

/** The parties and holdings of a case, as the ownership functions take them. */
async function loadStructure(db: TenantDatabase, businessCaseId: string) {
  const [parties, holdings] = await Promise.all([
    db.businessParty.findMany({ where: { businessCaseId }, select: { id: true, name: true, kind: true, roles: true }, orderBy: ENTERED_FIRST }),
    db.partyHolding.findMany({ where: { businessCaseId }, select: { ownerId: true, ownedId: true, percentage: true } }),
  ]);
  return { parties: parties as OwnershipParty[], holdings: holdings as Holding[] };
}

async function ownershipOf(db: TenantDatabase, businessCaseId: string, threshold: number): Promise<OwnershipView> {
  const { parties, holdings } = await loadStructure(db, businessCaseId);
  const structure = computeOwnership(parties, holdings, threshold);
  const effective = new Map(structure.effective.map((e) => [e.partyId, e.percentage]));
  return { ...structure, parties: parties.map((p) => ({ ...p, effectivePercentage: effective.get(p.id) ?? 0 })), edges: holdings };
}

const ownershipArgs = builder.args((t) => ({
  threshold: t.float({
    required: false,
    defaultValue: 25,
    description: 'Percent of effective ownership that makes an individual a beneficial owner.',
    validate: z.number().gt(0, 'must be above 0 and at most 100').max(100, 'must be above 0 and at most 100'),
  }),
}));

builder.prismaObjectFields(BusinessCase, (t) => ({
  ownership: t.field({
    type: Ownership,
    description: 'Ownership graph, effective shares, beneficial owners and control persons.',
    args: ownershipArgs,
    extensions: costs(OWNERSHIP),
    select: { id: true },
    resolve: (row, { threshold }, { db }) => ownershipOf(db, row.id, threshold ?? 25),
  }),
}));

builder.queryFields((t) => ({
  businessParties: t.field({
    type: BusinessPartyList,
    description: 'Parties of one business case, in the order entered.',
    authScopes: { permission: 'business_cases:read' },
    args: { ...pageArgs, businessCaseId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context, info) => {
      await requireBusinessCase(context.db, args.businessCaseId);
      const where = { businessCaseId: args.businessCaseId };
      return pageOf(
        args,
        (window) => context.db.businessParty.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), where, orderBy: ENTERED_FIRST, ...window }),
        () => context.db.businessParty.count({ where }),
      );
    },
  }),
  businessParty: t.prismaField({
    type: BusinessParty,
    description: 'One party of a business case; NOT_FOUND unless it belongs to that case of your organization.',
    authScopes: { permission: 'business_cases:read' },
    args: { businessCaseId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { businessCaseId, id }, { db }) => {
      await requireBusinessCase(db, businessCaseId);
      await requireParty(db, businessCaseId, id);
      return db.businessParty.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  businessCaseOwnership: t.field({
    type: Ownership,
    description: 'The ownership structure of a business case with its computed beneficial owners.',
    authScopes: { permission: 'business_cases:read' },
    extensions: costs(OWNERSHIP),
    args: { businessCaseId: t.arg.id({ required: true }), ...ownershipArgs },
    resolve: async (_root, { businessCaseId, threshold }, { db }) => {
      await requireBusinessCase(db, businessCaseId);
      return ownershipOf(db, businessCaseId, threshold ?? 25);
    },
  }),
}));

// ----- writes -----

const HoldingInput = builder.inputType('HoldingInput', {
  fields: (t) => ({
    partyId: t.id({ required: true, description: 'A company party of the same case.' }),
    percentage: t.float({ required: true, description: 'Above 0, at most 100, up to 4 decimals.' }),
  }),
});

const PartyFieldRules = z.object({
  name: rules.shortText(300),
  roles: z.array(rules.enumValue(PartyRole)).min(1, 'must name at least one role').max(6, 'must have at most 6 roles'),
  dateOfBirth: rules.dateOfBirth.nullish(),
  country: rules.countryCode.nullish(),
  registrationNumber: kyb.registrationNumber.nullish(),
  consumerCaseId: rules.uuid.nullish(),
  ownershipPercentage: kyb.percentage.nullish(),
  owns: z
    .array(z.object({ partyId: rules.uuid, percentage: kyb.percentage }))
    .max(MAX_HOLDINGS_PER_PARTY, `must have at most ${MAX_HOLDINGS_PER_PARTY} holdings (the most one party can hold)`)
    .refine((owns) => new Set(owns.map((o) => o.partyId)).size === owns.length, { message: 'must name each company once' })
    .nullish(),
});

const partyFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) => ({
  name: t.string({ description: 'Full name of a person, legal name of a company.' }),
  roles: t.field({ type: [PartyRoleEnum] }),
  dateOfBirth: t.field({ type: 'Date', description: 'Individuals only.' }),
  country: t.string({ description: 'ISO 3166-1 alpha-2: nationality of a person, registration country of a company.' }),
  registrationNumber: t.string({ description: 'Companies only.' }),
  consumerCaseId: t.id({ description: 'Individuals only: their KYC case.' }),
  ownershipPercentage: t.float({ description: 'Direct share of the business; null removes it.' }),
  owns: t.field({ type: [HoldingInput], description: 'Shares in company parties of the case; replaces the previous list.' }),
});

const CreateBusinessPartyInput = builder.inputType('CreateBusinessPartyInput', {
  validate: PartyFieldRules.extend({ kind: rules.enumValue(PartyKind) }),
  fields: (t) => ({
    kind: t.field({ type: PartyKindEnum, required: true }),
    ...partyFields(t),
    name: t.string({ required: true, description: 'Full name of a person, legal name of a company.' }),
    roles: t.field({ type: [PartyRoleEnum], required: true }),
  }),
});

const UpdateBusinessPartyInput = builder.inputType('UpdateBusinessPartyInput', {
  description: 'Fields to change; omitted fields stay, null clears an optional field.',
  validate: PartyFieldRules.extend({ name: rules.notNull(rules.shortText(300)), roles: rules.notNull(PartyFieldRules.shape.roles) }),
  fields: partyFields,
});

type PartyInput = z.infer<typeof PartyFieldRules>;
/** What a create or update says about the party (absent: unchanged; null: cleared). */
type PartyChanges = { [Field in keyof PartyInput]?: PartyInput[Field] | null };

/** Fields that fit only one kind of party are refused for the other. */
function checkKindFields(kind: PartyKind, input: PartyChanges) {
  const misplaced =
    kind === 'COMPANY'
      ? (['dateOfBirth', 'consumerCaseId'] as const).filter((field) => input[field] != null)
      : (['registrationNumber'] as const).filter((field) => input[field] != null);
  if (misplaced.length) throw invalidInput(misplaced.map((field) => `${field}: is only for ${kind === 'COMPANY' ? 'individuals' : 'companies'}`).join('; '));
}

/** Whether a create or update says anything about the party's holdings. */
const changesHoldings = (input: PartyChanges | undefined) => !!input && (input.ownershipPercentage !== undefined || input.owns !== undefined);

/** What a create or update costs beyond the write: reading the case's structure when its holdings change (cost analysis). */
const holdingsCheckCost = costs((args) => (changesHoldings(args.input as PartyChanges | undefined) ? OWNERSHIP : 0));

/**
 * The party's holdings after the change (null: unchanged), checked with the
 * whole structure (companies of this case, no cycles, at most 100% per
 * entity, the owners cap) before anything is written. Only a change of
 * holdings can make the structure impossible, so only such a change reads
 * it: a rename reads nothing more, and the structure is bounded by the caps.
 */
async function nextHoldings(db: TenantDatabase, businessCaseId: string, party: OwnershipParty, input: PartyChanges): Promise<Holding[] | null> {
  if (!changesHoldings(input)) return null;
  const { parties, holdings } = await loadStructure(db, businessCaseId);
  const others = parties.filter((p) => p.id !== party.id);
  const current = holdings.filter((h) => h.ownerId === party.id);
  const direct = input.ownershipPercentage !== undefined ? input.ownershipPercentage : (current.find((h) => h.ownedId === null)?.percentage ?? null);
  const owns = input.owns !== undefined ? (input.owns ?? []) : current.filter((h) => h.ownedId !== null).map((h) => ({ partyId: h.ownedId!, percentage: h.percentage }));
  owns.forEach((holding, index) => {
    if (!others.some((p) => p.id === holding.partyId)) throw invalidInput(`owns.${index}.partyId: no party ${holding.partyId} in this business case`);
  });
  const mine: Holding[] = [
    ...(direct != null ? [{ ownerId: party.id, ownedId: null, percentage: direct }] : []),
    ...owns.map((o) => ({ ownerId: party.id, ownedId: o.partyId, percentage: o.percentage })),
  ];
  // Holdings of others in this party stay.
  const after = [...holdings.filter((h) => h.ownerId !== party.id), ...mine];
  owns.forEach((holding, index) => {
    const owners = after.filter((h) => h.ownedId === holding.partyId).length;
    if (owners > MAX_OWNERS_PER_COMPANY) {
      throw invalidInput(`owns.${index}.partyId: a company party has at most ${MAX_OWNERS_PER_COMPANY} owners; ${holding.partyId} would have ${owners}`);
    }
  });
  assertPossibleStructure([...others, party], after);
  return mine;
}

/** Refuses a new party past the cap of its case. */
async function assertRoomForParty(db: TenantDatabase, businessCaseId: string) {
  const parties = await db.businessParty.count({ where: { businessCaseId } });
  if (parties >= MAX_PARTIES_PER_CASE) {
    throw invalidInput(`businessCaseId: a business case has at most ${MAX_PARTIES_PER_CASE} parties; this one has ${parties}`);
  }
}

builder.mutationFields((t) => ({
  createBusinessParty: t.prismaField({
    type: BusinessParty,
    description: `Adds a person or company to a business case, with its holdings (at most ${MAX_PARTIES_PER_CASE} parties per case).`,
    authScopes: { permission: 'business_cases:write' },
    extensions: holdingsCheckCost,
    args: { businessCaseId: t.arg.id({ required: true }), input: t.arg({ type: CreateBusinessPartyInput, required: true }) },
    resolve: async (query, _root, { businessCaseId, input }, { db, apiKey }) => {
      await requireBusinessCase(db, businessCaseId);
      checkKindFields(input.kind, input);
      await assertRoomForParty(db, businessCaseId);
      if (input.consumerCaseId) await requireConsumerCase(db, input.consumerCaseId);
      const roles = [...new Set(input.roles)];
      // Nothing can own a party not yet written, so a placeholder id checks the structure.
      const mine = (await nextHoldings(db, businessCaseId, { id: 'new', name: input.name, kind: input.kind, roles }, input)) ?? [];
      const { ownershipPercentage: _direct, owns: _owns, ...fields } = input;
      // One statement: the party and its holdings are written together or not at all.
      return db.businessParty.create({
        ...query,
        data: {
          ...fields, roles, businessCaseId, organizationId: apiKey.organizationId,
          holdings: { create: mine.map((h) => ({ ownedId: h.ownedId, percentage: h.percentage, businessCaseId, organizationId: apiKey.organizationId })) },
        },
      });
    },
  }),
  updateBusinessParty: t.prismaField({
    type: BusinessParty,
    description: 'Changes any subset of fields; `owns` replaces the party\'s holdings in companies.',
    authScopes: { permission: 'business_cases:write' },
    extensions: holdingsCheckCost,
    args: { businessCaseId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), input: t.arg({ type: UpdateBusinessPartyInput, required: true }) },
    resolve: async (query, _root, { businessCaseId, id, input }, { db, apiKey }) => {
      await requireBusinessCase(db, businessCaseId);
      const party = await requireParty(db, businessCaseId, id);
      checkKindFields(party.kind, input);
      if (input.consumerCaseId) await requireConsumerCase(db, input.consumerCaseId);
      const roles = input.roles ? [...new Set(input.roles)] : party.roles;
      const name = input.name ?? party.name;
      const mine = await nextHoldings(db, businessCaseId, { id, name, kind: party.kind, roles }, input);
      const { ownershipPercentage: _direct, owns: _owns, name: _name, roles: _roles, ...fields } = input;
      return db.businessParty.update({
        ...query,
        where: { id },
        data: {
          ...fields, name, roles,
          ...(mine
            ? { holdings: { deleteMany: {}, create: mine.map((h) => ({ ownedId: h.ownedId, percentage: h.percentage, businessCaseId, organizationId: apiKey.organizationId })) } }
            : {}),
        },
      });
    },
  }),
  deleteBusinessParty: t.prismaField({
    type: BusinessParty,
    description: 'Removes a party, its holdings and the holdings of others in it, and returns it as it was.',
    authScopes: { permission: 'business_cases:write' },
    args: { businessCaseId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { businessCaseId, id }, { db }) => {
      await requireBusinessCase(db, businessCaseId);
      await requireParty(db, businessCaseId, id);
      return db.businessParty.delete({ ...query, where: { id } });
    },
  }),
}));
