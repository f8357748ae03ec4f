import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.ts';
import { costs, LONG_TEXT } from './cost.ts';
import * as rules from '../domain/validation.ts';
import { AuditAction } from '../generated/prisma/enums.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';

const AuditActionEnum = builder.enumType(AuditAction, { name: 'AuditAction' });

export const AuditEvent = builder.prismaObject('AuditEvent', {
  description: 'One change to your organization\'s data, recorded by the database in the same transaction. Nothing can change or delete it.',
  // Only the columns a query selects are read: `before` and `after` can be large (a row as stored).
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    resourceType: t.exposeString('resourceType', { description: 'The table changed, e.g. consumer_cases, tasks, notes.' }),
    resourceId: t.exposeString('resourceId', { nullable: true }),
    action: t.expose('action', { type: AuditActionEnum }),
    actor: t.exposeString('actor', { nullable: true, description: 'The API key\'s name, "onboarding page", "operator command", or a background job.' }),
    apiKeyId: t.exposeID('apiKeyId', { nullable: true, description: 'The API key that made the change (null for the onboarding page, jobs and the operator command).' }),
    userId: t.exposeString('userId', { nullable: true, description: 'Your user on whose behalf the key acted: the request\'s X-User-Id header.' }),
    requestId: t.exposeString('requestId', { nullable: true, description: 'X-Request-Id of the request that made the change.' }),
    // A row as stored can hold long texts (a note's body): weighed as one.
    before: t.expose('before', { type: 'JSON', nullable: true, description: 'The row before (updates, deletions), as stored.', extensions: costs(LONG_TEXT) }),
    after: t.expose('after', { type: 'JSON', nullable: true, description: 'The row after (creations, updates), as stored.', extensions: costs(LONG_TEXT) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const AuditEventList = listOf('AuditEventList', AuditEvent, 'A page of audit events, newest first.');

builder.queryFields((t) => ({
  auditEvents: t.field({
    type: AuditEventList,
    description: 'The audit trail of your organization, newest first; filter by resource to see one record\'s history.',
    authScopes: { permission: 'audit:read' },
    args: {
      ...pageArgs,
      resourceType: t.arg.string({ required: false, validate: rules.shortText(64).nullish() }),
      resourceId: t.arg.string({ required: false, validate: rules.shortText(200).nullish() }),
      action: t.arg({ type: AuditActionEnum, required: false }),
      requestId: t.arg.string({ required: false, validate: rules.shortText(128).nullish() }),
      userId: t.arg.string({ required: false, validate: rules.shortText(200).nullish() }),
    },
    resolve: (_root, args, context, info) => {
      const where = {
        ...(args.resourceType ? { resourceType: args.resourceType } : {}),
        ...(args.resourceId ? { resourceId: args.resourceId } : {}),
        ...(args.action ? { action: args.action } : {}),
        ...(args.requestId ? { requestId: args.requestId } : {}),
        ...(args.userId ? { userId: args.userId } : {}),
      };
      return pageOf(
        args,
        // (The selection is typed for models with relations; audit events have none, so it only ever selects.)
        (window) => context.db.auditEvent.findMany({ ...(queryFromInfo({ context, info, path: ['items'] }) as object), where, orderBy: NEWEST_FIRST, ...window }),
        () => context.db.auditEvent.count({ where }),
      );
    },
  }),
}));
