import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import * as rules from '../domain/validation.ts';
import { HitStatus } from '../generated/prisma/enums.ts';
import type { ListedIdentifier, ListedName } from '../screening/lists/listed-entity.ts';
import { assessCase } from '../risk/case-assessment.ts';
import { findOr404 } from './find-or-404.ts';
import { listOf, pageArgs, pageOf } from './pagination.ts';

const HitStatusEnum = builder.enumType(HitStatus, {
  name: 'HitStatus',
  description: 'PENDING until a reviewer decides; TRUE_MATCH or FALSE_POSITIVE (decided on this hit or carried over from an earlier screening of the same subject while the listed entity is unchanged).',
});

const ListedNameRef = builder.objectRef<ListedName>('ListedName').implement({
  fields: (t) => ({ full: t.exposeString('full'), strength: t.exposeString('strength', { description: 'PRIMARY, STRONG (reliable alias) or WEAK (low-quality alias).' }) }),
});
const ListedIdentifierRef = builder.objectRef<ListedIdentifier>('ListedIdentifier').implement({
  fields: (t) => ({ type: t.exposeString('type'), number: t.exposeString('number'), country: t.exposeString('country', { nullable: true }) }),
});

export const WatchlistEntity = builder.prismaObject('WatchlistEntity', {
  description: 'An entry of a watchlist version as its publisher lists it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    sourceId: t.exposeString('sourceId'),
    listVersion: t.exposeID('loadId', { description: 'The watchlist load it belongs to.' }),
    externalId: t.exposeString('externalId', { description: 'The publisher\'s own id.' }),
    kind: t.exposeString('kind'),
    names: t.field({ type: [ListedNameRef], select: { names: true }, resolve: (e) => e.names as unknown as ListedName[] }),
    birthDates: t.exposeStringList('birthDates'),
    birthPlaces: t.exposeStringList('birthPlaces'),
    nationalities: t.exposeStringList('nationalities'),
    countries: t.exposeStringList('countries'),
    addresses: t.exposeStringList('addresses'),
    identifiers: t.field({ type: [ListedIdentifierRef], select: { identifiers: true }, resolve: (e) => e.identifiers as unknown as ListedIdentifier[] }),
    programs: t.exposeStringList('programs'),
    topics: t.exposeStringList('topics', { description: 'sanction, pep.' }),
    listedOn: t.exposeString('listedOn', { nullable: true }),
    remarks: t.exposeString('remarks', { nullable: true }),
  }),
});

