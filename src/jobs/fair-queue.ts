import { setTimeout as delay } from 'node:timers/promises';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { JobQueue } from './queue.ts';

/**
 * Fair order across groups (organizations) for a pg-boss queue that every
 * instance works, in two parts:
 *
 * - `sendFair` gives each job a priority that puts it in round-robin order
 *   (start-time fair queuing): a group's next job ranks one below its
 *   last waiting one, and a group with nothing waiting joins at the rank
 *   being served now. pg-boss fetches by priority, so every instance takes
 *   jobs in that order: a group's backlog cannot hold back another group's
 *   single job by more than one round.
 * - `workFair` fetches a job only when this instance has a free slot, and
 *   never of a group that holds all the slots it may hold here, so that a
 *   job it takes starts at once rather than waiting behind that group.
 *
 * What stays per instance: the slots and each group's share of them.
 */

/** What a fairly worked queue needs of a job's data: the group it belongs to. */
export type GroupedJob = { [field: string]: unknown };

/** Sends a job in round-robin order among the groups (see above); `group` is the value of `data[groupField]`. */
export async function sendFair(
  queue: JobQueue,
  name: string,
  data: GroupedJob,
  groupField: string,
  options: Omit<PgBoss.SendOptions, 'priority'> = {},
): Promise<string | null> {
  // Read-only look at pg-boss's table: its API has no per-group view.
  const { rows } = await queue.getDb().executeSql(
    `SELECT COALESCE(
       (SELECT min(priority) - 1 FROM "${queue.schemaName}".job WHERE name = $1 AND state < 'active' AND data->>$2 = $3),
       (SELECT max(priority) FROM "${queue.schemaName}".job WHERE name = $1 AND state < 'active'),
       0) AS priority`,
    [name, groupField, String(data[groupField])],
  );
  return queue.send(name, data, { ...options, priority: Number(rows[0].priority) });
}

/** The slots a fair worker fills (src/analysis/fair-slots.ts). */
export interface Slots {
  readonly free: number;
  groupsAtLimit(): string[];
  acquire(group: string): Promise<() => void>;
  onRelease(listener: () => void): () => void;
}

export interface FairWorkOptions {
  groupField: string;
  slots: Slots;
  pollingIntervalMs: number;
  logger: Logger;
}

export interface FairWorker {
  /** Looks for a job now (a job was just sent from this instance). */
  notify(): void;
}

type FetchedJob<T> = PgBoss.JobWithMetadata<T>;

/**
 * Works queue `name` into `slots`: takes the next job (priority order) of a
 * group not at its limit whenever a slot is free, and runs the handler in
 * that slot. Completion and failure (with pg-boss's retries) as pg-boss's
 * own workers do; a shutdown hands running jobs back (JobQueue.stopGracefully).
 */
export function workFair<T extends GroupedJob>(
  queue: JobQueue,
  name: string,
  options: FairWorkOptions,
  handler: (job: FetchedJob<T>, signal: AbortSignal) => Promise<void>,
): FairWorker {
  let stopped = false;
  let wake: (() => void) | undefined;
  const notify = () => wake?.();
  const unsubscribe = options.slots.onRelease(notify);

  async function pause() {
    const controller = new AbortController();
    await new Promise<void>((resolve) => {
      wake = resolve;
      delay(options.pollingIntervalMs, undefined, { signal: controller.signal }).then(resolve, () => {});
    });
    controller.abort();
    wake = undefined;
  }

  async function run(job: FetchedJob<T>) {
    const release = await options.slots.acquire(String(job.data[options.groupField]));
    try {
      const outcome = await queue.runTracked(name, job, handler);
      if (outcome === 'done') await queue.complete(name, job.id);
    } catch (error) {
      await queue.fail(name, job.id, { message: (error as Error)?.message ?? String(error) }).catch((failure) =>
        options.logger.error({ err: failure, jobId: job.id }, 'could not record a failed job'));
    } finally {
      release();
    }
  }

  const loop = (async () => {
    while (!stopped) {
      if (options.slots.free <= 0) {
        await pause();
        continue;
      }
      let job: FetchedJob<T> | null = null;
      try {
        job = await fetchExcept<T>(queue, name, options.groupField, options.slots.groupsAtLimit());
      } catch (error) {
        if (!stopped) options.logger.error({ err: error, queue: name }, 'could not fetch a job');
      }
      if (job && !stopped) void run(job);
      else await pause();
    }
  })();

  queue.onStopTaking(async () => {
    stopped = true;
    unsubscribe();
    notify();
    await loop;
  });
  return { notify };
}

/** pg-boss's fetch (10.x, `fetchNextJob`) of one job, leaving out jobs whose `groupField` is one of `excluded`. */
async function fetchExcept<T>(queue: JobQueue, name: string, groupField: string, excluded: string[]): Promise<FetchedJob<T> | null> {
  const schema = `"${queue.schemaName}"`;
  const { rows } = await queue.getDb().executeSql(
    `WITH next AS (
       SELECT id FROM ${schema}.job
        WHERE name = $1 AND state < 'active' AND start_after < now()
          AND NOT (COALESCE(data->>$2, '') = ANY($3::text[]))
        ORDER BY priority DESC, created_on, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED
     )
     UPDATE ${schema}.job j SET
       state = 'active',
       started_on = now(),
       retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
       FROM next
      WHERE j.name = $1 AND j.id = next.id
     RETURNING j.id, j.name, j.data, j.priority, j.state, j.retry_limit AS "retryLimit", j.retry_count AS "retryCount",
       j.retry_delay AS "retryDelay", j.retry_backoff AS "retryBackoff", j.start_after AS "startAfter", j.started_on AS "startedOn",
       j.singleton_key AS "singletonKey", j.singleton_on AS "singletonOn", j.expire_in AS "expireIn",
       EXTRACT(epoch FROM j.expire_in) AS "expireInSeconds", j.created_on AS "createdOn", j.completed_on AS "completedOn",
       j.keep_until AS "keepUntil", j.dead_letter AS "deadLetter", j.policy, j.output`,
    [name, groupField, excluded],
  );
  return (rows[0] as FetchedJob<T> | undefined) ?? null;
}
