import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import * as rules from '../domain/validation.ts';
import { ScreeningOutcome, ScreeningSubjectKind, ScreeningTarget, ScreeningTrigger, MediaCheckStatus } from '../generated/prisma/enums.ts';
import { adHocSubjectKey } from '../screening/subjects.ts';
import { findOr404 } from './find-or-404.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';
import { AdverseMediaFinding } from './adverse-media-finding.ts';
import { ScreeningHit } from './screening-hit.ts';
import { requireBusinessCase } from './business-case.ts';
import { requireConsumerCase } from './consumer-case.ts';
import { costs, listOfAtMost, SCREENING } from './cost.ts';
import { MAX_HITS } from '../screening/screening-service.ts';

const ScreeningTargetEnum = builder.enumType(ScreeningTarget, { name: 'ScreeningTarget', description: 'What was screened: a name on its own, a case, or a party of a business case.' });
export const ScreeningSubjectKindEnum = builder.enumType(ScreeningSubjectKind, { name: 'ScreeningSubjectKind' });
const ScreeningTriggerEnum = builder.enumType(ScreeningTrigger, { name: 'ScreeningTrigger', description: 'MANUAL: asked through the API; LIST_UPDATE: re-screened after a watchlist changed; ONBOARDING: after the person submitted the onboarding form.' });
const ScreeningOutcomeEnum = builder.enumType(ScreeningOutcome, {
  name: 'ScreeningOutcome',
  description: 'NO_HITS; PENDING_REVIEW: a hit awaits a decision; CONFIRMED_MATCH: a hit was decided TRUE_MATCH; CLEARED: every hit was decided FALSE_POSITIVE.',
});
const MediaCheckStatusEnum = builder.enumType(MediaCheckStatus, { name: 'MediaCheckStatus' });

const ListVersionRef = builder.objectRef<{ sourceId: string; loadId: string }>('ListVersion').implement({
  description: 'A watchlist version searched by a screening.',
  fields: (t) => ({ sourceId: t.exposeString('sourceId'), loadId: t.exposeID('loadId', { description: 'The watchlist load (see watchlists).' }) }),
});

