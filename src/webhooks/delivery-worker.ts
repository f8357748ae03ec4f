import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { DELIVERY_QUEUE } from './dispatch.ts';
import { eventBody } from './event-body.ts';
import { postWebhook } from './post-webhook.ts';
import { signatureHeader } from './signature.ts';

export interface DeliverySettings {
  maxAttempts: number;
  retryDelaySeconds: number;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
}

/** The gap before attempt `number + 1`: from retryDelaySeconds, doubling, with jitter (1-2x, then 2-4x, ...). */
export function retryDelayMs(number: number, retryDelaySeconds: number) {
  return retryDelaySeconds * 1000 * 2 ** Math.min(16, number - 1) * (1 + Math.random());
}

/**
 * One attempt of one delivery, by the job the dispatcher queued for it: sign,
 * post, record, and either finish the delivery or set when its next attempt
 * is due (the dispatcher queues that one; waiting, it holds no job). Delivery
 * is at least once: receivers deduplicate on Webhook-Id (the event id).
 */
export async function attemptDelivery(
  { deliveryId, jobId }: { deliveryId: string; jobId: string }, db: Database, settings: DeliverySettings, logger: Logger, signal?: AbortSignal,
) {
  // The platform's own work, not a tenant's request: attempts are written by the app's role only.
  const delivery = await db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true, event: true } });
  // Only the delivery's current job attempts it: one of a cancelled, deleted or finished delivery does nothing.
  if (!delivery || delivery.status !== 'PENDING' || delivery.jobId !== jobId) return;
  if (!delivery.endpoint.enabled) {
    await db.webhookDelivery.updateMany({ where: { id: deliveryId, status: 'PENDING' }, data: { status: 'CANCELLED' } });
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
  const current = { id: deliveryId, jobId };
  await db.$transaction([
    db.webhookDeliveryAttempt.create({
      data: {
        organizationId: delivery.organizationId, deliveryId, number, startedAt, durationMs: outcome.durationMs,
        responseStatus: outcome.status, responseBody: outcome.body, error: outcome.error,
      },
    }),
    db.webhookDelivery.updateMany({ where: current, data: { attemptCount: number, lastAttemptAt: startedAt } }),
    // Cancelled meanwhile (its endpoint disabled): it stays cancelled.
    db.webhookDelivery.updateMany({
      where: { ...current, status: 'PENDING' },
      data: final
        ? { status: succeeded ? 'SUCCEEDED' : 'FAILED', deliveredAt: succeeded ? new Date() : null }
        : { enqueuedAt: null, jobId: null, nextAttemptAt: new Date(Date.now() + retryDelayMs(number, settings.retryDelaySeconds)) },
    }),
  ]);
  if (final && !succeeded) logger.warn({ deliveryId, endpointId: delivery.endpointId, attempts: number }, 'webhook delivery failed after its last attempt');
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
        AND NOT EXISTS (SELECT 1 FROM "${queue.schemaName}".job j WHERE j.name = $2 AND j.id = d.job_id AND j.state < 'completed')`,
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
