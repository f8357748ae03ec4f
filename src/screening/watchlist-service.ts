import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { refreshSource, type RefreshOutcome } from './lists/list-loader.ts';
import { RESCREEN_QUEUE } from './rescreen.ts';
import type { WatchlistSource } from './lists/sources.ts';

const REFRESH_QUEUE = 'watchlist-refresh';

/**
 * Keeps the configured watchlists current: a scheduled pg-boss job (one run
 * at a time across instances) refreshes every source; a source never loaded
 * is refreshed at start.
 */
export class WatchlistService {
  private queue: JobQueue | null = null;

  constructor(
    private readonly options: { db: Database; logger: Logger; sources: WatchlistSource[]; cron: string | null },
  ) {}

  get sources(): readonly WatchlistSource[] {
    return this.options.sources;
  }

  async refreshAll(): Promise<RefreshOutcome[]> {
    const outcomes: RefreshOutcome[] = [];
    // One at a time: the lists are large and the database is shared with requests.
    for (const source of this.options.sources) outcomes.push(await refreshSource(this.options.db, source, this.options.logger));
    await announceNewVersions(this.queue, outcomes);
    return outcomes;
  }

  async attach(queue: JobQueue) {
    this.queue = queue;
    if (this.options.sources.length === 0) return;
    // At most one refresh queued and one running, across instances.
    await queue.createQueue(REFRESH_QUEUE, { name: REFRESH_QUEUE, policy: 'stately' });
    await queue.process(REFRESH_QUEUE, { pollingIntervalSeconds: 5 }, async () => {
      await this.refreshAll();
    });
    if (this.options.cron) await queue.schedule(REFRESH_QUEUE, this.options.cron);
    const loaded = await this.options.db.watchlistLoad.groupBy({ by: ['sourceId'], where: { status: 'LOADED' } });
    const missing = this.options.sources.filter((s) => !loaded.some((l) => l.sourceId === s.id));
    if (missing.length) await queue.send(REFRESH_QUEUE, {});
  }
}

/** New list versions re-screen the cases (src/screening/rescreen.ts), through the queue so any instance can do it. */
export async function announceNewVersions(queue: JobQueue | null, outcomes: RefreshOutcome[]) {
  const loads = outcomes.filter((o) => o.status === 'LOADED').map((o) => ({ sourceId: o.sourceId, loadId: o.loadId }));
  if (queue && loads.length) await queue.send(RESCREEN_QUEUE, { loads });
}
