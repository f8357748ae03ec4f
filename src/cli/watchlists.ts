// Operator command: `npm run watchlists` refreshes every configured watchlist
// now (WATCHLIST_SOURCES; offline, point it at local files, e.g. the shared
// snapshots with `npm run watchlists -- --snapshots ../shared/datasets/sanctions`).
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createDatabase } from '../db/client.ts';
import { createLogger } from '../logger.ts';
import { startJobQueue } from '../jobs/queue.ts';
import { refreshSource, type RefreshOutcome } from '../screening/lists/list-loader.ts';
import { createRescreenQueue } from '../screening/rescreen.ts';
import { announceNewVersions } from '../screening/watchlist-service.ts';
import { snapshotSources } from '../screening/lists/sources.ts';
import { prepareDatabase } from '../service.ts';

async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { snapshots: { type: 'string' } } });
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const sources = values.snapshots ? snapshotSources(values.snapshots) : config.WATCHLIST_SOURCES;
  const { databaseUrl, stopEmbedded } = await prepareDatabase(config, logger);
  const db = createDatabase(databaseUrl, 2);
  let failed = false;
  const outcomes: RefreshOutcome[] = [];
  try {
    for (const source of sources) {
      const outcome = await refreshSource(db, source, logger);
      outcomes.push(outcome);
      failed ||= outcome.status === 'FAILED';
      console.log(`${source.id}\t${outcome.status}${outcome.entityCount !== undefined ? `\t${outcome.entityCount} entries` : ''}${outcome.error ? `\t${outcome.error}` : ''}`);
    }
    // Running services re-screen the cases against the new versions (the job waits in PostgreSQL until one takes it).
    if (outcomes.some((o) => o.status === 'LOADED')) {
      const queue = await startJobQueue(databaseUrl, logger, config.JOB_QUEUE_SCHEMA);
      await createRescreenQueue(queue);
      await announceNewVersions(queue, outcomes);
      await queue.stop({ graceful: true, wait: true });
    }
  } finally {
    await db.$disconnect();
    await stopEmbedded?.();
  }
  if (failed) process.exitCode = 1;
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
