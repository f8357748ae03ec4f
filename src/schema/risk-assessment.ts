import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import * as rules from '../domain/validation.ts';
import { notFound } from '../errors.ts';
import { RiskLevel } from '../generated/prisma/enums.ts';
import { assessCase } from '../risk/case-assessment.ts';
import type { RiskFactor } from '../risk/types.ts';
import { BusinessCase, requireBusinessCase } from './business-case.ts';
import { ConsumerCase, requireConsumerCase } from './consumer-case.ts';
import { costs, RISK_ASSESSMENT } from './cost.ts';
import { findOr404 } from './find-or-404.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';

const RiskLevelEnum = builder.enumType(RiskLevel, {
  name: 'RiskLevel',
  description: 'LOW (score 0-29), MEDIUM (30-59), HIGH (60-100); PROHIBITED: a confirmed sanctions match, whatever the score.',
});

const RiskFactorRef = builder.objectRef<RiskFactor>('RiskFactor').implement({
  description: 'One line of the assessment: a weighted factor, or a rule (override) that moved the score. Contributions add up to riskScore.',
  fields: (t) => ({
    key: t.exposeString('key'),
    label: t.exposeString('label'),
    kind: t.exposeString('kind', { description: 'FACTOR or OVERRIDE.' }),
    assessed: t.exposeBoolean('assessed', { description: 'False when the input was missing (the explanation says which).' }),
    weight: t.exposeFloat('weight'),
    value: t.exposeFloat('value', { description: '0..1' }),
    contribution: t.exposeInt('contribution', { description: 'Points added to the score.' }),
    explanation: t.exposeString('explanation'),
    details: t.field({ type: 'JSON', nullable: true, resolve: (f) => f.details ?? null }),
  }),
});

interface EddView {
  required: boolean;
  reasons: string[];
  checklist: Array<{ item: string; reason: string }>;
  taskIds: string[];
  notAssessed: string[];
}

const EddItemRef = builder.objectRef<{ item: string; reason: string }>('EddChecklistItem').implement({
  fields: (t) => ({
    item: t.exposeString('item', { description: 'SOURCE_OF_FUNDS, SOURCE_OF_WEALTH, UBO_VERIFICATION or SENIOR_APPROVAL.' }),
    reason: t.exposeString('reason'),
  }),
});

const EddRef = builder.objectRef<EddView>('EnhancedDueDiligence').implement({
  description: 'Whether enhanced due diligence is required, why, and the checklist (each item is a task on the case).',
  fields: (t) => ({
    required: t.exposeBoolean('required'),
    reasons: t.exposeStringList('reasons'),
    checklist: t.field({ type: [EddItemRef], resolve: (e) => e.checklist }),
    taskIds: t.exposeIDList('taskIds', { description: 'The tasks of the checklist, in checklist order.' }),
  }),
});

