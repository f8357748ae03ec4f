// The service keeps its configured lists in PostgreSQL: loaded by the queued
// refresh job at start, and reported (with failures) at GET /v1/watchlists.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_WATCHLIST_SOURCES, snapshotSources, type WatchlistSource } from '../../src/screening/lists/sources.ts';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { capturedLogs } from '../helpers/logs.ts';
import { freePort } from '../helpers/ports.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';

const run = promisify(execFile);

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

describe('offline: the shared snapshots stand in for the default lists', () => {
  let offline: RunningService;
  let logs: ReturnType<typeof capturedLogs>;
  let lists: Server;
  let refused = '';
  let local = '';
  let cliOutput = '';
  // The command's re-screening job waits in a queue no service works: it must not re-screen other tests' cases.
  const watchlistsCommand = (env: Record<string, string> = {}) =>
    run('npx', ['tsx', 'src/cli/watchlists.ts', '--snapshots', DATASETS], {
      env: { ...process.env, DATABASE_URL: inject('databaseUrl'), LOG_LEVEL: 'silent', JOB_QUEUE_SCHEMA: `jobs_watchlists_cli_${suffix}`, WATCHLIST_SOURCES: '', ...env },
    });

  beforeAll(async () => {
    // As an operator would: the default configuration, then the snapshots.
    cliOutput = (await watchlistsCommand()).stdout;
    // The default lists by their ids, at addresses that fail the ways offline downloads do.
    lists = createServer((request, response) => {
      if (request.url === '/busy') response.writeHead(503).end();
    });
    lists.listen(0, '127.0.0.1');
    await once(lists, 'listening');
    local = `http://127.0.0.1:${(lists.address() as AddressInfo).port}`;
    refused = `http://127.0.0.1:${await freePort()}`;
    const at: Record<string, Partial<WatchlistSource>> = {
      'ofac-sdn': { files: { primary: `${refused}/sdn.csv`, aliases: `${refused}/alt.csv`, addresses: `${refused}/add.csv` } },
      'ofac-consolidated': { files: { primary: 'http://lists.invalid/cons_prim.csv' } },
      'un-consolidated': { files: { primary: `${local}/busy` } },
      'eu-fsf': { files: { primary: `${refused}/eu.xml` } },
      'opensanctions-peps': { files: { primary: `${local}/silent` }, timeoutSeconds: 1 },
    };
    const sources = DEFAULT_WATCHLIST_SOURCES.map((source) => ({ ...source, ...at[source.id] }));
    logs = capturedLogs();
    offline = await startTestService({ logger: logs.logger, env: { WATCHLIST_SOURCES: JSON.stringify(sources), WATCHLIST_REFRESH_CRON: 'off', ADVERSE_MEDIA_PROVIDER: 'off' } });
  }, 180_000);
  afterAll(async () => {
    await offline?.stop();
    lists?.closeAllConnections();
    lists?.close();
  });

  it('npm run watchlists -- --snapshots loads every snapshot under a list the service screens, and says what it screens', async () => {
    expect(cliOutput).toContain('ofac-sdn\tLOADED\t8976 entries\n');
    expect(cliOutput).toContain('opensanctions-peps\tLOADED\t1317 entries\n');
    expect(cliOutput).not.toContain('NOT SCREENED');
    expect(cliOutput).toContain(
      'Screened by the service (WATCHLIST_SOURCES): ofac-consolidated (442 entries), ofac-sdn (8976 entries), opensanctions-peps (1317 entries), un-consolidated (1003 entries)\n'
      + 'Configured but never loaded, so not screened: eu-fsf\n',
    );
    // Configured without the PEP list, the command says it will not be screened, and why.
    const sanctionsOnly = JSON.stringify(DEFAULT_WATCHLIST_SOURCES.filter((source) => source.id !== 'opensanctions-peps'));
    const { stdout } = await watchlistsCommand({ WATCHLIST_SOURCES: sanctionsOnly });
    expect(stdout).toContain('opensanctions-peps\tUNCHANGED\tNOT SCREENED: not in WATCHLIST_SOURCES\n');
    expect(stdout).toContain('Loaded but not screened: opensanctions-peps: the service screens only the lists of WATCHLIST_SOURCES; add them there (same id) to screen them');
  }, 60_000);

  it('logs one line per failed download with its address and cause, a warning while a version is still screened', async () => {
    const failures = await waitFor(async () => {
      const lines: Array<{ level: number; msg: string; source: string }> = logs.lines.map((line) => JSON.parse(line)).filter((line) => line.reason && line.source);
      return lines.length >= 5 ? lines : null;
    }, 'the start-up refresh');
    const of = (source: string) => failures.filter((line) => line.source === source);
    const still = (entries: number) => `; still screening its version loaded \\S+ \\(${entries} entries\\)$`;
    expect(of('ofac-sdn')).toEqual([expect.objectContaining({ level: 40, msg: expect.stringMatching(new RegExp(`^watchlist ofac-sdn not refreshed: ${refused}/(sdn|alt|add)\\.csv: ECONNREFUSED.*${still(8976)}`)) })]);
    expect(of('ofac-consolidated')[0]).toMatchObject({ level: 40, msg: expect.stringMatching(new RegExp(`^watchlist ofac-consolidated not refreshed: http://lists\\.invalid/cons_prim\\.csv: (ENOTFOUND|EAI_AGAIN) .*${still(442)}`)) });
    expect(of('un-consolidated')[0]).toMatchObject({ level: 40, msg: expect.stringMatching(new RegExp(`^watchlist un-consolidated not refreshed: ${local}/busy: HTTP 503 Service Unavailable${still(1003)}`)) });
    expect(of('opensanctions-peps')[0]).toMatchObject({ level: 40, msg: expect.stringMatching(new RegExp(`^watchlist opensanctions-peps not refreshed: ${local}/silent: timeout: no complete answer within 1 s${still(1317)}`)) });
    expect(of('eu-fsf')).toEqual([expect.objectContaining({ level: 50, msg: `watchlist eu-fsf not loaded: ${refused}/eu.xml: ECONNREFUSED (connect ECONNREFUSED ${refused.slice(7)}); it is not screened until a version loads` })]);
  }, 60_000);

  it('screens and shows the snapshot PEP list, and the risk assessment names the lists it rests on', async () => {
    const rest = restClient(offline.url, (await createOrganization(offline.db)).key);
    const shown = (await rest('GET', '/v1/watchlists')).body.data;
    expect(shown.find((list: any) => list.id === 'opensanctions-peps')).toMatchObject({ current: { status: 'LOADED', entityCount: 1317 } });
    // The file's first person.
    const pep = (await rest('POST', '/v1/screenings', { name: 'Jennifer L. McClellan', kind: 'PERSON' })).body;
    expect(pep.hits[0]).toMatchObject({ sourceId: 'opensanctions-peps', externalId: 'NK-AQ4HymsADSK2D63MkyTqfC', topics: ['pep'] });
    expect(pep.listVersions.map((v: any) => v.sourceId)).toEqual(['ofac-consolidated', 'ofac-sdn', 'opensanctions-peps', 'un-consolidated']);

    const id = (await rest('POST', '/v1/consumer-cases', { email: `oq-${suffix}@example.com`, firstName: 'Ottoline', lastName: 'Quennell', nationality: 'DE' })).body.id;
    expect((await rest('POST', `/v1/consumer-cases/${id}/screenings`, {})).body.screenings[0].outcome).toBe('NO_HITS');
    const factors = (await rest('GET', `/v1/consumer-cases/${id}/risk-assessment`)).body.factors;
    expect(factors.find((f: any) => f.key === 'pep')).toMatchObject({ assessed: true, explanation: 'screened against opensanctions-peps: no PEP hits' });
    expect(factors.find((f: any) => f.key === 'sanctions')).toMatchObject({ assessed: true, explanation: 'screened against ofac-consolidated, ofac-sdn, un-consolidated: no sanctions hits' });
  }, 60_000);

  it('says "not screened" for PEPs when the service screens sanctions lists only, never "no PEP hits"', async () => {
    const sanctionsOnly = await startTestService({
      env: { WATCHLIST_SOURCES: JSON.stringify([{ id: 'ofac-sdn', name: 'OFAC SDN', format: 'ofac-csv', files: { primary: `${refused}/sdn.csv` } }]), WATCHLIST_REFRESH_CRON: 'off' },
    });
    try {
      const rest = restClient(sanctionsOnly.url, (await createOrganization(sanctionsOnly.db)).key);
      const id = (await rest('POST', '/v1/consumer-cases', { email: `oq2-${suffix}@example.com`, firstName: 'Ottoline', lastName: 'Quennell', nationality: 'DE' })).body.id;
      expect((await rest('POST', `/v1/consumer-cases/${id}/screenings`, {})).body.screenings[0].listVersions.map((v: any) => v.sourceId)).toEqual(['ofac-sdn']);
      const assessment = (await rest('GET', `/v1/consumer-cases/${id}/risk-assessment`)).body;
      expect(assessment.factors.find((f: any) => f.key === 'pep')).toMatchObject({
        assessed: false, explanation: 'not assessed: PEP not screened: no PEP list among the lists searched (ofac-sdn)',
      });
      expect(assessment.notAssessed).toContain('pep');
      expect(assessment.level).not.toBe('LOW');
    } finally {
      await sanctionsOnly.stop();
    }
  }, 60_000);
});
