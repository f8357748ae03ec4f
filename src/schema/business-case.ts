import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import { RecommendationLevel } from '../generated/prisma/enums.ts';
import { findOr404 } from './find-or-404.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';

export const RecommendationLevelEnum = builder.enumType(RecommendationLevel, {
  name: 'RecommendationLevel',
  description: 'What the review recommends for the business.',
});

export const BusinessCase = builder.prismaObject('BusinessCase', {
  description: 'A KYB case about one business. Creation and editing arrive with the KYB resource.',
  fields: (t) => ({
    id: t.exposeID('id'),
    legalName: t.exposeString('legalName'),
    dbaName: t.exposeString('dbaName', { nullable: true }),
    websiteUrl: t.exposeString('websiteUrl', { nullable: true }),
    riskScore: t.exposeFloat('riskScore', { nullable: true }),
    recommendation: t.expose('recommendation', { type: RecommendationLevelEnum, nullable: true }),
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

const BusinessCaseList = listOf('BusinessCaseList', BusinessCase, 'A page of business cases, newest first.');

export const requireBusinessCase = (db: TenantDatabase, id: string) =>
  findOr404('Business case', id, (uuid) => db.businessCase.findUnique({ where: { id: uuid }, select: { id: true } }));

builder.queryFields((t) => ({
  businessCases: t.field({
    type: BusinessCaseList,
    description: 'Business cases of your organization, newest first.',
    authScopes: { permission: 'business_cases:read' },
    args: { ...pageArgs },
    resolve: (_root, args, context, info) =>
      pageOf(
        args,
        (window) =>
          context.db.businessCase.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), orderBy: NEWEST_FIRST, ...window }),
        () => context.db.businessCase.count(),
      ),
  }),
  businessCase: t.prismaField({
    type: BusinessCase,
    description: 'One business case; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'business_cases:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      await requireBusinessCase(db, id);
      return db.businessCase.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));
