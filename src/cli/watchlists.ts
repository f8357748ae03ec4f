// Operator command: `npm run watchlists` refreshes every configured watchlist
// now (WATCHLIST_SOURCES; offline, point it at local files, e.g. the shared
// snapshots with `npm run watchlists -- --snapshots ../shared/datasets/sanctions`).
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createDatabase, type Database } from '../db/client.ts';
import { createLogger } from '../logger.ts';
import { startJobQueue } from '../jobs/queue.ts';
import { refreshSource, type RefreshOutcome } from '../screening/lists/list-loader.ts';
import { createRescreenQueue } from '../screening/rescreen.ts';
import { announceNewVersions } from '../screening/watchlist-service.ts';
import { currentVersions } from '../screening/current-index.ts';
import { snapshotSources, type WatchlistSource } from '../screening/lists/sources.ts';
import { prepareDatabase } from '../service.ts';

/** What a service with this configuration screens now, and what it does not. */
async function screeningSummary(db: Database, configured: string[], loaded: WatchlistSource[]) {
  const current = await currentVersions(db, configured);
  const counts = await db.watchlistLoad.findMany({ where: { id: { in: current.map((v) => v.loadId) } }, select: { sourceId: true, entityCount: true }, orderBy: { sourceId: 'asc' } });
  const lines = [`Screened by the service (WATCHLIST_SOURCES): ${counts.map((c) => `${c.sourceId} (${c.entityCount} entries)`).join(', ') || 'nothing'}`];
  const neverLoaded = configured.filter((id) => !current.some((v) => v.sourceId === id));
  if (neverLoaded.length) lines.push(`Configured but never loaded, so not screened: ${neverLoaded.join(', ')}`);
  const unconfigured = loaded.filter((source) => !configured.includes(source.id)).map((source) => source.id);
  if (unconfigured.length) {
    lines.push(`Loaded but not screened: ${unconfigured.join(', ')}: the service screens only the lists of WATCHLIST_SOURCES; add them there (same id) to screen them`);
  }
  return lines.join('\n');
}

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
    // The service screens the lists of its configuration (WATCHLIST_SOURCES) only: say so for any other.
    const screened = new Set(config.WATCHLIST_SOURCES.map((source) => source.id));
    for (const source of sources) {
      const outcome = await refreshSource(db, source, logger);
      outcomes.push(outcome);
      failed ||= outcome.status === 'FAILED';
      const notScreened = screened.has(source.id) ? '' : '\tNOT SCREENED: not in WATCHLIST_SOURCES';
      console.log(`${source.id}\t${outcome.status}${outcome.entityCount !== undefined ? `\t${outcome.entityCount} entries` : ''}${outcome.error ? `\t${outcome.error}` : ''}${notScreened}`);
    }
    console.log(await screeningSummary(db, config.WATCHLIST_SOURCES.map((source) => source.id), sources));
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
