import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import { parseEuFsf } from './eu-fsf.ts';
import type { ListedEntity } from './listed-entity.ts';
import { parseOfac } from './ofac.ts';
import { parseSenzing } from './senzing.ts';
import { readLocation, type WatchlistSource } from './sources.ts';
import { parseUnList } from './un.ts';

export interface RefreshOutcome {
  sourceId: string;
  status: 'LOADED' | 'UNCHANGED' | 'FAILED';
  loadId: string;
  entityCount?: number;
  error?: string;
}

function parse(source: WatchlistSource, files: { primary: string; aliases?: string; addresses?: string }): { entities: ListedEntity[]; publishedAt: Date | null } {
  if (source.format === 'ofac-csv') return { entities: parseOfac(files), publishedAt: null };
  if (source.format === 'un-xml') {
    const list = parseUnList(files.primary);
    return { entities: list.entities, publishedAt: list.generatedAt ? new Date(list.generatedAt) : null };
  }
  if (source.format === 'eu-fsf-xml') {
    const list = parseEuFsf(files.primary);
    return { entities: list.entities, publishedAt: list.generatedAt ? new Date(list.generatedAt) : null };
  }
  return { entities: parseSenzing(files.primary), publishedAt: null };
}

const CHUNK = 2_000;

/**
 * One line per failed source, saying what screenings use instead: a warning
 * while an earlier version (e.g. a snapshot loaded offline) is still screened,
 * an error when the list has no version and is not screened at all.
 */
async function logFailure(db: Database, logger: Logger, sourceId: string, reason: string) {
  const current = await db.watchlistLoad.findFirst({ where: { sourceId, status: 'LOADED' }, orderBy: { finishedAt: 'desc' } });
  if (current) {
    const loadedAt = current.finishedAt.toISOString();
    logger.warn(
      { source: sourceId, reason, screening: { loadId: current.id, loadedAt, entities: current.entityCount } },
      `watchlist ${sourceId} not refreshed: ${reason}; still screening its version loaded ${loadedAt} (${current.entityCount} entries)`,
    );
  } else {
    logger.error({ source: sourceId, reason }, `watchlist ${sourceId} not loaded: ${reason}; it is not screened until a version loads`);
  }
}

/**
 * Reads a source, and when its content changed, stores it as a new version
 * in one transaction. A download or parse failure is recorded (FAILED, with
 * the reason) and the previous version stays current.
 */
export async function refreshSource(db: Database, source: WatchlistSource, logger: Logger): Promise<RefreshOutcome> {
  const startedAt = new Date();
  const fail = async (error: unknown) => {
    const message = (error as Error).message ?? String(error);
    const load = await db.watchlistLoad.create({ data: { sourceId: source.id, status: 'FAILED', error: message.slice(0, 2000), startedAt } });
    await logFailure(db, logger, source.id, message);
    return { sourceId: source.id, status: 'FAILED' as const, loadId: load.id, error: message };
  };

  let files: { primary: string; aliases?: string; addresses?: string };
  let contentHash: string;
  try {
    const locations = Object.entries(source.files).filter(([, location]) => location) as Array<[keyof typeof source.files, string]>;
    const contents = await Promise.all(locations.map(async ([role, location]) => [role, await readLocation(location, (source.timeoutSeconds ?? 60) * 1000)] as const));
    const hash = createHash('sha256');
    for (const [, content] of contents) hash.update(content);
    contentHash = hash.digest('hex');
    files = Object.fromEntries(contents.map(([role, content]) => [role, content.toString('utf8')])) as typeof files;
  } catch (error) {
    return fail(error);
  }

  const current = await db.watchlistLoad.findFirst({ where: { sourceId: source.id, status: 'LOADED' }, orderBy: { finishedAt: 'desc' } });
  if (current?.contentHash === contentHash) {
    const load = await db.watchlistLoad.create({ data: { sourceId: source.id, status: 'UNCHANGED', contentHash, startedAt } });
    return { sourceId: source.id, status: 'UNCHANGED', loadId: load.id };
  }

  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(source, files);
  } catch (error) {
    return fail(new Error(`malformed ${source.format} content: ${(error as Error).message}`));
  }

  const load = await db.$transaction(
    async (tx) => {
      const created = await tx.watchlistLoad.create({
        data: { sourceId: source.id, status: 'LOADED', contentHash, publishedAt: parsed.publishedAt, entityCount: parsed.entities.length, startedAt },
      });
      for (let i = 0; i < parsed.entities.length; i += CHUNK) {
        await tx.watchlistEntity.createMany({
          data: parsed.entities.slice(i, i + CHUNK).map((entity) => ({
            loadId: created.id,
            sourceId: source.id,
            externalId: entity.externalId,
            kind: entity.kind,
            names: entity.names as object[],
            birthDates: entity.birthDates,
            birthPlaces: entity.birthPlaces,
            nationalities: entity.nationalities,
            countries: entity.countries,
            addresses: entity.addresses,
            identifiers: entity.identifiers as object[],
            programs: entity.programs,
            topics: entity.topics,
            listedOn: entity.listedOn ?? null,
            remarks: entity.remarks ?? null,
          })),
          // A publisher's duplicate id within one file keeps its first entry.
          skipDuplicates: true,
        });
      }
      return created;
    },
    { timeout: 120_000 },
  );
  logger.info({ source: source.id, entities: parsed.entities.length, loadId: load.id }, 'watchlist version loaded');
  return { sourceId: source.id, status: 'LOADED', loadId: load.id, entityCount: parsed.entities.length };
}
