// Watchlists are stored in PostgreSQL as versions; a failed or malformed
// refresh is recorded and leaves the previous version current.
import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../src/db/client.ts';
import { refreshSource } from '../../src/screening/lists/list-loader.ts';
import { snapshotSources, type WatchlistSource } from '../../src/screening/lists/sources.ts';

const db = createDatabase(inject('databaseUrl'), 2);
const logger = pino({ level: 'silent' });
const DATASETS = fileURLToPath(new URL('../../../shared/datasets/sanctions/', import.meta.url));
let scratch: string;

/** The snapshot sources under ids of their own, so that test files do not share versions. */
const sources = () => snapshotSources(DATASETS).map((source) => ({ ...source, id: `${source.id}-${randomUUID().slice(0, 8)}` }));
const current = (sourceId: string) => db.watchlistLoad.findFirst({ where: { sourceId, status: 'LOADED' }, orderBy: { finishedAt: 'desc' } });

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'watchlists-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  await db.$disconnect();
});

describe('loading the real lists', () => {
  it('stores each list as a version with its hash, publication date and entities', async () => {
    const outcomes = [];
    for (const source of sources()) outcomes.push(await refreshSource(db, source, logger));
    expect(outcomes.map((o) => [o.status, o.entityCount])).toEqual([['LOADED', 8976], ['LOADED', 442], ['LOADED', 1003], ['LOADED', 1317]]);
    const un = await db.watchlistLoad.findUniqueOrThrow({ where: { id: outcomes[2]!.loadId } });
    expect(un.publishedAt?.toISOString()).toBe('2026-02-27T00:00:09.554Z');
    expect(un.contentHash).toMatch(/^[0-9a-f]{64}$/);
    const zawahiri = await db.watchlistEntity.findFirstOrThrow({ where: { loadId: outcomes[0]!.loadId, externalId: '2676' } });
    expect(zawahiri).toMatchObject({ kind: 'PERSON', birthDates: ['1951-06-19'], programs: ['SDGT'] });
    expect((zawahiri.names as Array<{ full: string }>)[0]!.full).toBe('Dr. Ayman AL ZAWAHIRI');
  }, 120_000);
});

describe('refreshing', () => {
  it('records an unchanged list without a new version', async () => {
    const [, consolidated] = sources();
    const first = await refreshSource(db, consolidated!, logger);
    const again = await refreshSource(db, consolidated!, logger);
    expect(again.status).toBe('UNCHANGED');
    expect((await current(consolidated!.id))?.id).toBe(first.loadId);
    expect(await db.watchlistEntity.count({ where: { sourceId: consolidated!.id } })).toBe(442);
  }, 60_000);

  it('keeps the previous version when a download is malformed or unreachable, and reports why', async () => {
    const [, , un] = sources();
    const good = await refreshSource(db, un!, logger);
    const broken = join(scratch, 'consolidated.xml');
    await writeFile(broken, '<html><body>Service temporarily unavailable</body></html>');
    const malformed = await refreshSource(db, { ...un!, files: { primary: broken } }, logger);
    expect(malformed).toMatchObject({ status: 'FAILED', error: 'malformed un-xml content: not a UN consolidated list: no CONSOLIDATED_LIST element' });
    const unreachable = await refreshSource(db, { ...un!, files: { primary: 'http://127.0.0.1:9/consolidated.xml' } }, logger);
    expect(unreachable.status).toBe('FAILED');
    expect(unreachable.error).toMatch(/fetch failed|ECONNREFUSED/);
    expect((await current(un!.id))?.id).toBe(good.loadId);
    expect(await db.watchlistEntity.count({ where: { sourceId: un!.id } })).toBe(1003);
    const failures = await db.watchlistLoad.findMany({ where: { sourceId: un!.id, status: 'FAILED' } });
    expect(failures).toHaveLength(2);
  }, 60_000);

  it('stores a changed list as a new current version and keeps the old one', async () => {
    const [, , , peps] = sources();
    const file = join(scratch, 'peps.json');
    await copyFile(peps!.files.primary, file);
    const source: WatchlistSource = { ...peps!, files: { primary: file } };
    const first = await refreshSource(db, source, logger);
    await writeFile(file, '{"RECORD_ID":"NEW-1","RECORD_TYPE":"PERSON","NAMES":[{"NAME_TYPE":"PRIMARY","NAME_FULL":"New Member"}],"RISKS":[{"TOPIC":"role.pep"}]}\n', { flag: 'a' });
    const second = await refreshSource(db, source, logger);
    expect(second).toMatchObject({ status: 'LOADED', entityCount: 1318 });
    expect((await current(source.id))?.id).toBe(second.loadId);
    expect(await db.watchlistEntity.count({ where: { loadId: first.loadId } })).toBe(1317);
  }, 60_000);
});
