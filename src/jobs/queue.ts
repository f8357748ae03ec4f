import PgBoss from 'pg-boss';
import type { Logger } from 'pino';

export type JobQueue = PgBoss;

/**
 * Background work goes through pg-boss: jobs live in PostgreSQL (schema
 * `pgboss`), so they survive restarts and any instance can take them.
 */
export async function startJobQueue(databaseUrl: string, logger: Logger, schema = 'pgboss', maintenanceIntervalSeconds = 120): Promise<JobQueue> {
  // Maintenance also expires jobs whose worker died, which then go back to the queue for their retry.
  const boss = new PgBoss({ connectionString: databaseUrl, schema, application_name: 'compliance-jobs', max: 4, maintenanceIntervalSeconds });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  return boss;
}

/** A job that runs on a cron schedule on one instance at a time (singleton queue). */
export async function scheduleJob(queue: JobQueue, name: string, cron: string, work: () => Promise<unknown>) {
  await queue.createQueue(name, { name, policy: 'singleton' });
  await queue.schedule(name, cron);
  await queue.work(name, async () => {
    await work();
  });
}

export async function stopJobQueue(boss: JobQueue) {
  // Graceful: running jobs finish (up to the timeout) or go back to the queue.
  await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
}
