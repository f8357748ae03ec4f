import type { Database } from '../db/client.ts';

const SWEEP_ACTOR = 'Overdue tasks sweep';
/** Sweeps take turns (pg_advisory_xact_lock): two at once would both find a task without its event and emit it twice. */
const SWEEP_LOCK = 0x7a5c_0001;

/**
 * Emits task.overdue for open tasks past their due date, once per task and due
 * date (a new due date that passes gives a new event). Runs as a singleton
 * scheduled job; the lock also keeps a sweep run by hand from overlapping it.
 */
export async function emitOverdueTasks(db: Database, now = new Date()) {
  const [, , emitted] = await db.$transaction([
    db.$executeRaw`SELECT pg_advisory_xact_lock(${SWEEP_LOCK}::bigint)`,
    db.$executeRaw`SELECT set_config('app.actor', ${SWEEP_ACTOR}, TRUE)`,
    db.$executeRaw`
      SELECT emit_event(t.organization_id, 'task.overdue', 'task', t.id::text,
        jsonb_build_object('id', t.id, 'status', t.status, 'dueDate', t.due_date))
      FROM tasks t
      WHERE t.status IN ('TODO', 'IN_PROGRESS', 'BLOCKED') AND t.due_date < ${now}
        AND NOT EXISTS (
          SELECT 1 FROM events e
          WHERE e.organization_id = t.organization_id AND e.resource_id = t.id::text AND e.type = 'task.overdue'
            AND (e.data->>'dueDate')::timestamptz = t.due_date
        )`,
  ]);
  return emitted;
}
