import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { FairSlots } from '../analysis/fair-slots.ts';
import { workFair } from '../jobs/fair-queue.ts';
import { type JobQueue, scheduleJob } from '../jobs/queue.ts';
import { attemptDelivery, type DeliverySettings, failLostDeliveries } from './delivery-worker.ts';
import { DELIVERY_QUEUE, type DeliveryJob, dispatchDeliveries, type DispatchSettings } from './dispatch.ts';
import { emitOverdueTasks } from './overdue-tasks.ts';

const OVERDUE_QUEUE = 'task-overdue-sweep';
const RETENTION_QUEUE = 'event-retention';
const LOST_DELIVERY_QUEUE = 'webhook-lost-delivery-sweep';
/** A queued delivery whose job is gone this long after queueing is taken as lost. */
const LOST_AFTER_MS = 10 * 60_000;

interface Options extends DeliverySettings, DispatchSettings {
  /** Attempts this instance makes at once (WEBHOOK_MAX_IN_FLIGHT). */
  maxInFlight: number;
  db: Database;
  logger: Logger;
  dispatchIntervalMs: number;
  retentionDays: number;
}

/**
 * Webhook delivery on this instance: a dispatcher that polls for due
 * deliveries and queues their attempts fairly across organizations, the
 * delivery workers, the overdue-task sweep and the retention clean-up.
 * Returns the dispatcher's stop.
 */
export async function attachWebhooks(queue: JobQueue, { db, logger, dispatchIntervalMs, retentionDays, maxInFlight, ...settings }: Options) {
  await queue.createQueue(DELIVERY_QUEUE);
  // Attempts wait on receivers (up to timeoutMs each when they hang), not on
  // this process: many run at once, each in a slot taken as soon as one is
  // free. One organization holds at most its share of the slots (never all of
  // them), so the rest stay free for the others however many of its receivers hang.
  const slots = new FairSlots({ size: maxInFlight, perGroup: Math.min(settings.maxInFlightPerOrganization, Math.max(1, maxInFlight - 1)) });
  const worker = workFair<DeliveryJob & { [field: string]: unknown }>(
    queue, DELIVERY_QUEUE, { groupField: 'organizationId', slots, pollingIntervalMs: 500, logger },
    async (job, signal) => {
      await attemptDelivery({ deliveryId: job.data.deliveryId, jobId: job.id }, db, settings, logger, signal);
    },
  );
  await scheduleJob(queue, OVERDUE_QUEUE, '* * * * *', async () => {
    const emitted = await emitOverdueTasks(db);
    if (emitted) logger.info({ emitted }, 'task.overdue events emitted');
  });
  await scheduleJob(queue, LOST_DELIVERY_QUEUE, '*/5 * * * *', async () => {
    const failed = await failLostDeliveries(queue, db, new Date(Date.now() - LOST_AFTER_MS));
    if (failed) logger.warn({ failed }, 'webhook deliveries whose jobs were lost recorded as failed');
  });
  await scheduleJob(queue, RETENTION_QUEUE, '17 3 * * *', async () => {
    // Deliveries and their attempts go with their events (foreign keys cascade).
    const { count } = await db.event.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - retentionDays * 86_400_000) } } });
    if (count) logger.info({ count }, 'expired events deleted');
  });

  let dispatching: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    // One dispatch at a time; a slow one makes the next tick a no-op.
    dispatching ??= dispatchDeliveries(queue, db, settings)
      .then((queued) => queued && worker.notify())
      .catch((error: unknown) => logger.warn({ err: error }, 'webhook dispatch failed; the next tick tries again'))
      .finally(() => { dispatching = null; });
  }, dispatchIntervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await dispatching;
  };
}
