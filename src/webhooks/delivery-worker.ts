import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { eventBody } from './event-body.ts';
import { postWebhook } from './post-webhook.ts';
import { signatureHeader } from './signature.ts';

export const DELIVERY_QUEUE = 'webhook-delivery';

export interface DeliverySettings {
  maxAttempts: number;
  retryDelaySeconds: number;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
}

interface DeliveryJob {
  deliveryId: string;
}

/**
 * Hands deliveries the triggers planned to the job queue. The job id is the
 * delivery id, so instances polling at once (or a crash between sending and
 * marking) never queue one delivery twice.
 */
export async function dispatchDeliveries(queue: JobQueue, db: Database, settings: DeliverySettings) {
  // Across organizations by design (the platform's own work): only ids leave this query.
  const due = await db.webhookDelivery.findMany({ where: { enqueuedAt: null }, select: { id: true }, orderBy: { createdAt: 'asc' }, take: 200 });
  if (!due.length) return 0;
  await queue.insert(due.map(({ id }) => ({
    id, name: DELIVERY_QUEUE, data: { deliveryId: id } satisfies DeliveryJob,
    // Our own attempt count decides when to stop; the queue only spaces the retries.
    retryLimit: settings.maxAttempts, retryDelay: settings.retryDelaySeconds, retryBackoff: true,
    // A worker that died mid-attempt gives its job back after this.
    expireInSeconds: Math.ceil(settings.timeoutMs / 1000) + 50,
  })));
  await db.webhookDelivery.updateMany({ where: { id: { in: due.map((d) => d.id) } }, data: { enqueuedAt: new Date() } });
  return due.length;
}

/**
 * One attempt of one delivery: sign, post, record. A failed attempt throws so
 * that the queue retries it with exponential backoff, until the delivery has
 * had its attempts. Delivery is at least once: receivers deduplicate on
 * Webhook-Id (the event id).
 */
export async function attemptDelivery(deliveryId: string, db: Database, settings: DeliverySettings, logger: Logger, signal?: AbortSignal) {
  // The platform's own work, not a tenant's request: attempts are written by the app's role only.
  const delivery = await db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true, event: true } });
  if (!delivery || delivery.status !== 'PENDING') return;
  if (!delivery.endpoint.enabled) {
    await db.webhookDelivery.update({ where: { id: deliveryId }, data: { status: 'CANCELLED' } });
    return;
  }
  const number = delivery.attemptCount + 1;
  const body = JSON.stringify(eventBody(delivery.event));
  const timestamp = Math.floor(Date.now() / 1000);
  const startedAt = new Date();
  const outcome = await postWebhook(delivery.endpoint.url, body, {
    'user-agent': 'compliance-platform-webhooks/1',
    'webhook-id': delivery.event.id,
    'webhook-delivery': delivery.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(delivery.endpoint.secret, timestamp, body),
  }, { ...settings, signal });
  // Handed back to the queue at shutdown: the instance that takes it makes this attempt.
  if (signal?.aborted) return;
  const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const final = succeeded || number >= settings.maxAttempts;
  await db.$transaction([
    db.webhookDeliveryAttempt.create({
      data: {
        organizationId: delivery.organizationId, deliveryId, number, startedAt, durationMs: outcome.durationMs,
        responseStatus: outcome.status, responseBody: outcome.body, error: outcome.error,
      },
    }),
    db.webhookDelivery.update({
      where: { id: deliveryId },
      data: {
        attemptCount: number, lastAttemptAt: startedAt,
        status: succeeded ? 'SUCCEEDED' : final ? 'FAILED' : 'PENDING', deliveredAt: succeeded ? new Date() : null,
      },
    }),
  ]);
  if (!final) {
    throw new Error(`webhook attempt ${number} failed: ${outcome.error ?? `HTTP ${outcome.status}`}`);
  }
  if (!succeeded) logger.warn({ deliveryId, endpointId: delivery.endpointId, attempts: number }, 'webhook delivery failed after its last attempt');
}

/**
 * Deliveries still PENDING whose job is gone from the queue: their worker died
 * mid-attempt often enough that the queue spent its retries (crashes record no
 * attempt). They are recorded as FAILED, with an attempt that says why, so the
 * log shows the truth and they can be replayed; nothing stays pending forever.
 */
export async function failLostDeliveries(queue: JobQueue, db: Database, enqueuedBefore: Date) {
  // Across organizations by design (the platform's own housekeeping).
  const lost = await db.$queryRawUnsafe<Array<{ id: string; organization_id: string; attempt_count: number }>>(
    `SELECT d.id::text, d.organization_id::text, d.attempt_count FROM webhook_deliveries d
      WHERE d.status = 'PENDING' AND d.enqueued_at < $1
        AND NOT EXISTS (SELECT 1 FROM "${queue.schemaName}".job j WHERE j.name = $2 AND j.id = d.id AND j.state < 'completed')`,
    enqueuedBefore, DELIVERY_QUEUE,
  );
  const now = new Date();
  for (const delivery of lost) {
    await db.$transaction([
      db.webhookDeliveryAttempt.create({
        data: {
          organizationId: delivery.organization_id, deliveryId: delivery.id, number: delivery.attempt_count + 1, startedAt: now, durationMs: 0,
          error: 'not attempted: the job queue gave up on this delivery (the instances working it stopped during its attempts); replay it to send it again',
        },
      }),
      db.webhookDelivery.updateMany({ where: { id: delivery.id, status: 'PENDING' }, data: { status: 'FAILED', attemptCount: delivery.attempt_count + 1, lastAttemptAt: now } }),
    ]);
  }
  return lost.length;
}
