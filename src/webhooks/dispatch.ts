import type PgBoss from 'pg-boss';
import type { Database } from '../db/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import type { JobQueue } from '../jobs/queue.ts';

export const DELIVERY_QUEUE = 'webhook-delivery';

/** Attempts handed to the job queue per dispatch, across organizations. */
const DISPATCH_BATCH = 200;
/** Dispatchers take turns across instances (pg_try_advisory_xact_lock): two at once could pass an organization's cap. */
const DISPATCH_LOCK = 0x7a5c_0002;

export interface DeliveryJob {
  deliveryId: string;
  /** The group the workers share their slots by (src/jobs/fair-queue.ts). */
  organizationId: string;
}

export interface DispatchSettings {
  retryDelaySeconds: number;
  timeoutMs: number;
  /**
   * Attempts one organization may have queued or running at once, across all
   * instances (WEBHOOK_MAX_IN_FLIGHT_PER_ORGANIZATION). A backlog (a failing
   * endpoint's retries, a burst of events) waits in webhook_deliveries, not in
   * the job queue, so it cannot stand in front of another organization's deliveries.
   */
  maxInFlightPerOrganization: number;
}

/** pg-boss's statements through a Prisma transaction, so that jobs are queued in the same transaction as the deliveries are marked. */
function jobQueueThrough(tx: Prisma.TransactionClient): PgBoss.Db {
  return { executeSql: async (text, values) => ({ rows: await tx.$queryRawUnsafe(text, ...(values ?? []).map((value: unknown) => value ?? null)) }) };
}

/**
 * Hands due attempts to the job queue, fairly: round-robin across
 * organizations, each with at most maxInFlightPerOrganization attempts queued
 * or running. A job's priority is its organization's turn (its first attempt
 * queued now beats another organization's fourth), and the workers never let
 * one organization fill their slots (attachWebhooks), so an organization with
 * nothing in flight starts its attempt within about one dispatch interval,
 * however large another's backlog and however long its receivers hang.
 * All state is in PostgreSQL (one transaction: marked deliveries and their
 * jobs commit together), so any number of instances dispatch and work alike.
 * Also cancels, in one statement, queued jobs whose delivery is no longer
 * pending (its endpoint was disabled or deleted).
 */
export async function dispatchDeliveries(queue: JobQueue, db: Database, settings: DispatchSettings): Promise<number> {
  return db.$transaction(async (tx) => {
    const [turn] = await tx.$queryRaw<Array<{ ours: boolean }>>`SELECT pg_try_advisory_xact_lock(${DISPATCH_LOCK}::bigint) AS ours`;
    if (!turn?.ours) return 0;
    const through = jobQueueThrough(tx);
    // Across organizations by design (the platform's own work): only ids leave these queries.
    const orphans = await tx.$queryRawUnsafe<Array<{ id: string }>>(
      `SELECT j.id::text FROM "${queue.schemaName}".job j
        WHERE j.name = $1 AND j.state < 'active'
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.job_id = j.id AND d.status = 'PENDING')`,
      DELIVERY_QUEUE,
    );
    if (orphans.length) await queue.cancel(DELIVERY_QUEUE, orphans.map(({ id }) => id), { db: through });

    const picked = await tx.$queryRaw<Array<{ id: string; job_id: string; organization_id: string; turn: number }>>`
      WITH queued AS (
        SELECT organization_id, count(*)::int AS n FROM webhook_deliveries
        WHERE status = 'PENDING' AND enqueued_at IS NOT NULL GROUP BY organization_id
      ), waiting AS (
        SELECT DISTINCT organization_id FROM webhook_deliveries
        WHERE status = 'PENDING' AND enqueued_at IS NULL AND next_attempt_at <= now()
      ), picked AS (
        SELECT due.id, COALESCE(q.n, 0) + due.rank AS turn, due.next_attempt_at
        FROM waiting w
        LEFT JOIN queued q ON q.organization_id = w.organization_id
        CROSS JOIN LATERAL (
          SELECT d.id, d.next_attempt_at, row_number() OVER (ORDER BY d.next_attempt_at, d.id) AS rank
          FROM webhook_deliveries d
          WHERE d.organization_id = w.organization_id AND d.status = 'PENDING' AND d.enqueued_at IS NULL AND d.next_attempt_at <= now()
          ORDER BY d.next_attempt_at, d.id
          LIMIT GREATEST(${settings.maxInFlightPerOrganization} - COALESCE(q.n, 0), 0)
        ) due
        ORDER BY turn, due.next_attempt_at
        LIMIT ${DISPATCH_BATCH}
      )
      UPDATE webhook_deliveries d SET enqueued_at = now(), job_id = gen_random_uuid()
      FROM picked p
      WHERE d.id = p.id AND d.status = 'PENDING' AND d.enqueued_at IS NULL
      RETURNING d.id::text, d.job_id::text, d.organization_id::text, p.turn::int AS turn`;
    if (!picked.length) return 0;
    await queue.insert(picked.map(({ id, job_id: jobId, organization_id: organizationId, turn }) => ({
      id: jobId, name: DELIVERY_QUEUE, data: { deliveryId: id, organizationId } satisfies DeliveryJob,
      priority: settings.maxInFlightPerOrganization - turn,
      // One attempt per job: the worker schedules the next itself (next_attempt_at). The queue
      // retries only a job whose worker failed or died mid-attempt (expired), sending it again.
      retryLimit: 2, retryDelay: settings.retryDelaySeconds, retryBackoff: true,
      expireInSeconds: Math.ceil(settings.timeoutMs / 1000) + 50,
    })), { db: through });
    return picked.length;
  }, { timeout: 30_000 });
}
