import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import { builder, type Types } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import { textSearch } from '../db/text-search.ts';
import { assertBusinessCaseTransition } from '../domain/business-case-status.ts';
import * as kyb from '../domain/kyb-validation.ts';
import * as rules from '../domain/validation.ts';
import { BusinessCaseStatus, BusinessEntityType, RecommendationLevel } from '../generated/prisma/enums.ts';
import { invalidInput } from '../errors.ts';
import { AddressInput, AddressRef } from './address.ts';
import { jsonColumn } from '../db/json-column.ts';
import { findOr404 } from './find-or-404.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';

export const RecommendationLevelEnum = builder.enumType(RecommendationLevel, {
  name: 'RecommendationLevel',
  description: 'What the review recommends for the business.',
});

export const BusinessCaseStatusEnum = builder.enumType(BusinessCaseStatus, {
  name: 'BusinessCaseStatus',
  description: 'KYB case lifecycle; see BUSINESS_CASE_TRANSITIONS for the allowed moves.',
});

export const BusinessEntityTypeEnum = builder.enumType(BusinessEntityType, { name: 'BusinessEntityType' });

/** Inside a list (the path has an index) only the last four characters are shown. */
const insideList = (info: GraphQLResolveInfo) => {
  for (let at: GraphQLResolveInfo['path'] | undefined = info.path; at; at = at.prev) if (typeof at.key === 'number') return true;
  return false;
};
const maskTaxId = (taxId: string) => `${'•'.repeat(Math.max(0, taxId.length - 4))}${taxId.slice(-4)}`;

export const BusinessCase = builder.prismaObject('BusinessCase', {
  description: 'A KYB case about one business.',
  fields: (t) => ({
    id: t.exposeID('id'),
    legalName: t.exposeString('legalName'),
    dbaName: t.exposeString('dbaName', { nullable: true }),
    websiteUrl: t.exposeString('websiteUrl', { nullable: true }),
    riskScore: t.exposeFloat('riskScore', { nullable: true, description: '0 to 100.' }),
    recommendation: t.expose('recommendation', { type: RecommendationLevelEnum, nullable: true }),
    status: t.expose('status', { type: BusinessCaseStatusEnum }),
    registrationNumber: t.exposeString('registrationNumber', { nullable: true }),
    jurisdictionCountry: t.exposeString('jurisdictionCountry', { nullable: true, description: 'ISO 3166-1 alpha-2.' }),
    jurisdictionSubdivision: t.exposeString('jurisdictionSubdivision', { nullable: true, description: 'ISO 3166-2, e.g. US-DE.' }),
    entityType: t.expose('entityType', { type: BusinessEntityTypeEnum, nullable: true }),
    incorporationDate: t.expose('incorporationDate', { type: 'Date', nullable: true }),
    industryCode: t.exposeString('industryCode', { nullable: true, description: 'NAICS code.' }),
    industryDescription: t.exposeString('industryDescription', { nullable: true }),
    taxId: t.string({
      nullable: true,
      description: 'In full when one case is read; in lists only the last four characters.',
      select: { taxId: true },
      resolve: (row, _args, _context, info) => (row.taxId && insideList(info) ? maskTaxId(row.taxId) : row.taxId),
    }),
    registeredAddress: t.field({ type: AddressRef, nullable: true, select: { registeredAddress: true }, resolve: (row) => row.registeredAddress as rules.Address | null }),
    operatingAddress: t.field({ type: AddressRef, nullable: true, select: { operatingAddress: true }, resolve: (row) => row.operatingAddress as rules.Address | null }),
    email: t.exposeString('email', { nullable: true }),
    phoneNumber: t.exposeString('phoneNumber', { nullable: true, description: 'E.164.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    tasks: t.relatedConnection('tasks', {
      description: 'Tasks linked to this case, newest first.',
      cursor: 'id',
      totalCount: true,
      authScopes: { permission: 'tasks:read' },
      query: () => ({ orderBy: NEWEST_FIRST }),
    }),
  }),
});

const BusinessCaseList = listOf('BusinessCaseList', BusinessCase, 'A page of business cases.');

export const requireBusinessCase = (db: TenantDatabase, id: string) =>
  findOr404('Business case', id, (uuid) => db.businessCase.findUnique({ where: { id: uuid }, select: { id: true, status: true } }));

const BusinessCaseSortEnum = builder.enumType('BusinessCaseSort', { values: ['createdAt', 'riskScore', 'legalName'] as const });
const SortOrderEnum = builder.enumType('SortOrder', { values: ['asc', 'desc'] as const });

