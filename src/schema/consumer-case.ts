import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { builder } from '../builder.ts';
import { assertConsumerCaseTransition } from '../domain/consumer-case-status.ts';
import * as rules from '../domain/validation.ts';
import { ConsumerCaseStatus } from '../generated/prisma/enums.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import { textSearch } from '../db/text-search.ts';
import { jsonColumn } from '../db/json-column.ts';
import { AddressInput, AddressRef } from './address.ts';
import { findOr404 } from './find-or-404.ts';
import { listOfAtMost } from './cost.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';

export const ConsumerCaseStatusEnum = builder.enumType(ConsumerCaseStatus, {
  name: 'ConsumerCaseStatus',
  description: 'KYC case lifecycle; see CONSUMER_CASE_TRANSITIONS for the allowed moves.',
});

export const ConsumerCase = builder.prismaObject('ConsumerCase', {
  description: 'A KYC case about one person.',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    phoneNumber: t.exposeString('phoneNumber', { nullable: true, description: 'E.164, e.g. +14155550123.' }),
    dateOfBirth: t.expose('dateOfBirth', { type: 'Date', nullable: true }),
    nationality: t.exposeString('nationality', { nullable: true, description: 'ISO 3166-1 alpha-2.' }),
    address: t.field({ type: AddressRef, nullable: true, select: { address: true }, resolve: (row) => row.address as rules.Address | null }),
    status: t.expose('status', { type: ConsumerCaseStatusEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    tasks: t.relatedConnection('tasks', {
      description: 'Tasks linked to this case, newest first.',
      cursor: 'id',
      totalCount: true,
      authScopes: { permission: 'tasks:read' },
      query: () => ({ orderBy: NEWEST_FIRST }),
    }),
    onboardingInvitations: t.relation('onboardingInvitations', {
      extensions: listOfAtMost(10),
      description: 'Onboarding invitations sent for this case, newest first; at most one is usable.',
      query: { orderBy: { createdAt: 'desc' } },
    }),
  }),
});

const ConsumerCaseList = listOf(
  'ConsumerCaseList',
  ConsumerCase,
  'A page of consumer cases, newest first.',
);

/** Finds a case of the caller's organization or answers 404, the same for every other id. */
export const requireConsumerCase = (db: TenantDatabase, id: string) =>
  findOr404('Consumer case', id, (uuid) => db.consumerCase.findUnique({ where: { id: uuid }, select: { id: true, status: true } }));

builder.queryFields((t) => ({
  consumerCases: t.field({
    type: ConsumerCaseList,
    description: 'Consumer cases of your organization, newest first.',
    authScopes: { permission: 'consumer_cases:read' },
    args: {
      ...pageArgs,
      status: t.arg({ type: ConsumerCaseStatusEnum, required: false }),
      search: t.arg.string({ required: false, validate: rules.searchText.nullish(), description: 'Matches names and email; every word must match.' }),
    },
    resolve: (_root, args, context, info) => {
      const where = {
        ...(args.status ? { status: args.status } : {}),
        ...textSearch(args.search, ['firstName', 'lastName', 'email'] as const),
      };
      return pageOf(
        args,
        (window) =>
          context.db.consumerCase.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), where, orderBy: NEWEST_FIRST, ...window }),
        () => context.db.consumerCase.count({ where }),
      );
    },
  }),
  consumerCase: t.prismaField({
    type: ConsumerCase,
    description: 'One consumer case; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'consumer_cases:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      return findOr404('Consumer case', id, (uuid) => db.consumerCase.findUnique({ ...query, where: { id: uuid } }));
    },
  }),
}));

// Whole-object schemas so that every invalid field is reported at once.
const CreateConsumerCaseRules = z.object({
  email: rules.email,
  firstName: rules.personName.nullish(),
  lastName: rules.personName.nullish(),
  phoneNumber: rules.phoneNumber.nullish(),
  dateOfBirth: rules.dateOfBirth.nullish(),
  nationality: rules.countryCode.nullish(),
  address: rules.address.nullish(),
});

const CreateConsumerCaseInput = builder.inputType('CreateConsumerCaseInput', {
  validate: CreateConsumerCaseRules,
  fields: (t) => ({
    email: t.string({ required: true }),
    firstName: t.string(),
    lastName: t.string(),
    phoneNumber: t.string({ description: 'International format with country code, e.g. +14155550123.' }),
    dateOfBirth: t.field({ type: 'Date', description: 'YYYY-MM-DD, not in the future.' }),
    nationality: t.string({ description: 'ISO 3166-1 alpha-2, e.g. DE.' }),
    address: t.field({ type: AddressInput, description: 'Residential address.' }),
  }),
});

const UpdateConsumerCaseInput = builder.inputType('UpdateConsumerCaseInput', {
  description: 'Fields to change; omitted fields stay, null clears an optional field.',
  validate: CreateConsumerCaseRules.extend({
    email: rules.notNull(rules.email),
    status: rules.notNull(rules.enumValue(ConsumerCaseStatus)),
  }),
  fields: (t) => ({
    email: t.string(),
    firstName: t.string(),
    lastName: t.string(),
    phoneNumber: t.string(),
    dateOfBirth: t.field({ type: 'Date' }),
    nationality: t.string(),
    address: t.field({ type: AddressInput }),
    status: t.field({ type: ConsumerCaseStatusEnum }),
  }),
});

builder.mutationFields((t) => ({
  createConsumerCase: t.prismaField({
    type: ConsumerCase,
    description: 'Opens a KYC case in status PENDING.',
    authScopes: { permission: 'consumer_cases:write' },
    args: { input: t.arg({ type: CreateConsumerCaseInput, required: true }) },
    resolve: (query, _root, { input }, { db, apiKey }) =>
      db.consumerCase.create({ ...query, data: { ...input, address: input.address === undefined ? undefined : jsonColumn(input.address), organizationId: apiKey.organizationId } }),
  }),
  updateConsumerCase: t.prismaField({
    type: ConsumerCase,
    description: 'Changes any subset of fields; status moves must follow the lifecycle.',
    authScopes: { permission: 'consumer_cases:write' },
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateConsumerCaseInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, { db }) => {
      const current = await requireConsumerCase(db, id);
      if (input.status) assertConsumerCaseTransition(current.status, input.status);
      const { email, status, address, ...optional } = input;
      // Filtering on the status read above turns a concurrent status change
      // into "not found" rather than an unchecked transition.
      return db.consumerCase.update({
        ...query,
        where: { id, status: current.status },
        data: { ...optional, ...(email ? { email } : {}), ...(status ? { status } : {}), ...(address !== undefined ? { address: jsonColumn(address) } : {}) },
      });
    },
  }),
  deleteConsumerCase: t.prismaField({
    type: ConsumerCase,
    description: 'Deletes the case and returns it as it was; linked tasks stay, unlinked.',
    authScopes: { permission: 'consumer_cases:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      await requireConsumerCase(db, id);
      return db.consumerCase.delete({ ...query, where: { id } });
    },
  }),
}));
