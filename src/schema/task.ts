import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import { textSearch } from '../db/text-search.ts';
import * as rules from '../domain/validation.ts';
import { invalidInput, notFound } from '../errors.ts';
import { TaskPriority, TaskStatus } from '../generated/prisma/enums.ts';
import { BusinessCase, requireBusinessCase } from './business-case.ts';
import { ConsumerCase, requireConsumerCase } from './consumer-case.ts';
import { findOr404 } from './find-or-404.ts';
import { listOfAtMost } from './cost.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';

export const TaskPriorityEnum = builder.enumType(TaskPriority, { name: 'TaskPriority' });
export const TaskStatusEnum = builder.enumType(TaskStatus, { name: 'TaskStatus' });

/** Team members assigned to one task: enforced on assignment (400) and the list size the cost analysis charges. */
export const MAX_ASSIGNEES_PER_TASK = 10;

builder.prismaObject('TaskAssignee', {
  description: 'A team member assigned to a task.',
  fields: (t) => ({
    userId: t.exposeString('userId', { description: "Your system's identifier of the team member." }),
    assignedAt: t.expose('assignedAt', { type: 'DateTime' }),
  }),
});

export const Task = builder.prismaObject('Task', {
  description: 'A piece of compliance work, optionally about a consumer or business case.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    dueDate: t.expose('dueDate', { type: 'DateTime', nullable: true }),
    priority: t.expose('priority', { type: TaskPriorityEnum }),
    status: t.expose('status', { type: TaskStatusEnum }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When the task last became DONE.' }),
    businessCaseId: t.exposeID('businessCaseId', { nullable: true }),
    consumerCaseId: t.exposeID('consumerCaseId', { nullable: true }),
    businessCase: t.relation('businessCase', { type: BusinessCase, nullable: true, authScopes: { permission: 'business_cases:read' } }),
    consumerCase: t.relation('consumerCase', { type: ConsumerCase, nullable: true, authScopes: { permission: 'consumer_cases:read' } }),
    assignees: t.relation('assignees', {
      description: `At most ${MAX_ASSIGNEES_PER_TASK}, earliest assigned first.`,
      extensions: listOfAtMost(MAX_ASSIGNEES_PER_TASK),
      // Never more than the cost analysis charges, even for rows written before the cap.
      query: { orderBy: [{ assignedAt: 'asc' }, { userId: 'asc' }], take: MAX_ASSIGNEES_PER_TASK },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const TaskList = listOf('TaskList', Task, 'A page of tasks, newest first.');

export const requireTask = (db: TenantDatabase, id: string) =>
  findOr404('Task', id, (uuid) => db.task.findUnique({ where: { id: uuid }, select: { id: true, status: true } }));

/** DONE stamps completedAt; leaving DONE clears it. */
function completion(from: TaskStatus | null, to: TaskStatus | null | undefined) {
  if (!to || to === from) return {};
  return { completedAt: to === 'DONE' ? new Date() : null };
}

builder.queryFields((t) => ({
  tasks: t.field({
    type: TaskList,
    description: 'Tasks of your organization, newest first.',
    authScopes: { permission: 'tasks:read' },
    args: {
      ...pageArgs,
      status: t.arg({ type: TaskStatusEnum, required: false }),
      priority: t.arg({ type: TaskPriorityEnum, required: false }),
      businessCaseId: t.arg.id({ required: false, validate: rules.uuid.nullish() }),
      consumerCaseId: t.arg.id({ required: false, validate: rules.uuid.nullish() }),
      assigneeId: t.arg.string({ required: false, validate: rules.userId.nullish(), description: 'Only tasks assigned to this user.' }),
      search: t.arg.string({ required: false, validate: rules.searchText.nullish(), description: 'Matches title and description; every word must match.' }),
    },
    resolve: (_root, args, context, info) => {
      const where = {
        ...(args.status ? { status: args.status } : {}),
        ...(args.priority ? { priority: args.priority } : {}),
        ...(args.businessCaseId ? { businessCaseId: args.businessCaseId } : {}),
        ...(args.consumerCaseId ? { consumerCaseId: args.consumerCaseId } : {}),
        ...(args.assigneeId ? { assignees: { some: { userId: args.assigneeId } } } : {}),
        ...textSearch(args.search, ['title', 'description'] as const),
      };
      return pageOf(
        args,
        (window) =>
          context.db.task.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), where, orderBy: NEWEST_FIRST, ...window }),
        () => context.db.task.count({ where }),
      );
    },
  }),
  task: t.prismaField({
    type: Task,
    description: 'One task; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'tasks:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      return findOr404('Task', id, (uuid) => db.task.findUnique({ ...query, where: { id: uuid } }));
    },
  }),
}));

const title = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const description = z.string().trim().max(10_000, 'must be at most 10000 characters');

// Whole-object schemas so that every invalid field is reported at once.
const TaskRules = z.object({
  title: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  description: z.string().trim().max(10_000, 'must be at most 10000 characters').nullish(),
  dueDate: z.date().nullish(),
  priority: rules.notNull(rules.enumValue(TaskPriority)),
  status: rules.notNull(rules.enumValue(TaskStatus)),
});

const CreateTaskInput = builder.inputType('CreateTaskInput', {
  validate: TaskRules.extend({
    businessCaseId: rules.uuid.nullish(),
    consumerCaseId: rules.uuid.nullish(),
  }),
  fields: (t) => ({
    title: t.string({ required: true }),
    description: t.string(),
    dueDate: t.field({ type: 'DateTime', description: 'A date (UTC midnight) or a date-time with zone.' }),
    priority: t.field({ type: TaskPriorityEnum, description: 'Default MEDIUM.' }),
    status: t.field({ type: TaskStatusEnum, description: 'Default TODO.' }),
    businessCaseId: t.id(),
    consumerCaseId: t.id(),
  }),
});

const UpdateTaskInput = builder.inputType('UpdateTaskInput', {
  description: 'Fields to change; omitted fields stay, null clears description or dueDate. The linked cases cannot change.',
  validate: TaskRules.extend({ title: rules.notNull(TaskRules.shape.title) }),
  fields: (t) => ({
    title: t.string(),
    description: t.string(),
    dueDate: t.field({ type: 'DateTime' }),
    priority: t.field({ type: TaskPriorityEnum }),
    status: t.field({ type: TaskStatusEnum }),
  }),
});

builder.mutationFields((t) => ({
  createTask: t.prismaField({
    type: Task,
    authScopes: { permission: 'tasks:write' },
    args: { input: t.arg({ type: CreateTaskInput, required: true }) },
    resolve: async (query, _root, { input }, { db, apiKey }) => {
      if (input.consumerCaseId) await requireConsumerCase(db, input.consumerCaseId);
      if (input.businessCaseId) await requireBusinessCase(db, input.businessCaseId);
      const { priority, status, ...rest } = input;
      return db.task.create({
        ...query,
        data: {
          ...rest,
          ...(priority ? { priority } : {}),
          ...(status ? { status } : {}),
          ...completion(null, status === 'DONE' ? 'DONE' : null),
          organizationId: apiKey.organizationId,
        },
      });
    },
  }),
  updateTask: t.prismaField({
    type: Task,
    authScopes: { permission: 'tasks:write' },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateTaskInput, required: true }) },
    resolve: async (query, _root, { id, input }, { db }) => {
      const current = await requireTask(db, id);
      const { title: newTitle, priority, status, ...nullable } = input;
      return db.task.update({
        ...query,
        where: { id },
        data: {
          ...nullable,
          ...(newTitle ? { title: newTitle } : {}),
          ...(priority ? { priority } : {}),
          ...(status ? { status } : {}),
          ...completion(current.status, status),
        },
      });
    },
  }),
  deleteTask: t.prismaField({
    type: Task,
    description: 'Deletes the task and returns it as it was.',
    authScopes: { permission: 'tasks:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      await requireTask(db, id);
      return db.task.delete({ ...query, where: { id } });
    },
  }),
  addTaskAssignee: t.prismaField({
    type: Task,
    description: `Assigns a team member (at most ${MAX_ASSIGNEES_PER_TASK} per task); assigning someone already assigned changes nothing.`,
    authScopes: { permission: 'tasks:write' },
    args: {
      taskId: t.arg.id({ required: true }),
      userId: t.arg.string({ required: true, validate: rules.userId }),
    },
    resolve: async (query, _root, { taskId, userId }, { db, apiKey }) => {
      await requireTask(db, taskId);
      const [assigned, already] = await Promise.all([
        db.taskAssignee.count({ where: { taskId } }),
        db.taskAssignee.findUnique({ where: { taskId_userId: { taskId, userId } }, select: { userId: true } }),
      ]);
      if (!already && assigned >= MAX_ASSIGNEES_PER_TASK) {
        throw invalidInput(`taskId: a task has at most ${MAX_ASSIGNEES_PER_TASK} assignees; this one has ${assigned}`);
      }
      await db.taskAssignee.upsert({
        where: { taskId_userId: { taskId, userId } },
        create: { taskId, userId, organizationId: apiKey.organizationId },
        update: {},
      });
      return db.task.findUniqueOrThrow({ ...query, where: { id: taskId } });
    },
  }),
  removeTaskAssignee: t.prismaField({
    type: Task,
    description: 'Unassigns a team member; NOT_FOUND when they are not assigned.',
    authScopes: { permission: 'tasks:write' },
    args: {
      taskId: t.arg.id({ required: true }),
      userId: t.arg.string({ required: true }),
    },
    resolve: async (query, _root, { taskId, userId }, { db }) => {
      await requireTask(db, taskId);
      const { count } = await db.taskAssignee.deleteMany({ where: { taskId, userId } });
      if (count === 0) throw notFound(`User ${userId} is not assigned to task ${taskId}`);
      return db.task.findUniqueOrThrow({ ...query, where: { id: taskId } });
    },
  }),
}));
