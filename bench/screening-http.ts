// What a screening costs the service over HTTP: `POST /v1/screenings` against
// the service as `npm start` runs it (its own process), with the shared list
// snapshots loaded, one request at a time. The service process's CPU time
// (/proc, like bench/load.ts) divided by the requests: for names with no hit,
// and for names with hits, whose difference per stored hit is the cost of a hit.
import { randomUUID } from 'node:crypto';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { displayPrefix, generateApiKey, hashApiKey } from '../src/auth/api-keys.ts';
import { ALL_PERMISSIONS } from '../src/auth/permissions.ts';
import { createDatabase } from '../src/db/client.ts';
import { createLogger } from '../src/logger.ts';
import { refreshSource } from '../src/screening/lists/list-loader.ts';
import { snapshotSources } from '../src/screening/lists/sources.ts';
import { type BenchProcess, cpuSeconds, startBenchDatabase, startServiceProcess } from './processes.ts';

const DATASETS = fileURLToPath(new URL('../../shared/datasets/sanctions/', import.meta.url));

// Unlisted names (checked: any that hits is left out of the no-hit phase) and names with several hits each.
const GIVEN = ['Zebulon', 'Ottoline', 'Marigold', 'Thaddeus', 'Ophira', 'Ludovica', 'Percival', 'Wilhelmina', 'Eustace', 'Philippa', 'Alaric', 'Rosamund'];
const FAMILY = ['Quartermaine', 'Fairweather', 'Blackwood', 'Sunderland', 'Applethwaite', 'Honeyborne', 'Marchbanks', 'Wintersmith', 'Oakenshield', 'Pemberton'];
const HIT_NAMES = ['Mohammed Ali', 'Ali Hassan', 'Abdul Rahman', 'Ahmad Khan', 'Muhammad Hussain', 'Ibrahim Ahmed', 'Ali Ahmad', 'Hassan Ali'];

export interface PhaseFigures {
  requests: number;
  /** Service CPU (user + system) per request. */
  cpuMs: number;
  p50Ms: number;
  p99Ms: number;
  hitsPerRequest: number;
}

export interface ScreeningHttpResult {
  database: string;
  entities: number;
  warmup: number;
  noHit: PhaseFigures;
  withHits: PhaseFigures;
  /** Service CPU per stored hit: (with hits − no hit) / hits per request. */
  perHitMs: number;
  /** An authenticated read of one row (GET /v1/screening-settings): what any request costs before its own work. */
  baseline: PhaseFigures;
  loadBefore: number;
  loadAfter: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function phase(app: BenchProcess, count: number, send: (i: number) => Promise<number>): Promise<PhaseFigures> {
  const times: number[] = [];
  let hits = 0;
  const before = await cpuSeconds(app.pid);
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    hits += await send(i);
    times.push(performance.now() - started);
  }
  const cpu = (await cpuSeconds(app.pid)) - before;
  times.sort((a, b) => a - b);
  return { requests: count, cpuMs: (1000 * cpu) / count, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99), hitsPerRequest: hits / count };
}

