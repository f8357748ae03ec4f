// The service keeps its configured lists in PostgreSQL: loaded by the queued
// refresh job at start, and reported (with failures) at GET /v1/watchlists.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotSources } from '../../src/screening/lists/sources.ts';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';

const DATASETS = fileURLToPath(new URL('../../../shared/datasets/sanctions/', import.meta.url));
const suffix = Date.now().toString(36);
let service: RunningService;
let rest: ReturnType<typeof restClient>;

beforeAll(async () => {
  const [, consolidated, un] = snapshotSources(DATASETS);
  const sources = [
    { ...consolidated!, id: `ofac-cons-${suffix}` },
    { ...un!, id: `un-${suffix}` },
    { id: `broken-${suffix}`, name: 'A list whose file is missing', format: 'ofac-csv', files: { primary: `${DATASETS}/no-such-file.csv` } },
  ];
  service = await startTestService({ env: { WATCHLIST_SOURCES: JSON.stringify(sources), WATCHLIST_REFRESH_CRON: 'off' } });
  const org = await createOrganization(service.db);
  rest = restClient(service.url, org.key);
});
afterAll(() => service.stop());

describe('GET /v1/watchlists', () => {
  it('shows each list\'s current version once the start-up refresh ran, and a failing source with its reason', async () => {
    let body: { data: Array<{ id: string; current: { entityCount: number } | null; lastAttempt: { status: string; error: string | null } | null }> };
    // The refresh loads real lists; a loaded CI machine running other suites can take minutes.
    const deadline = Date.now() + 150_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 500));
      body = (await rest('GET', '/v1/watchlists')).body;
    } while (body.data.some((list) => !list.lastAttempt) && Date.now() < deadline);
    const byId = Object.fromEntries(body.data.map((list) => [list.id, list]));
    // The attempts first: a failure then names its reason instead of only a missing version.
    expect(byId[`un-${suffix}`]?.lastAttempt).toMatchObject({ status: 'LOADED', error: null });
    expect(byId[`ofac-cons-${suffix}`]).toMatchObject({ format: 'ofac-csv', current: { status: 'LOADED', entityCount: 442 } });
    expect(byId[`un-${suffix}`]).toMatchObject({ current: { entityCount: 1003, publishedAt: '2026-02-27T00:00:09.554Z' } });
    expect(byId[`broken-${suffix}`]).toMatchObject({ current: null, lastAttempt: { status: 'FAILED' } });
    expect(byId[`broken-${suffix}`]!.lastAttempt!.error).toMatch(/no-such-file\.csv/);
    const graph = await graphqlClient(service.url, (await createOrganization(service.db)).key)('{ watchlists { id current { entityCount } } }');
    expect(graph.data.watchlists).toContainEqual({ id: `un-${suffix}`, current: { entityCount: 1003 } });
  }, 180_000);

  it('refuses a malformed WATCHLIST_SOURCES at start-up with a clear message', async () => {
    await expect(startTestService({ env: { WATCHLIST_SOURCES: '[{"id":"X"}]' } })).rejects.toThrow(/WATCHLIST_SOURCES/);
  });
});
