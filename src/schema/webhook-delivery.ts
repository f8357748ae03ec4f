import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import * as rules from '../domain/validation.ts';
import { conflict } from '../errors.ts';
import { WebhookDeliveryStatus } from '../generated/prisma/enums.ts';
import { KEPT_RESPONSE_CHARACTERS } from '../webhooks/post-webhook.ts';
import { Event } from './event.ts';
import { costs, listOfAtMost, OUTSIDE_CALL } from './cost.ts';
import { findOr404 } from './find-or-404.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';
import { requireWebhookEndpoint, WebhookEndpoint } from './webhook-endpoint.ts';

const WebhookDeliveryStatusEnum = builder.enumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description: 'PENDING: queued or between attempts; SUCCEEDED: a 2xx came back; FAILED: every attempt failed; CANCELLED: the endpoint was disabled.',
});

const WebhookDeliveryAttempt = builder.prismaObject('WebhookDeliveryAttempt', {
  description: 'One POST of a delivery and what came back.',
  fields: (t) => ({
    number: t.exposeInt('number', { description: '1 for the first attempt.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs'),
    responseStatus: t.exposeInt('responseStatus', { nullable: true, description: 'Null when no answer came (network error, timeout).' }),
    responseBody: t.exposeString('responseBody', {
      nullable: true, description: `The first ${KEPT_RESPONSE_CHARACTERS} characters of the answer; null when none came (nothing is sent to a refused address).`,
    }),
    error: t.exposeString('error', {
      nullable: true, description: 'Why no answer came: a network error, a timeout, or "not sent: …" for a refused address (loopback, private networks).',
    }),
  }),
});

export const WebhookDelivery = builder.prismaObject('WebhookDelivery', {
  description: 'One event sent to one endpoint: its status and every attempt.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Also the Webhook-Delivery header.' }),
    endpointId: t.exposeID('endpointId'),
    endpoint: t.relation('endpoint', { type: WebhookEndpoint }),
    eventId: t.exposeID('eventId'),
    eventType: t.string({ select: { event: { select: { type: true } } }, resolve: (delivery) => delivery.event.type }),
    event: t.relation('event', { type: Event, authScopes: { permission: 'events:read' }, description: 'What was sent (the body is this event).' }),
    status: t.expose('status', { type: WebhookDeliveryStatusEnum }),
    attemptCount: t.exposeInt('attemptCount'),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    replayOfId: t.exposeID('replayOfId', { nullable: true, description: 'The delivery this one replays.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    // At most WEBHOOK_MAX_ATTEMPTS (20 at most).
    attempts: t.relation('attempts', { extensions: listOfAtMost(20), query: { orderBy: { number: 'asc' } } }),
  }),
});

const WebhookDeliveryList = listOf('WebhookDeliveryList', WebhookDelivery, 'A page of webhook deliveries, newest first.');

const requireDelivery = (db: TenantDatabase, id: string) =>
  findOr404('Webhook delivery', id, (uuid) => db.webhookDelivery.findUnique({ where: { id: uuid }, select: { id: true, endpointId: true, eventId: true } }));

builder.prismaObjectField(WebhookEndpoint, 'deliveries', (t) =>
  t.relatedConnection('deliveries', { description: 'The delivery log of this endpoint, newest first.', cursor: 'id', totalCount: true, query: () => ({ orderBy: NEWEST_FIRST }) }),
);

builder.queryFields((t) => ({
  webhookDeliveries: t.field({
    type: WebhookDeliveryList,
    description: 'The delivery log, newest first: filter by endpoint, event or status.',
    authScopes: { permission: 'webhooks:read' },
    args: {
      ...pageArgs,
      endpointId: t.arg.id({ required: false }),
      eventId: t.arg.id({ required: false }),
      status: t.arg({ type: WebhookDeliveryStatusEnum, required: false }),
    },
    resolve: async (_root, args, context, info) => {
      if (args.endpointId) await requireWebhookEndpoint(context.db, args.endpointId);
      const where = {
        ...(args.endpointId ? { endpointId: args.endpointId } : {}),
        // A malformed event id matches nothing, like an unknown one.
        ...(args.eventId ? { eventId: rules.uuid.safeParse(args.eventId).success ? args.eventId : '00000000-0000-0000-0000-000000000000' } : {}),
        ...(args.status ? { status: args.status } : {}),
      };
      return pageOf(
        args,
        (window) => context.db.webhookDelivery.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), where, orderBy: NEWEST_FIRST, ...window }),
        () => context.db.webhookDelivery.count({ where }),
      );
    },
  }),
  webhookDelivery: t.prismaField({
    type: WebhookDelivery,
    description: 'One delivery with its attempts; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'webhooks:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      return findOr404('Webhook delivery', id, (uuid) => db.webhookDelivery.findUnique({ ...query, where: { id: uuid } }));
    },
  }),
}));

builder.mutationFields((t) => ({
  replayWebhookDelivery: t.prismaField({
    type: WebhookDelivery,
    description: 'Sends a delivery\'s event to its endpoint again, as a new delivery (same event id, so receivers can deduplicate).',
    authScopes: { permission: 'webhooks:write' },
    extensions: costs(OUTSIDE_CALL),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db, apiKey }) => {
      const original = await requireDelivery(db, id);
      const endpoint = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: original.endpointId }, select: { enabled: true } });
      if (!endpoint.enabled) throw conflict('The endpoint is disabled; enable it before replaying');
      return db.webhookDelivery.create({
        ...query,
        data: { organizationId: apiKey.organizationId, endpointId: original.endpointId, eventId: original.eventId, replayOfId: id },
      });
    },
  }),
}));
