import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import * as rules from '../domain/validation.ts';
import { gone } from '../errors.ts';
import { ALL_EVENTS, EVENT_TYPES, isEventTypeOrAll } from '../webhooks/event-types.ts';
import { findOr404 } from './find-or-404.ts';
import { PAGE_ITEMS } from './cost.ts';
import { MAX_PAGE_SIZE } from './pagination.ts';

export const Event = builder.prismaObject('Event', {
  description: 'Something that happened to your organization\'s data, written in the same transaction as the change. Webhooks post exactly this object.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Also the Webhook-Id header of its deliveries: deduplicate on it.' }),
    type: t.exposeString('type', { description: `One of: ${Object.keys(EVENT_TYPES).join(', ')}.` }),
    resourceType: t.exposeString('resourceType', { description: 'consumer_case, business_case, task, document, document_analysis, screening, screening_hit or risk_assessment.' }),
    resourceId: t.exposeString('resourceId'),
    data: t.expose('data', { type: 'JSON', description: 'Ids and what changed, with the API\'s field names; see the event catalogue.' }),
    actor: t.exposeString('actor', { nullable: true, description: 'The API key\'s name, "onboarding page", or a background job.' }),
    requestId: t.exposeString('requestId', { nullable: true, description: 'X-Request-Id of the request that caused it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

interface EventPage {
  items: unknown[];
  /** The cursor for the next call: the last item's id, or the given one when nothing is new. */
  next: string | null;
  hasMore: boolean;
}

const EventFeed = builder.objectRef<EventPage>('EventFeed').implement({
  description: 'Events in the order they happened, after a cursor. Poll with `after: next` to follow the feed.',
  fields: (t) => ({
    items: t.field({ type: [Event], extensions: PAGE_ITEMS, resolve: (page) => page.items as never }),
    next: t.exposeID('next', { nullable: true, description: 'Pass as `after` to continue; null when the feed is empty.' }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More events are ready now (otherwise poll again later).' }),
  }),
});

const eventType = z.string().refine(isEventTypeOrAll, 'is not a known event type');

/**
 * Transactions older than every running one: their events are all visible,
 * and no later commit can add an event before them in (transactionId, sequence)
 * order. The feed shows only these, so a cursor never skips a late commit.
 */
async function settledBefore(db: TenantDatabase) {
  const [row] = await db.$queryRaw<Array<{ xmin: bigint }>>`SELECT (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint AS xmin`;
  return row!.xmin;
}

builder.queryFields((t) => ({
  events: t.field({
    type: EventFeed,
    description: 'The event feed of your organization, oldest first: from `after` (an event id, the cursor), from `since`, or from the oldest kept event.',
    authScopes: { permission: 'events:read' },
    args: {
      after: t.arg.id({ required: false, description: 'The last event you have seen (the previous call\'s `next`).' }),
      since: t.arg({ type: 'DateTime', required: false, description: 'Start at events created at or after this time (when no cursor is given).' }),
      limit: t.arg.int({
        defaultValue: 50,
        validate: z.number().int().min(1, 'must be at least 1').max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`),
      }),
      type: t.arg.string({ required: false, validate: eventType.nullish() }),
      resourceType: t.arg.string({ required: false, validate: rules.shortText(64).nullish() }),
      resourceId: t.arg.string({ required: false, validate: rules.shortText(200).nullish() }),
    },
    resolve: async (_root, args, context, info) => {
      const { db } = context;
      let cursor: { transactionId: bigint; sequence: bigint } | null = null;
      if (args.after) {
        cursor = rules.uuid.safeParse(args.after).success
          ? await db.event.findUnique({ where: { id: args.after }, select: { transactionId: true, sequence: true } })
          : null;
        // Unknown, expired and other organizations' ids look the same.
        if (!cursor) throw gone(`after: event ${args.after} not found; it may be older than the retention period`);
      }
      const limit = args.limit ?? 50;
      // The id is the next cursor, whether or not the caller selected it.
      const query = queryFromInfo({ context, info, path: ['items'] }) as { select?: Record<string, unknown> };
      const rows = await db.event.findMany({
        ...query,
        ...(query.select ? { select: { ...query.select, id: true } } : {}),
        where: {
          transactionId: { lt: await settledBefore(db) },
          ...(args.type && args.type !== ALL_EVENTS ? { type: args.type } : {}),
          ...(args.resourceType ? { resourceType: args.resourceType } : {}),
          ...(args.resourceId ? { resourceId: args.resourceId } : {}),
          ...(cursor
            ? { OR: [{ transactionId: { gt: cursor.transactionId } }, { transactionId: cursor.transactionId, sequence: { gt: cursor.sequence } }] }
            : args.since ? { createdAt: { gte: args.since } } : {}),
        },
        orderBy: [{ transactionId: 'asc' }, { sequence: 'asc' }],
        take: limit + 1,
      });
      const items = rows.slice(0, limit);
      return { items, hasMore: rows.length > limit, next: items.at(-1)?.id ?? args.after ?? null };
    },
  }),
  event: t.prismaField({
    type: Event,
    description: 'One event; NOT_FOUND for unknown ids, expired events and other organizations\' ids.',
    authScopes: { permission: 'events:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      return findOr404('Event', id, (uuid) => db.event.findUnique({ ...query, where: { id: uuid } }));
    },
  }),
}));
