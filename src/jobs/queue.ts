import { setTimeout as delay } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { ConnectionPool } from '../db/connection-pool.ts';

/** A job this instance is running, and how to let go of it at shutdown. */
interface RunningJob {
  queue: string;
  controller: AbortController;
  release: () => void;
}

/**
 * Background work goes through pg-boss: jobs live in PostgreSQL, so they
 * survive restarts and any instance can take them. Workers register through
 * `process`, which tracks what this instance runs, so that a shutdown can
 * hand unfinished jobs back to the queue (`stopGracefully`) instead of
 * failing them as pg-boss's own stop does (which uses up a retry, or loses
 * the job when none is left).
 */
export class JobQueue extends PgBoss {
  readonly #running = new Map<string, RunningJob>();
  readonly #queues = new Set<string>();
  readonly #stopTaking = new Set<() => Promise<void>>();

  constructor(
    options: Omit<PgBoss.ConstructorOptions, 'db' | 'schema'>,
    readonly schemaName: string,
    /** The queue's connections: ours rather than pg-boss's, so that a stop waits until they have closed. */
    private readonly pool: ConnectionPool,
  ) {
    super({ ...options, schema: schemaName, db: { executeSql: (text, values) => pool.query(text, values) } });
  }

  /** Works queue `name` one job at a time; the handler's signal aborts when the job is handed back at shutdown. */
  async process<T extends object>(
    name: string,
    options: Omit<PgBoss.WorkOptions, 'batchSize' | 'includeMetadata'>,
    handler: (job: PgBoss.JobWithMetadata<T>, signal: AbortSignal) => Promise<void>,
  ): Promise<string> {
    this.#queues.add(name);
    return this.work<T>(name, { ...options, batchSize: 1, includeMetadata: true }, async ([job]) => {
      if (job) await this.runTracked(name, job, handler);
    });
  }

  /**
   * Runs the handler of a job this instance took, tracked so that a
   * shutdown can hand it back (`stopGracefully`): 'released' when it was.
   * `process` runs its jobs through here; so can a worker that fetches its own.
   */
  async runTracked<T extends object>(
    name: string,
    job: { id: string } & T,
    handler: (job: T, signal: AbortSignal) => Promise<void>,
  ): Promise<'done' | 'released'> {
    const controller = new AbortController();
    let release!: () => void;
    const released = new Promise<'released'>((resolve) => (release = () => resolve('released')));
    this.#running.set(job.id, { queue: name, controller, release });
    try {
      return await Promise.race([handler(job, controller.signal).then(() => 'done' as const), released]);
    } finally {
      this.#running.delete(job.id);
    }
  }

  /** Registers how a worker that fetches its own jobs stops taking them; `stopGracefully` calls it first. */
  onStopTaking(stop: () => Promise<void>) {
    this.#stopTaking.add(stop);
  }

  /**
   * Stops taking jobs, lets running ones finish for up to `graceMs`, then
   * puts the rest back in the queue as not started: no retry is used up and
   * another instance takes them a moment later (their handlers here are told
   * to stop; every job is written to be safe to run again).
   */
  async stopGracefully(graceMs: number, logger: Logger) {
    await Promise.all([...[...this.#queues].map((name) => this.offWork(name)), ...[...this.#stopTaking].map((stop) => stop())]);
    const deadline = Date.now() + graceMs;
    while (this.#running.size && Date.now() < deadline) await delay(50);
    const unfinished = [...this.#running.entries()];
    if (unfinished.length) {
      const ids = unfinished.map(([id]) => id);
      // Not fetchable for two seconds: pg-boss's own completion of the released
      // handler (a no-op unless the job is active) runs before anyone can take it.
      await this.getDb().executeSql(
        `UPDATE "${this.schemaName}".job SET state = 'retry', started_on = NULL, start_after = now() + interval '2 seconds'
          WHERE id = ANY($1::uuid[]) AND state = 'active'`,
        [ids],
      );
      for (const [, job] of unfinished) {
        job.controller.abort(new Error('the instance is shutting down'));
        job.release();
      }
      logger.warn({ jobs: unfinished.map(([id, job]) => ({ id, queue: job.queue })) }, 'unfinished jobs returned to the queue');
    }
    await this.stop({ graceful: true, wait: true, timeout: 5_000 });
  }

  /** pg-boss's stop, waited for; then the queue's connections close (pg-boss leaves connections it was given open). */
  override async stop(options: PgBoss.StopOptions = {}) {
    await super.stop({ ...options, wait: true });
    if (options.close !== false && !this.pool.ending) await this.pool.end();
  }
}

export async function startJobQueue(databaseUrl: string, logger: Logger, schema = 'pgboss', maintenanceIntervalSeconds = 120): Promise<JobQueue> {
  // Maintenance also expires jobs whose worker died, which then go back to the queue for their retry.
  const pool = new ConnectionPool({ connectionString: databaseUrl, application_name: 'compliance-jobs', max: 4 });
  // A connection that fails while idle leaves the pool; the next query gets a new one.
  pool.on('error', (error) => logger.warn({ err: error }, 'idle job queue connection failed'));
  const boss = new JobQueue({ maintenanceIntervalSeconds }, schema, pool);
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  try {
    await boss.start();
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return boss;
}

/** A job that runs on a cron schedule on one instance at a time (singleton queue). */
export async function scheduleJob(queue: JobQueue, name: string, cron: string, work: () => Promise<unknown>) {
  await queue.createQueue(name, { name, policy: 'singleton' });
  await queue.schedule(name, cron);
  await queue.process(name, {}, async () => {
    await work();
  });
}