/** A country (US) or a subdivision (US-DE). */
const jurisdictionFilter = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => (value.length === 2 ? rules.countryCode.safeParse(value).success : /^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(value)), {
    message: 'must be an ISO 3166-1 alpha-2 country (US) or an ISO 3166-2 subdivision (US-DE)',
  });

builder.queryFields((t) => ({
  businessCases: t.field({
    type: BusinessCaseList,
    description: 'Business cases of your organization, newest first unless sorted otherwise.',
    authScopes: { permission: 'business_cases:read' },
    args: {
      ...pageArgs,
      status: t.arg({ type: BusinessCaseStatusEnum, required: false }),
      recommendation: t.arg({ type: RecommendationLevelEnum, required: false }),
      jurisdiction: t.arg.string({ required: false, validate: jurisdictionFilter.nullish(), description: 'A country (US) or subdivision (US-DE).' }),
      riskScoreMin: t.arg.float({ required: false, validate: kyb.riskScore.nullish() }),
      riskScoreMax: t.arg.float({ required: false, validate: kyb.riskScore.nullish() }),
      search: t.arg.string({ required: false, validate: rules.searchText.nullish(), description: 'Matches legal and DBA names and the registration number; every word must match.' }),
      sortBy: t.arg({ type: BusinessCaseSortEnum, required: false, defaultValue: 'createdAt' }),
      sortOrder: t.arg({ type: SortOrderEnum, required: false, description: 'Default: desc for createdAt and riskScore, asc for legalName.' }),
    },
    resolve: (_root, args, context, info) => {
      if (args.riskScoreMin != null && args.riskScoreMax != null && args.riskScoreMax < args.riskScoreMin) {
        throw invalidInput('riskScoreMax: must not be below riskScoreMin');
      }
      const jurisdiction = args.jurisdiction ?? undefined;
      const where = {
        ...(args.status ? { status: args.status } : {}),
        ...(args.recommendation ? { recommendation: args.recommendation } : {}),
        ...(jurisdiction ? (jurisdiction.length === 2 ? { jurisdictionCountry: jurisdiction } : { jurisdictionSubdivision: jurisdiction }) : {}),
        ...(args.riskScoreMin != null || args.riskScoreMax != null
          ? { riskScore: { ...(args.riskScoreMin != null ? { gte: args.riskScoreMin } : {}), ...(args.riskScoreMax != null ? { lte: args.riskScoreMax } : {}) } }
          : {}),
        ...textSearch(args.search, ['legalName', 'dbaName', 'registrationNumber'] as const),
      };
      const sortBy = args.sortBy ?? 'createdAt';
      const order = args.sortOrder ?? (sortBy === 'legalName' ? 'asc' : 'desc');
      // Cases without a score sort last either way; the id keeps pages stable.
      const orderBy = [sortBy === 'riskScore' ? { riskScore: { sort: order, nulls: 'last' as const } } : { [sortBy]: order }, { id: order }];
      return pageOf(
        args,
        (window) => context.db.businessCase.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), where, orderBy, ...window }),
        () => context.db.businessCase.count({ where }),
      );
    },
  }),
  businessCase: t.prismaField({
    type: BusinessCase,
    description: 'One business case; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'business_cases:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      return findOr404('Business case', id, (uuid) => db.businessCase.findUnique({ ...query, where: { id: uuid } }));
    },
  }),
}));

// Whole-object schemas so that every invalid field is reported at once.
const BusinessCaseFieldRules = z.object({
    legalName: kyb.legalName,
    dbaName: kyb.legalName.nullish(),
    websiteUrl: kyb.websiteUrl.nullish(),
    riskScore: kyb.riskScore.nullish(),
    recommendation: rules.enumValue(RecommendationLevel).nullish(),
    registrationNumber: kyb.registrationNumber.nullish(),
    jurisdictionCountry: rules.countryCode.nullish(),
    jurisdictionSubdivision: kyb.subdivisionCode.nullish(),
    entityType: rules.enumValue(BusinessEntityType).nullish(),
    incorporationDate: kyb.incorporationDate.nullish(),
    industryCode: kyb.naicsCode.nullish(),
    industryDescription: rules.shortText(300).nullish(),
    taxId: kyb.taxId.nullish(),
    registeredAddress: rules.address.nullish(),
    operatingAddress: rules.address.nullish(),
    email: rules.email.nullish(),
    phoneNumber: rules.phoneNumber.nullish(),
});