export const RiskAssessment = builder.prismaObject('RiskAssessment', {
  description: 'An explainable risk assessment of a case; every assessment is kept as history.',
  fields: (t) => ({
    id: t.exposeID('id'),
    consumerCaseId: t.exposeID('consumerCaseId', { nullable: true }),
    businessCaseId: t.exposeID('businessCaseId', { nullable: true }),
    riskScore: t.exposeInt('riskScore', { description: '0..100, the sum of the factors\' contributions.' }),
    level: t.expose('level', { type: RiskLevelEnum }),
    recommendation: t.expose('level', { type: RiskLevelEnum, description: 'Same as level (the name the REST v1 clients use).' }),
    factors: t.field({ type: [RiskFactorRef], select: { factors: true }, resolve: (a) => a.factors as unknown as RiskFactor[] }),
    notAssessed: t.stringList({ select: { edd: true }, resolve: (a) => (a.edd as unknown as EddView).notAssessed ?? [], description: 'Factors without input (e.g. never screened).' }),
    edd: t.field({ type: EddRef, select: { edd: true }, resolve: (a) => a.edd as unknown as EddView }),
    inputs: t.expose('inputs', { type: 'JSON', description: 'What the model was given, so the assessment can be explained and recomputed.' }),
    modelVersion: t.exposeString('modelVersion'),
    fatfListDate: t.exposeString('fatfListDate', { nullable: true, description: 'Publication date of the FATF lists used.' }),
    requestedBy: t.exposeString('requestedBy'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const RiskAssessmentList = listOf('RiskAssessmentList', RiskAssessment, 'Risk assessments, newest first.');

const history = {
  description: 'Risk assessments of this case, newest first.',
  cursor: 'id' as const,
  totalCount: true,
  authScopes: { permission: 'risk:read' as const },
  query: () => ({ orderBy: NEWEST_FIRST }),
};
builder.prismaObjectField(ConsumerCase, 'riskAssessments', (t) => t.relatedConnection('riskAssessments', history));
builder.prismaObjectField(BusinessCase, 'riskAssessments', (t) => t.relatedConnection('riskAssessments', history));

const requireAssessment = (db: TenantDatabase, id: string) => findOr404('Risk assessment', id, (uuid) => db.riskAssessment.findUnique({ where: { id: uuid }, select: { id: true } }));

builder.queryFields((t) => ({
  riskAssessments: t.field({
    type: RiskAssessmentList,
    description: 'The assessment history of a case (give consumerCaseId or businessCaseId), newest first.',
    authScopes: { permission: 'risk:read' },
    args: { ...pageArgs, consumerCaseId: t.arg.id({ required: false }), businessCaseId: t.arg.id({ required: false }) },
    resolve: async (_root, args, context, info) => {
      if (args.consumerCaseId) await requireConsumerCase(context.db, args.consumerCaseId);
      if (args.businessCaseId) await requireBusinessCase(context.db, args.businessCaseId);
      const where = { ...(args.consumerCaseId ? { consumerCaseId: args.consumerCaseId } : {}), ...(args.businessCaseId ? { businessCaseId: args.businessCaseId } : {}) };
      return pageOf(
        args,
        (window) => context.db.riskAssessment.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), where, orderBy: NEWEST_FIRST, ...window }),
        () => context.db.riskAssessment.count({ where }),
      );
    },
  }),
  riskAssessment: t.prismaField({
    type: RiskAssessment,
    description: 'One assessment; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'risk:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      return findOr404('Risk assessment', id, (uuid) => db.riskAssessment.findUnique({ ...query, where: { id: uuid } }));
    },
  }),
  consumerCaseRiskAssessment: t.prismaField({
    type: RiskAssessment,
    description: 'The latest assessment of a consumer case; NOT_FOUND until assessed.',
    authScopes: { permission: 'risk:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      await requireConsumerCase(db, id);
      const assessment = await db.riskAssessment.findFirst({ ...query, where: { consumerCaseId: id }, orderBy: NEWEST_FIRST });
      if (!assessment) throw notFound(`Consumer case ${id} has no risk assessment yet`);
      return assessment;
    },
  }),
  businessCaseRiskAssessment: t.prismaField({
    type: RiskAssessment,
    description: 'The latest assessment of a business case; NOT_FOUND until assessed.',
    authScopes: { permission: 'risk:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      await requireBusinessCase(db, id);
      const assessment = await db.riskAssessment.findFirst({ ...query, where: { businessCaseId: id }, orderBy: NEWEST_FIRST });
      if (!assessment) throw notFound(`Business case ${id} has no risk assessment yet`);
      return assessment;
    },
  }),
}));

builder.mutationFields((t) => ({
  assessConsumerCaseRisk: t.prismaField({
    type: RiskAssessment,
    description: 'Assesses a consumer case from its latest screening, nationality and documents; opens EDD tasks when required.',
    authScopes: { permission: 'risk:write' },
    extensions: costs(RISK_ASSESSMENT),
    args: { id: t.arg.id({ required: true }), userId: t.arg.string({ required: false, validate: rules.userId.nullish() }) },
    resolve: async (query, _root, { id, userId }, { db, apiKey }) => {
      await requireConsumerCase(db, id);
      const assessmentId = await assessCase(db, apiKey.organizationId, { consumerCaseId: id }, userId ?? apiKey.name);
      return db.riskAssessment.findUniqueOrThrow({ ...query, where: { id: assessmentId } });
    },
  }),
  assessBusinessCaseRisk: t.prismaField({
    type: RiskAssessment,
    description: 'Assesses a business case from the latest screenings of it and its parties, countries, industry, ownership and documents; opens EDD tasks when required.',
    authScopes: { permission: 'risk:write' },
    extensions: costs(RISK_ASSESSMENT),
    args: { id: t.arg.id({ required: true }), userId: t.arg.string({ required: false, validate: rules.userId.nullish() }) },
    resolve: async (query, _root, { id, userId }, { db, apiKey }) => {
      await requireBusinessCase(db, id);
      const assessmentId = await assessCase(db, apiKey.organizationId, { businessCaseId: id }, userId ?? apiKey.name);
      return db.riskAssessment.findUniqueOrThrow({ ...query, where: { id: assessmentId } });
    },
  }),
}));

