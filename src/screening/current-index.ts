import type { Database } from '../db/client.ts';
import type { WatchlistEntity } from '../generated/prisma/client.ts';
import { entityFingerprint } from './entity-fingerprint.ts';
import type { ListedEntity, ListedIdentifier, ListedName } from './lists/listed-entity.ts';
import { type IndexedEntity, NameIndex } from './matching/name-index.ts';

export interface ListVersion {
  sourceId: string;
  loadId: string;
}

export type ListTopic = ListedEntity['topics'][number];

/** A list version as a screening records it: with what its entries are listed for, so that a "no PEP hits" can say whether a PEP list was searched at all. */
export interface ScreenedList extends ListVersion {
  topics: ListTopic[];
}

/** The matcher over one set of list versions, with each entity's fingerprint. */
export interface WatchlistIndex {
  versions: ScreenedList[];
  index: NameIndex;
  /** By watchlist_entities.id. */
  entities: Map<string, IndexedEntity & { fingerprint: string }>;
}

export function listedEntityOf(row: WatchlistEntity): ListedEntity {
  return {
    externalId: row.externalId,
    kind: row.kind as ListedEntity['kind'],
    names: row.names as unknown as ListedName[],
    birthDates: row.birthDates,
    birthPlaces: row.birthPlaces,
    nationalities: row.nationalities,
    countries: row.countries,
    addresses: row.addresses,
    identifiers: row.identifiers as unknown as ListedIdentifier[],
    programs: row.programs,
    topics: row.topics as ListedEntity['topics'],
    ...(row.listedOn ? { listedOn: row.listedOn } : {}),
    ...(row.remarks ? { remarks: row.remarks } : {}),
  };
}

/**
 * What a list version is a list of: the topics most of its entries carry. A
 * PEP list naming a few sanctioned politicians is not a sanctions list, and
 * must not turn "no sanctions hits" into a clean result.
 */
function listTopics(rows: WatchlistEntity[], versions: ListVersion[]): ScreenedList[] {
  const counts = new Map(versions.map((v) => [v.loadId, { entries: 0, topics: new Map<ListTopic, number>() }]));
  for (const row of rows) {
    const count = counts.get(row.loadId);
    if (!count) continue;
    count.entries++;
    for (const topic of row.topics as ListTopic[]) count.topics.set(topic, (count.topics.get(topic) ?? 0) + 1);
  }
  return versions.map((v) => {
    const { entries, topics } = counts.get(v.loadId)!;
    return { sourceId: v.sourceId, loadId: v.loadId, topics: [...topics].filter(([, n]) => 2 * n > entries).map(([topic]) => topic).sort() };
  });
}

export function indexOf(rows: WatchlistEntity[], versions: ListVersion[]): WatchlistIndex {
  const entities = new Map<string, IndexedEntity & { fingerprint: string }>();
  const entries: IndexedEntity[] = rows.map((row) => {
    const entity = listedEntityOf(row);
    const entry = { id: row.id, sourceId: row.sourceId, listVersion: row.loadId, entity };
    entities.set(row.id, { ...entry, fingerprint: entityFingerprint(entity) });
    return entry;
  });
  return { versions: listTopics(rows, versions), index: NameIndex.build(entries), entities };
}

/** The newest LOADED version of each source. */
export async function currentVersions(db: Database, sourceIds: readonly string[]): Promise<ListVersion[]> {
  if (sourceIds.length === 0) return [];
  const loads = await db.watchlistLoad.findMany({
    where: { sourceId: { in: [...sourceIds] }, status: 'LOADED' },
    distinct: ['sourceId'],
    orderBy: [{ sourceId: 'asc' }, { finishedAt: 'desc' }],
    select: { id: true, sourceId: true },
  });
  return loads.map((l) => ({ sourceId: l.sourceId, loadId: l.id }));
}

const sameVersions = (a: ListVersion[], b: ListVersion[]) =>
  a.length === b.length && a.every((v, i) => v.sourceId === b[i]!.sourceId && v.loadId === b[i]!.loadId);

/**
 * How long one check of the current versions serves screenings. A version
 * another process loaded is screened against at most this much later (each
 * screening records the versions it used); the re-screening job after a load
 * always checks afresh.
 */
export const VERSION_CHECK_MS = 1_000;

/**
 * Each instance keeps the matcher for the current list versions in memory,
 * derived from PostgreSQL: it asks which versions are current (one indexed
 * query, at most once per VERSION_CHECK_MS rather than per screening) and
 * rebuilds when another instance, or the refresh job, loaded a new one.
 */
export class CurrentIndex {
  private built: WatchlistIndex | null = null;
  private building: Promise<WatchlistIndex> | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<WatchlistIndex> | null = null;

  constructor(
    private readonly db: Database,
    private readonly sourceIds: () => readonly string[],
    private readonly checkEveryMs = VERSION_CHECK_MS,
  ) {}

  /** `fresh`: ask PostgreSQL now (a job that must see a load just made); else a check younger than checkEveryMs stands. */
  async get(options: { fresh?: boolean } = {}): Promise<WatchlistIndex> {
    if (!options.fresh && this.built && performance.now() - this.checkedAt < this.checkEveryMs) return this.built;
    if (options.fresh) return this.check();
    // Concurrent screenings share one check.
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async check(): Promise<WatchlistIndex> {
    const startedAt = performance.now();
    const versions = await currentVersions(this.db, this.sourceIds());
    // A check that started later has answered already: its versions are the newer ones.
    if (this.built && this.checkedAt > startedAt) return this.built;
    const index = await this.indexFor(versions);
    this.checkedAt = Math.max(this.checkedAt, startedAt);
    return index;
  }

  private async indexFor(versions: ListVersion[]): Promise<WatchlistIndex> {
    if (this.built && sameVersions(this.built.versions, versions)) return this.built;
    // One build at a time; concurrent screenings wait for it.
    if (!this.building) {
      this.building = this.load(versions).finally(() => {
        this.building = null;
      });
    }
    this.built = await this.building;
    return sameVersions(this.built.versions, versions) ? this.built : this.indexFor(versions);
  }

  private async load(versions: ListVersion[]): Promise<WatchlistIndex> {
    const rows = versions.length ? await this.db.watchlistEntity.findMany({ where: { loadId: { in: versions.map((v) => v.loadId) } } }) : [];
    return indexOf(rows, versions);
  }
}