/** The subdivision must belong to the country (when both are given in the same input). */
const withMatchingJurisdiction = <Schema extends z.ZodType<{ jurisdictionCountry?: string | null; jurisdictionSubdivision?: string | null }>>(schema: Schema) =>
  schema.superRefine((value, ctx) => {
    const { jurisdictionCountry: country, jurisdictionSubdivision: subdivision } = value;
    if (subdivision && country && !subdivision.startsWith(`${country}-`)) {
      ctx.addIssue({ code: 'custom', path: ['jurisdictionSubdivision'], message: `must be a subdivision of ${country}, e.g. ${country}-...` });
    }
  });

const businessCaseFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>, legalNameRequired: boolean) => ({
  legalName: t.string({ required: legalNameRequired }),
  dbaName: t.string({ description: 'Trading ("doing business as") name.' }),
  websiteUrl: t.string(),
  riskScore: t.float({ description: '0 to 100.' }),
  recommendation: t.field({ type: RecommendationLevelEnum }),
  registrationNumber: t.string(),
  jurisdictionCountry: t.string({ description: 'ISO 3166-1 alpha-2, e.g. US.' }),
  jurisdictionSubdivision: t.string({ description: 'ISO 3166-2 where the register is by state, e.g. US-DE.' }),
  entityType: t.field({ type: BusinessEntityTypeEnum }),
  incorporationDate: t.field({ type: 'Date', description: 'YYYY-MM-DD, not in the future.' }),
  industryCode: t.string({ description: 'NAICS code, 2 to 6 digits.' }),
  industryDescription: t.string(),
  taxId: t.string(),
  registeredAddress: t.field({ type: AddressInput }),
  operatingAddress: t.field({ type: AddressInput }),
  email: t.string(),
  phoneNumber: t.string({ description: 'International format, e.g. +14155550123.' }),
});

const CreateBusinessCaseInput = builder.inputType('CreateBusinessCaseInput', {
  validate: withMatchingJurisdiction(BusinessCaseFieldRules),
  fields: (t) => businessCaseFields(t, true),
});

const UpdateBusinessCaseInput = builder.inputType('UpdateBusinessCaseInput', {
  description: 'Fields to change; omitted fields stay, null clears an optional field.',
  validate: withMatchingJurisdiction(
    BusinessCaseFieldRules.extend({
      legalName: rules.notNull(kyb.legalName),
      status: rules.notNull(rules.enumValue(BusinessCaseStatus)),
    }),
  ),
  fields: (t) => ({ ...businessCaseFields(t, false), status: t.field({ type: BusinessCaseStatusEnum }) }),
});

/** The input as columns: addresses are JSON columns (null clears them). */
function columns<Input extends { registeredAddress?: unknown; operatingAddress?: unknown }>(input: Input) {
  const { registeredAddress, operatingAddress, ...rest } = input;
  return {
    ...rest,
    ...(registeredAddress !== undefined ? { registeredAddress: jsonColumn(registeredAddress) } : {}),
    ...(operatingAddress !== undefined ? { operatingAddress: jsonColumn(operatingAddress) } : {}),
  };
}

builder.mutationFields((t) => ({
  createBusinessCase: t.prismaField({
    type: BusinessCase,
    description: 'Opens a KYB case in status PENDING.',
    authScopes: { permission: 'business_cases:write' },
    args: { input: t.arg({ type: CreateBusinessCaseInput, required: true }) },
    resolve: (query, _root, { input }, { db, apiKey }) =>
      db.businessCase.create({ ...query, data: { ...columns(input), legalName: input.legalName, organizationId: apiKey.organizationId } as never }),
  }),
  updateBusinessCase: t.prismaField({
    type: BusinessCase,
    description: 'Changes any subset of fields; status moves must follow the lifecycle.',
    authScopes: { permission: 'business_cases:write' },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateBusinessCaseInput, required: true }) },
    resolve: async (query, _root, { id, input }, { db }) => {
      const current = await requireBusinessCase(db, id);
      if (input.status) assertBusinessCaseTransition(current.status, input.status);
      const { legalName, status, ...optional } = input;
      // Filtering on the status read above turns a concurrent status change into "not found".
      return db.businessCase.update({
        ...query,
        where: { id, status: current.status },
        data: { ...columns(optional), ...(legalName ? { legalName } : {}), ...(status ? { status } : {}) } as never,
      });
    },
  }),
  deleteBusinessCase: t.prismaField({
    type: BusinessCase,
    description: 'Deletes the case with its parties and notes, and returns it as it was; linked tasks and documents stay, unlinked.',
    authScopes: { permission: 'business_cases:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      await requireBusinessCase(db, id);
      return db.businessCase.delete({ ...query, where: { id } });
    },
  }),
}));
