import type { Database } from '../../src/db/client.ts';
import { waitFor } from './wait.ts';

/**
 * Waits until the event feed shows every transaction that committed before
 * this call. The feed holds back events behind the oldest running transaction
 * in the cluster (src/schema/event.ts), and other test files run their own
 * transactions beside this one, so a test that reads the feed right after a
 * write waits for this first.
 */
export async function feedCaughtUp(db: Database) {
  // A new transaction id: every transaction that committed before now has a smaller one.
  const [marker] = await db.$queryRaw<Array<{ xid: string }>>`SELECT pg_current_xact_id()::text AS xid`;
  await waitFor(async () => {
    const [row] = await db.$queryRaw<Array<{ passed: boolean }>>`
      SELECT pg_snapshot_xmin(pg_current_snapshot()) > ${marker!.xid}::xid8 AS passed`;
    return row!.passed;
  }, 'the event feed to catch up', 30_000, 50);
}