export async function runScreeningHttpBench(options = { requests: 2000, hitRequests: 600, warmup: 600 }): Promise<ScreeningHttpResult> {
  const work = await mkdtemp(join(tmpdir(), 'bench-screening-http-'));
  const cleanups: Array<() => Promise<unknown>> = [];
  let app: BenchProcess | undefined;
  try {
    const pg = await startBenchDatabase();
    cleanups.push(() => pg.stop());
    const db = createDatabase(pg.url, 2);
    cleanups.push(() => db.$disconnect());
    const sources = snapshotSources(DATASETS);
    const logger = createLogger('warn');
    let entities = 0;
    for (const source of sources) {
      const outcome = await refreshSource(db, source, logger);
      if (outcome.status !== 'LOADED') throw new Error(`${source.id}: ${outcome.status} ${outcome.error ?? ''}`);
      entities += outcome.entityCount ?? 0;
    }
    const organization = await db.organization.create({ data: { name: `screening-http-${randomUUID()}` } });
    const key = generateApiKey();
    await db.apiKey.create({ data: { organizationId: organization.id, prefix: displayPrefix(key), hash: hashApiKey(key), permissions: [...ALL_PERMISSIONS], label: 'screening bench' } });

    // The lists are loaded already, so the service starts without a refresh.
    app = await startServiceProcess(pg.url, work, {
      LOG_LEVEL: 'warn', WATCHLIST_SOURCES: JSON.stringify(sources),
      RATE_LIMIT_PER_KEY: '1000000000', RATE_LIMIT_PER_ORGANIZATION: '1000000000',
    });
    const base = app.base;
    const screen = async (name: string) => {
      const response = await fetch(`${base}/v1/screenings`, {
        method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ name, kind: 'PERSON' }),
      });
      const body = (await response.json()) as { hitCount?: number };
      if (response.status !== 201) throw new Error(`POST /v1/screenings ${name}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
      return body.hitCount!;
    };

    // Warm-up (the first screening builds the index; the JIT settles): every name once, then more.
    const candidates = GIVEN.flatMap((given) => FAMILY.map((family) => `${given} ${family}`));
    const unlisted: string[] = [];
    for (const name of candidates) if ((await screen(name)) === 0) unlisted.push(name);
    const hitting: string[] = [];
    for (const name of HIT_NAMES) if ((await screen(name)) > 0) hitting.push(name);
    if (hitting.length < 2 || unlisted.length < 20) throw new Error(`too few names: ${hitting.length} with hits, ${unlisted.length} without`);
    for (let i = 0; i < options.warmup; i++) await screen(i % 3 ? unlisted[i % unlisted.length]! : hitting[i % hitting.length]!);

    const loadBefore = loadavg()[0]!;
    const noHit = await phase(app, options.requests, async (i) => {
      const hits = await screen(unlisted[i % unlisted.length]!);
      if (hits) throw new Error(`${unlisted[i % unlisted.length]} hit ${hits} entries in the no-hit phase`);
      return 0;
    });
    const withHits = await phase(app, options.hitRequests, (i) => screen(hitting[i % hitting.length]!));
    const baseline = await phase(app, options.requests, async () => {
      const response = await fetch(`${base}/v1/screening-settings`, { headers: { 'x-api-key': key } });
      await response.text();
      if (!response.ok) throw new Error(`GET /v1/screening-settings: ${response.status}`);
      return 0;
    });
    const loadAfter = loadavg()[0]!;
    await app.stop();
    app = undefined;
    return {
      database: pg.description, entities, warmup: options.warmup + candidates.length + HIT_NAMES.length,
      noHit, withHits, perHitMs: (withHits.cpuMs - noHit.cpuMs) / withHits.hitsPerRequest, baseline, loadBefore, loadAfter,
    };
  } finally {
    await app?.stop();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}

export function screeningHttpSection(result: ScreeningHttpResult): string {
  const fixed = (value: number, digits = 2) => value.toFixed(digits);
  const row = (label: string, f: PhaseFigures) => `| ${label} | ${f.requests} | ${fixed(f.hitsPerRequest, 1)} | ${fixed(f.cpuMs)} | ${fixed(f.p50Ms)} | ${fixed(f.p99Ms)} |`;
  return `## Screening over HTTP: service CPU per request

\`POST /v1/screenings\` (a person's name, no adverse media provider) against the service as
\`npm start\` runs it (\`src/server.ts\`, its own process, \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`)
over ${result.database}, with the shared snapshots loaded (${result.entities.toLocaleString('en')} entities). One request at a
time from the bench process, after ${result.warmup} warm-up screenings. CPU: the service process's user +
system time over the phase (/proc), divided by its requests; PostgreSQL's own time is not in it.
Load average ${fixed(result.loadBefore)} before and ${fixed(result.loadAfter)} after (other work on the machine slows the figures).

| Requests | Count | Hits per request | Service CPU ms per request | p50 ms | p99 ms |
|---|---|---|---|---|---|
${row('Screening, no hit', result.noHit)}
${row('Screening with hits (stored)', result.withHits)}
${row('GET /v1/screening-settings (reference)', result.baseline)}

Each stored hit adds ${fixed(result.perHitMs)} ms of service CPU ((with hits − no hit) / hits per request). Target from
the issue: no hit ≤ 3 ms of service CPU per request. The reference row is an authenticated read of
one row: what any request costs before its own work.
`;
}

/** Runs the measurement and adds its section to the screening report (bench/results-screening.md). */
export async function appendScreeningHttpSection() {
  const section = screeningHttpSection(await runScreeningHttpBench());
  await appendFile(new URL('./results-screening.md', import.meta.url), `\n${section}`);
  console.log(section);
}
