import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { freePort } from './ports.ts';

/**
 * A PostgreSQL of the test file's own (it will be locked or paused, which
 * must not reach other files' services), with two clients: `locker` holds
 * locks, `watcher` looks at what waits (a transaction's view of
 * pg_stat_activity would not change).
 */
export async function lockablePostgres(label: string) {
  const dataDir = await mkdtemp(join(tmpdir(), `${label}-pg-`));
  const database = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
  const locker = new pg.Client({ connectionString: database.url });
  const watcher = new pg.Client({ connectionString: database.url });
  await Promise.all([locker.connect(), watcher.connect()]);
  return {
    url: database.url,
    dataDir,
    locker,
    watcher,
    /** Sessions waiting for a lock, other than `exceptPid`. */
    async waitingForLocks(exceptPid = 0) {
      const { rows } = await watcher.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> $1", [exceptPid],
      );
      return rows[0]!.count;
    },
    /** Ends the clients, then the server, then its files; for afterAll, after the service has stopped. */
    async stop() {
      await Promise.all([locker.end(), watcher.end()].map((ending) => ending.catch(() => {})));
      await database.stop().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
