import { builder } from '../builder.ts';
import type { WatchlistLoad } from '../generated/prisma/client.ts';
import type { WatchlistSource } from '../screening/lists/sources.ts';

interface WatchlistView {
  source: WatchlistSource;
  current: WatchlistLoad | null;
  lastAttempt: WatchlistLoad | null;
}

const WatchlistLoadRef = builder.objectRef<WatchlistLoad>('WatchlistLoad').implement({
  description: 'One refresh of a list: a new version (LOADED), no change (UNCHANGED), or a failure with its reason.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'For LOADED, the list version that screening hits name.' }),
    status: t.exposeString('status'),
    contentHash: t.exposeString('contentHash', { nullable: true, description: 'SHA-256 over the source\'s files.' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true, description: 'When the publisher generated the list, if its format says.' }),
    entityCount: t.exposeInt('entityCount', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime' }),
  }),
});

const Watchlist = builder.objectRef<WatchlistView>('Watchlist').implement({
  description: 'A configured sanctions or PEP list, its current version and its latest refresh.',
  fields: (t) => ({
    id: t.string({ resolve: (w) => w.source.id }),
    name: t.string({ resolve: (w) => w.source.name }),
    format: t.string({ resolve: (w) => w.source.format }),
    current: t.field({ type: WatchlistLoadRef, nullable: true, resolve: (w) => w.current, description: 'Null until a version loaded.' }),
    lastAttempt: t.field({ type: WatchlistLoadRef, nullable: true, resolve: (w) => w.lastAttempt }),
  }),
});

builder.queryFields((t) => ({
  watchlists: t.field({
    type: [Watchlist],
    description: 'The configured watchlists with their current versions; a failed refresh shows here with its reason.',
    authScopes: { permission: 'screening:read' },
    resolve: async (_root, _args, { db, watchlists }) =>
      Promise.all(
        watchlists.sources.map(async (source) => ({
          source,
          current: await db.watchlistLoad.findFirst({ where: { sourceId: source.id, status: 'LOADED' }, orderBy: { finishedAt: 'desc' } }),
          lastAttempt: await db.watchlistLoad.findFirst({ where: { sourceId: source.id }, orderBy: { finishedAt: 'desc' } }),
        })),
      ),
  }),
}));