export const Screening = builder.prismaObject('Screening', {
  description: 'One screening of one subject against the current watchlist versions, with its hits.',
  fields: (t) => ({
    id: t.exposeID('id'),
    target: t.expose('target', { type: ScreeningTargetEnum }),
    subjectKey: t.exposeString('subjectKey', { description: 'Identifies the subject across screenings; decisions on hits are remembered per subject.' }),
    consumerCaseId: t.exposeID('consumerCaseId', { nullable: true }),
    businessCaseId: t.exposeID('businessCaseId', { nullable: true }),
    businessPartyId: t.exposeID('businessPartyId', { nullable: true }),
    name: t.exposeString('name', { description: 'The name as screened.' }),
    aliases: t.exposeStringList('aliases'),
    kind: t.expose('kind', { type: ScreeningSubjectKindEnum }),
    birthDate: t.exposeString('birthDate', { nullable: true }),
    countries: t.exposeStringList('countries'),
    identifiers: t.exposeStringList('identifiers'),
    threshold: t.exposeFloat('threshold', { description: 'Hits scoring below this were not reported.' }),
    algorithmVersion: t.exposeString('algorithmVersion'),
    listVersions: t.field({ type: [ListVersionRef], select: { listVersions: true }, resolve: (s) => s.listVersions as unknown as Array<{ sourceId: string; loadId: string }> }),
    trigger: t.expose('trigger', { type: ScreeningTriggerEnum }),
    requestedBy: t.exposeString('requestedBy', { description: 'The userId given, else the API key\'s label; "watchlist refresh" for automatic re-screening.' }),
    outcome: t.expose('outcome', { type: ScreeningOutcomeEnum }),
    hitCount: t.exposeInt('hitCount'),
    mediaStatus: t.expose('mediaStatus', { type: MediaCheckStatusEnum, description: 'Whether adverse media was searched.' }),
    mediaError: t.exposeString('mediaError', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    hits: t.relation('hits', { description: 'Strongest first.', extensions: listOfAtMost(MAX_HITS), query: () => ({ orderBy: [{ score: 'desc' }, { id: 'asc' }] }) }),
    // At most 20 findings are kept per screening (src/screening/media/screen-media.ts).
    mediaFindings: t.relation('mediaFindings', { type: AdverseMediaFinding, description: 'Adverse media about the subject, most relevant first.', extensions: listOfAtMost(20), query: () => ({ orderBy: [{ relevance: 'desc' }, { id: 'asc' }] }) }),
  }),
});

const ScreeningList = listOf('ScreeningList', Screening, 'A page of screenings, newest first.');

export const requireScreening = (db: TenantDatabase, id: string) =>
  findOr404('Screening', id, (uuid) => db.screening.findUnique({ where: { id: uuid }, select: { id: true } }));

builder.prismaObjectField(ScreeningHit, 'screening', (t) => t.relation('screening'));

const AdHocScreeningInput = builder.inputType('ScreenNameInput', {
  description: 'A person or organization to screen on its own (not a case).',
  validate: z.object({
    name: z.string().trim().min(1, 'must not be empty').max(300, 'must be at most 300 characters'),
    kind: rules.enumValue(ScreeningSubjectKind),
    aliases: rules.notNull(z.array(z.string().trim().min(1, 'must not be empty').max(300, 'must be at most 300 characters')).max(20, 'at most 20 aliases')),
    birthDate: z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'must be YYYY, YYYY-MM or YYYY-MM-DD').nullish(),
    countries: rules.notNull(z.array(rules.countryCode).max(10, 'at most 10 countries')),
    identifiers: rules.notNull(z.array(z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters')).max(10, 'at most 10 identifiers')),
    reference: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').nullish(),
    threshold: z.number().gt(0, 'must be above 0').max(1, 'must be at most 1').nullish(),
    adverseMedia: z.boolean().nullish(),
    userId: rules.userId.nullish(),
  }),
  fields: (t) => ({
    name: t.string({ required: true }),
    kind: t.field({ type: ScreeningSubjectKindEnum, required: true }),
    aliases: t.stringList({ description: 'Other names of the subject; each is searched.' }),
    birthDate: t.string({ description: 'YYYY, YYYY-MM or YYYY-MM-DD: a match raises the score, a clear mismatch lowers it.' }),
    countries: t.stringList({ description: 'ISO 3166-1 alpha-2 codes linked to the subject (nationality, residence, incorporation).' }),
    identifiers: t.stringList({ description: 'Passport, national id or registration numbers: an exact match raises the score strongly.' }),
    reference: t.string({ description: 'Your id for the subject: decisions on hits are remembered per reference (else per name, kind and birth date).' }),
    threshold: t.float({ description: 'Overrides the organization\'s threshold for this screening (0 < t ≤ 1).' }),
    adverseMedia: t.boolean({ description: 'Search adverse media too (default: the organization\'s setting; needs a configured provider).' }),
    userId: t.string({ description: 'Who asked; default: the API key\'s label.' }),
  }),
});

builder.queryFields((t) => ({
  screenings: t.field({
    type: ScreeningList,
    description: 'Screenings of your organization, newest first.',
    authScopes: { permission: 'screening:read' },
    args: {
      ...pageArgs,
      consumerCaseId: t.arg.id({ required: false }),
      businessCaseId: t.arg.id({ required: false }),
      businessPartyId: t.arg.id({ required: false }),
      target: t.arg({ type: ScreeningTargetEnum, required: false }),
      outcome: t.arg({ type: ScreeningOutcomeEnum, required: false }),
    },
    resolve: async (_root, args, context, info) => {
      if (args.consumerCaseId) await requireConsumerCase(context.db, args.consumerCaseId);
      if (args.businessCaseId) await requireBusinessCase(context.db, args.businessCaseId);
      if (args.businessPartyId && !rules.uuid.safeParse(args.businessPartyId).success) return { items: [], total: 0, page: args.page ?? 1, limit: args.limit ?? 10 };
      const where = {
        ...(args.consumerCaseId ? { consumerCaseId: args.consumerCaseId } : {}),
        ...(args.businessCaseId ? { businessCaseId: args.businessCaseId } : {}),
        ...(args.businessPartyId ? { businessPartyId: args.businessPartyId } : {}),
        ...(args.target ? { target: args.target } : {}),
        ...(args.outcome ? { outcome: args.outcome } : {}),
      };
      return pageOf(
        args,
        (window) => context.db.screening.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), where, orderBy: NEWEST_FIRST, ...window }),
        () => context.db.screening.count({ where }),
      );
    },
  }),
  screening: t.prismaField({
    type: Screening,
    description: 'One screening with its hits; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'screening:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      return findOr404('Screening', id, (uuid) => db.screening.findUnique({ ...query, where: { id: uuid } }));
    },
  }),
}));

builder.mutationFields((t) => ({
  screenName: t.prismaField({
    type: Screening,
    description: 'Screens a person or organization against the current watchlists and records the screening with its hits.',
    authScopes: { permission: 'screening:write' },
    extensions: costs(SCREENING),
    args: { input: t.arg({ type: AdHocScreeningInput, required: true }) },
    resolve: async (query, _root, { input }, { db, apiKey, screening }) => {
      // Read back in the transaction that stores it, as the selection asks.
      return screening.screenAndRead(
        db,
        {
          target: 'AD_HOC',
          subjectKey: adHocSubjectKey({ reference: input.reference, name: input.name, kind: input.kind, birthDate: input.birthDate }),
          name: input.name,
          aliases: input.aliases ?? [],
          kind: input.kind,
          birthDate: input.birthDate ?? null,
          countries: input.countries ?? [],
          identifiers: input.identifiers ?? [],
        },
        { organizationId: apiKey.organizationId, requestedBy: input.userId ?? apiKey.name, threshold: input.threshold, adverseMedia: input.adverseMedia },
        query,
      );
    },
  }),
}));