export const HitDecision = builder.prismaObject('HitDecision', {
  description: 'A reviewer\'s decision on a listed entity for one subject. Decisions are never changed: a new one supersedes.',
  fields: (t) => ({
    id: t.exposeID('id'),
    decision: t.expose('decision', { type: HitStatusEnum }),
    reason: t.exposeString('reason'),
    decidedBy: t.exposeString('decidedBy'),
    hitId: t.exposeID('hitId', { nullable: true, description: 'The hit it was taken on.' }),
    entityFingerprint: t.exposeString('entityFingerprint', { description: 'The listed entity\'s content when decided; a change reopens the hit.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const ScreeningHit = builder.prismaObject('ScreeningHit', {
  description: 'A listed entity that scored at or above the threshold in a screening.',
  fields: (t) => ({
    id: t.exposeID('id'),
    screeningId: t.exposeID('screeningId'),
    sourceId: t.exposeString('sourceId'),
    listVersion: t.exposeID('listVersion', { description: 'The watchlist load the entity was read from.' }),
    externalId: t.exposeString('externalId'),
    entityKind: t.exposeString('entityKind'),
    primaryName: t.exposeString('primaryName'),
    topics: t.exposeStringList('topics', { description: 'sanction, pep.' }),
    programs: t.exposeStringList('programs'),
    score: t.exposeFloat('score', { description: '0..1, after date of birth, country and identifier effects.' }),
    algorithmVersion: t.exposeString('algorithmVersion'),
    explanation: t.expose('explanation', {
      type: 'JSON',
      description: 'Per feature: name (matched name, token pairs and their similarity, unmatched tokens), kind, birthDate, country, identifier (each MATCH, PARTIAL, MISMATCH or NOT_COMPARED); previousDecision when a decision no longer applies.',
    }),
    status: t.expose('status', { type: HitStatusEnum }),
    decision: t.relation('decision', { nullable: true, description: 'The decision in force.' }),
    decisionCarriedOver: t.boolean({
      description: 'True when the decision was taken on an earlier screening of the same subject.',
      select: { decision: { select: { hitId: true } } },
      resolve: (hit) => (hit.decision ? hit.decision.hitId !== hit.id : false),
    }),
    entity: t.relation('watchlistEntity', { description: 'The listed entity in full.' }),
  }),
});

const ScreeningHitList = listOf('ScreeningHitList', ScreeningHit, 'A page of hits, newest screening first, strongest first.');

const requireHit = (db: TenantDatabase, id: string) => findOr404('Screening hit', id, (uuid) => db.screeningHit.findUnique({ where: { id: uuid }, select: { id: true } }));

const DecideHitInput = builder.inputType('DecideScreeningHitInput', {
  validate: z.object({
    decision: z.enum(['TRUE_MATCH', 'FALSE_POSITIVE'], 'must be TRUE_MATCH or FALSE_POSITIVE'),
    reason: z.string().trim().min(1, 'must not be empty').max(2000, 'must be at most 2000 characters'),
    userId: rules.userId.nullish(),
  }),
  fields: (t) => ({
    decision: t.field({ type: HitStatusEnum, required: true, description: 'TRUE_MATCH or FALSE_POSITIVE.' }),
    reason: t.string({ required: true, description: 'Why; kept with the decision.' }),
    userId: t.string({ description: 'The reviewer; default: the API key\'s label.' }),
  }),
});

builder.queryFields((t) => ({
  screeningHits: t.field({
    type: ScreeningHitList,
    description: 'Hits of your organization\'s screenings, e.g. the review queue (status PENDING).',
    authScopes: { permission: 'screening:read' },
    args: {
      ...pageArgs,
      status: t.arg({ type: HitStatusEnum, required: false }),
      screeningId: t.arg.id({ required: false }),
    },
    resolve: async (_root, args, context, info) => {
      if (args.screeningId && !rules.uuid.safeParse(args.screeningId).success) return { items: [], total: 0, page: args.page ?? 1, limit: args.limit ?? 10 };
      const where = { ...(args.status ? { status: args.status } : {}), ...(args.screeningId ? { screeningId: args.screeningId } : {}) };
      const orderBy = [{ screening: { createdAt: 'desc' as const } }, { score: 'desc' as const }, { id: 'asc' as const }];
      return pageOf(
        args,
        (window) => context.db.screeningHit.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), where, orderBy, ...window }),
        () => context.db.screeningHit.count({ where }),
      );
    },
  }),
  screeningHit: t.prismaField({
    type: ScreeningHit,
    description: 'One hit; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'screening:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      return findOr404('Screening hit', id, (uuid) => db.screeningHit.findUnique({ ...query, where: { id: uuid } }));
    },
  }),
}));

builder.mutationFields((t) => ({
  decideScreeningHit: t.prismaField({
    type: ScreeningHit,
    description: 'Decides a hit. The decision is kept (who, why, when) and applies to later screenings of the same subject until the listed entity changes.',
    authScopes: { permission: 'screening:review' },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: DecideHitInput, required: true }) },
    resolve: async (query, _root, { id, input }, { db, apiKey, screening }) => {
      await requireHit(db, id);
      const decided = await screening.decide(db, apiKey.organizationId, id, {
        status: input.decision as 'TRUE_MATCH' | 'FALSE_POSITIVE',
        reason: input.reason,
        decidedBy: input.userId ?? apiKey.name,
      });
      // A decided hit changes the case's risk (a confirmed sanctions match is PROHIBITED).
      if (decided.businessCaseId) await assessCase(db, apiKey.organizationId, { businessCaseId: decided.businessCaseId }, input.userId ?? apiKey.name);
      else if (decided.consumerCaseId) await assessCase(db, apiKey.organizationId, { consumerCaseId: decided.consumerCaseId }, input.userId ?? apiKey.name);
      return db.screeningHit.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));
