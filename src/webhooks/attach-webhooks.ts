import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { type JobQueue, scheduleJob } from '../jobs/queue.ts';
import { attemptDelivery, type DeliverySettings, failLostDeliveries } from './delivery-worker.ts';
import { DELIVERY_QUEUE, type DeliveryJob, dispatchDeliveries } from './dispatch.ts';
import { emitOverdueTasks } from './overdue-tasks.ts';

const OVERDUE_QUEUE = 'task-overdue-sweep';
const RETENTION_QUEUE = 'event-retention';
const LOST_DELIVERY_QUEUE = 'webhook-lost-delivery-sweep';
/**
 * Deliveries each instance attempts at once. Fairness does not depend on it
 * (see dispatchDeliveries): an organization's attempts are capped and ranked
 * across instances, so another's wait for a worker is about one delivery.
 */
const WORKERS = 4;
/** A queued delivery whose job is gone this long after queueing is taken as lost. */
const LOST_AFTER_MS = 10 * 60_000;

interface Options extends DeliverySettings {
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
export async function attachWebhooks(queue: JobQueue, { db, logger, dispatchIntervalMs, retentionDays, ...settings }: Options) {
  await queue.createQueue(DELIVERY_QUEUE);
  // A few deliveries at once, so one slow receiver does not hold up the others.
  for (let worker = 0; worker < WORKERS; worker += 1) {
    await queue.process<DeliveryJob>(DELIVERY_QUEUE, { pollingIntervalSeconds: 0.5 }, async (job, signal) => {
      await attemptDelivery({ deliveryId: job.data.deliveryId, jobId: job.id }, db, settings, logger, signal);
    });
  }
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
      .catch((error: unknown) => logger.warn({ err: error }, 'webhook dispatch failed; the next tick tries again'))
      .finally(() => { dispatching = null; });
  }, dispatchIntervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await dispatching;
  };
}
