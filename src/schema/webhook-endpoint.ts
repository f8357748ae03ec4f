import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import * as rules from '../domain/validation.ts';
import { conflict, invalidInput } from '../errors.ts';
import { ALL_EVENTS, EVENT_TYPES, isEventTypeOrAll } from '../webhooks/event-types.ts';
import { generateWebhookSecret } from '../webhooks/signature.ts';
import { checkEndpointUrl } from '../webhooks/target-guard.ts';
import { findOr404 } from './find-or-404.ts';
import { listOf, NEWEST_FIRST, pageArgs, pageOf } from './pagination.ts';
import { SHOWN_ONCE } from './shown-once.ts';

/** Endpoints per organization: enough for every integration, few enough that fan-out stays cheap. */
const MAX_ENDPOINTS = 25;

export const WebhookEndpoint = builder.prismaObject('WebhookEndpoint', {
  description: 'An HTTPS endpoint of yours that receives signed events of the types it subscribes to.',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    description: t.exposeString('description', { nullable: true }),
    eventTypes: t.exposeStringList('eventTypes', { description: `Subscribed types; "${ALL_EVENTS}" is every type.` }),
    enabled: t.exposeBoolean('enabled', { description: 'Disabled endpoints receive nothing; their pending deliveries are cancelled.' }),
    secretCreatedAt: t.expose('secretCreatedAt', { type: 'DateTime', description: 'When the signing secret was made (created or rotated). The secret itself is shown only then.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const WebhookEndpointList = listOf('WebhookEndpointList', WebhookEndpoint, 'A page of webhook endpoints, newest first.');

const EndpointWithSecret = builder.objectRef<{ endpointId: string; secret: string }>('WebhookEndpointSecret').implement({
  description: 'An endpoint with its signing secret: shown once, when created or rotated. Keep it; it cannot be read again.',
  fields: (t) => ({
    secret: t.exposeString('secret', {
      nullable: true,
      extensions: SHOWN_ONCE,
      description: 'whsec_…: the HMAC-SHA256 key of the Webhook-Signature header. null in an idempotent replay (shown once only): rotate the secret if it was lost.',
    }),
    endpoint: t.prismaField({
      type: WebhookEndpoint,
      resolve: (query, { endpointId }, _args, { db }) => db.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: endpointId } }),
    }),
  }),
});

export const requireWebhookEndpoint = (db: TenantDatabase, id: string) =>
  findOr404('Webhook endpoint', id, (uuid) => db.webhookEndpoint.findUnique({ where: { id: uuid }, select: { id: true } }));

const url = z.string().trim().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters');
const eventTypes = z
  .array(z.string().refine(isEventTypeOrAll, { error: (issue) => `unknown event type ${JSON.stringify(issue.input)}` }))
  .min(1, 'give at least one event type (or "*")')
  .max(Object.keys(EVENT_TYPES).length + 1, 'has too many entries')
  .refine((types) => new Set(types).size === types.length, 'must not repeat a type');
const description = z.string().trim().max(500, 'must be at most 500 characters');

const CreateWebhookEndpointInput = builder.inputType('CreateWebhookEndpointInput', {
  validate: z.object({ url, eventTypes, description: description.nullish(), enabled: rules.notNull(z.boolean()) }),
  fields: (t) => ({
    url: t.string({ required: true, description: 'https://… (http and private addresses only where the platform allows them, e.g. local development).' }),
    eventTypes: t.stringList({ required: true, description: `Event types to receive, or ["${ALL_EVENTS}"] for all: ${Object.keys(EVENT_TYPES).join(', ')}.` }),
    description: t.string(),
    enabled: t.boolean({ description: 'Default true.' }),
  }),
});

const UpdateWebhookEndpointInput = builder.inputType('UpdateWebhookEndpointInput', {
  validate: z.object({ url: rules.notNull(url), eventTypes: rules.notNull(eventTypes), description: description.nullish(), enabled: rules.notNull(z.boolean()) }),
  fields: (t) => ({
    url: t.string(),
    eventTypes: t.stringList(),
    description: t.string({ description: 'An empty string removes it.' }),
    enabled: t.boolean(),
  }),
});

builder.queryFields((t) => ({
  webhookEndpoints: t.field({
    type: WebhookEndpointList,
    description: 'Your webhook endpoints, newest first.',
    authScopes: { permission: 'webhooks:read' },
    args: { ...pageArgs },
    resolve: (_root, args, context, info) =>
      pageOf(
        args,
        (window) => context.db.webhookEndpoint.findMany({ ...queryFromInfo({ context, info, path: ['items'] }), orderBy: NEWEST_FIRST, ...window }),
        () => context.db.webhookEndpoint.count(),
      ),
  }),
  webhookEndpoint: t.prismaField({
    type: WebhookEndpoint,
    description: 'One webhook endpoint; NOT_FOUND for unknown ids and ids of other organizations.',
    authScopes: { permission: 'webhooks:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      await requireWebhookEndpoint(db, id);
      return db.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: EndpointWithSecret,
    description: 'Registers an endpoint and returns its signing secret (shown this once).',
    authScopes: { permission: 'webhooks:write' },
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true }) },
    resolve: async (_root, { input }, { db, apiKey, webhooks }) => {
      const target = checkEndpointUrl(input.url, webhooks.allowPrivateNetworks);
      if ((await db.webhookEndpoint.count()) >= MAX_ENDPOINTS) throw conflict(`An organization can have at most ${MAX_ENDPOINTS} webhook endpoints`);
      const secret = generateWebhookSecret();
      const endpoint = await db.webhookEndpoint.create({
        data: {
          organizationId: apiKey.organizationId, url: target, eventTypes: input.eventTypes, description: input.description || null,
          enabled: input.enabled ?? true, secret,
        },
        select: { id: true },
      });
      return { endpointId: endpoint.id, secret };
    },
  }),
  updateWebhookEndpoint: t.prismaField({
    type: WebhookEndpoint,
    description: 'Changes the URL, event types, description, or enables/disables an endpoint.',
    authScopes: { permission: 'webhooks:write' },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateWebhookEndpointInput, required: true }) },
    resolve: async (query, _root, { id, input }, { db, webhooks }) => {
      await requireWebhookEndpoint(db, id);
      if (input.url == null && input.eventTypes == null && input.description === undefined && input.enabled == null) {
        throw invalidInput('give at least one of url, eventTypes, description, enabled');
      }
      return db.webhookEndpoint.update({
        ...query,
        where: { id },
        data: {
          ...(input.url != null ? { url: checkEndpointUrl(input.url, webhooks.allowPrivateNetworks) } : {}),
          ...(input.eventTypes != null ? { eventTypes: input.eventTypes } : {}),
          ...(input.description !== undefined ? { description: input.description || null } : {}),
          ...(input.enabled != null ? { enabled: input.enabled } : {}),
        },
      });
    },
  }),
  rotateWebhookEndpointSecret: t.field({
    type: EndpointWithSecret,
    description: 'Replaces the signing secret at once and returns the new one (shown this once). Deliveries from now on are signed with it.',
    authScopes: { permission: 'webhooks:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { db }) => {
      await requireWebhookEndpoint(db, id);
      const secret = generateWebhookSecret();
      await db.webhookEndpoint.update({ where: { id }, data: { secret, secretCreatedAt: new Date() }, select: { id: true } });
      return { endpointId: id, secret };
    },
  }),
  deleteWebhookEndpoint: t.prismaField({
    type: WebhookEndpoint,
    description: 'Deletes an endpoint with its delivery log and returns it as it was.',
    authScopes: { permission: 'webhooks:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, { db }) => {
      await requireWebhookEndpoint(db, id);
      return db.webhookEndpoint.delete({ ...query, where: { id } });
    },
  }),
}));
