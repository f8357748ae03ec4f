// The API benchmark (`npm run bench`): PostgreSQL with the seeded dataset, the
// service as `npm start` runs it, and three baselines (bare Node HTTP with a
// fixed body; Koa + pg with the equivalent SQL; Koa + Prisma doing the same
// work through the service's data layer), each in its own process, driven in
// turn by autocannon on loopback. Before timing, it checks that the servers
// answer alike, that a write is visible at once, and that another
// organization gets 404.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { print } from 'graphql';
import { routes } from '../../rest/routes.ts';
import { type BenchProcess, cpuSeconds, startBenchDatabase, startNodeProcess, startServiceProcess } from '../processes.ts';
import { drive, type RunFigures } from './drive.ts';
import { type ExplainedOperation, explainOperations } from './plans.ts';
import { type HttpRequest, type Scenario, scenarios } from './scenarios.ts';
import { seed, type SeededOrganization, type SeedOptions, type SeedResult } from './seed.ts';

export interface ApiBenchOptions extends SeedOptions {
  /** Seconds per timed run. */
  seconds: number;
  /** Upper bound of requests per timed run. */
  maxRequests: number;
  /** Connection counts tried on the REST page-1 list to find the peak. */
  sweep: number[];
  /** Timed runs per server and operation, interleaved; the median (by throughput) is reported. */
  rounds: number;
}

export const DEFAULT_OPTIONS: ApiBenchOptions = {
  organizations: 10, casesPerOrganization: 10_000, tasksPerOrganization: 20_000,
  seconds: 5, maxRequests: 50_000, sweep: [1, 2, 4, 8, 16], rounds: 3,
};

export type Target = 'bare' | 'koa-pg' | 'koa-prisma' | 'graphql' | 'rest';

export interface TimedRun extends RunFigures {
  target: Target;
  /** CPU milliseconds the answering process used per request (the service's own, not PostgreSQL's). */
  cpuMsPerRequest: number;
}

export interface ApiBenchResult {
  options: ApiBenchOptions;
  database: string;
  seeded: SeedResult;
  sweep: Array<{ connections: number; run: TimedRun }>;
  connections: number;
  bare: TimedRun;
  scenarios: Array<{ name: string; read: boolean; runs: TimedRun[] }>;
  plans: ExplainedOperation[];
  checks: string[];
  failures: string[];
}

const pick = <T>(values: readonly T[]) => values[Math.floor(Math.random() * values.length)]!;

async function send(base: string, request: HttpRequest) {
  const response = await fetch(base + request.path, { method: request.method, headers: request.headers, body: request.body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The checks that keep the comparison and the fast path honest; each failure is a line of the report. */
async function checkAnswers(service: string, koaPg: string, koaPrisma: string, organizations: SeededOrganization[], all: Scenario[]) {
  const failures: string[] = [];
  const checks: string[] = [];
  const [a, b] = organizations as [SeededOrganization, SeededOrganization];
  // Same request to all three: REST and Koa + pg must give the same body, GraphQL the same data.
  for (const scenario of all.filter((s) => s.read)) {
    const restRequest = scenario.rest(a);
    const rest = await send(service, restRequest);
    const koa = await send(koaPg, restRequest);
    const prisma = await send(koaPrisma, restRequest);
    const field = scenario.name.startsWith('List tasks') ? 'tasks' : restRequest.path.match(/consumer-cases\/[^?]/) ? 'consumerCase' : 'consumerCases';
    const variables = Object.fromEntries(new URL(restRequest.path, 'http://x').searchParams);
    const id = restRequest.path.match(/consumer-cases\/([0-9a-f-]{36})/)?.[1];
    const graphqlRequest = scenario.graphql(a);
    const graphqlBody = JSON.parse(graphqlRequest.body!) as { query: string; operationName: string };
    const typed = Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, k === 'page' || k === 'limit' ? Number(v) : v]));
    const graphql = await send(service, { ...graphqlRequest, body: JSON.stringify({ ...graphqlBody, variables: id ? { id } : typed }) });
    const restData = JSON.stringify(rest.body);
    const graphqlData = JSON.stringify(field === 'consumerCase' ? graphql.body.data && (graphql.body.data as Record<string, unknown>)[field] : { success: true, ...((graphql.body.data as Record<string, object>)?.[field] ?? {}) });
    if (rest.status !== 200 || JSON.stringify(koa.body) !== restData) failures.push(`${scenario.name}: REST (${rest.status}) and Koa + pg (${koa.status}) answered differently to ${restRequest.path}`);
    else if (JSON.stringify(prisma.body) !== restData) failures.push(`${scenario.name}: REST and Koa + Prisma (${prisma.status}) answered differently to ${restRequest.path}`);
    else if (graphqlData !== restData) failures.push(`${scenario.name}: GraphQL and REST answered differently`);
    else checks.push(`${scenario.name}: \`${restRequest.path.replace(/\/[0-9a-f-]{36}/, '/{id}')}\` gave byte-identical JSON from REST, Koa + pg and Koa + Prisma, and the same data over GraphQL.`);
  }
  // A write is visible to the next read (no cache to go stale), and only to its organization.
  const created = await send(service, { method: 'POST', path: '/v1/consumer-cases', headers: { 'x-api-key': a.key, 'content-type': 'application/json' }, body: JSON.stringify({ email: `fresh-${Date.now()}@example.com`, firstName: 'Fresh' }) });
  const id = String(created.body.id);
  const listed = await send(service, { method: 'GET', path: '/v1/consumer-cases?limit=1', headers: { 'x-api-key': a.key } });
  const byId = await send(service, { method: 'GET', path: `/v1/consumer-cases/${id}`, headers: { 'x-api-key': a.key } });
  const other = await send(service, { method: 'GET', path: `/v1/consumer-cases/${id}`, headers: { 'x-api-key': b.key } });
  const otherList = await send(service, { method: 'GET', path: `/v1/consumer-cases?search=${encodeURIComponent(String(created.body.email))}`, headers: { 'x-api-key': b.key } });
  if (created.status !== 201 || (listed.body.items as Array<{ id: string }>)[0]?.id !== id || byId.status !== 200) failures.push('a case just created was not the first of the list or not found by id');
  else if (other.status !== 404 || (otherList.body.meta as { total: number }).total !== 0) failures.push("another organization's key saw the new case");
  else checks.push('A case created over REST was at once first in its organization\'s list and found by id; with another organization\'s key the id was a 404 and a search for its email found nothing.');
  return { checks, failures };
}

const WARM_UP_SECONDS = 2;

/** The run with the median throughput of several (an odd count gives a run that happened). */
function median(runs: TimedRun[]): TimedRun {
  const sorted = [...runs].sort((a, b) => a.perSecond - b.perSecond);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)]!;
  // Failures of any round count.
  return { ...middle, failures: runs.reduce((sum, run) => sum + run.failures, 0), sample: runs.find((run) => run.failures)?.sample ?? middle.sample };
}

async function timed(target: Target, process: BenchProcess | undefined, base: string, next: () => HttpRequest, options: ApiBenchOptions, connections: number): Promise<TimedRun> {
  // Warm-up: connections opened, plans and caches filled, the operation's code optimized by V8; not counted.
  await drive(base, next, { connections, seconds: WARM_UP_SECONDS, maxRequests: 2_000, timeoutSeconds: 10 });
  const before = process ? await cpuSeconds(process.pid) : 0;
  const figures = await drive(base, next, { connections, seconds: options.seconds, maxRequests: options.maxRequests, timeoutSeconds: 10 });
  const used = process ? (await cpuSeconds(process.pid)) - before : 0;
  return { target, ...figures, cpuMsPerRequest: (1000 * used) / Math.max(1, figures.requests) };
}

export async function runApiBench(options: ApiBenchOptions = DEFAULT_OPTIONS): Promise<ApiBenchResult> {
  const work = await mkdtemp(join(tmpdir(), 'bench-api-'));
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    const pg = await startBenchDatabase();
    cleanups.push(() => pg.stop());
    const { url: databaseUrl, description: database } = pg;
    console.log(`Seeding ${options.organizations} organizations...`);
    const seeded = await seed(databaseUrl, options);
    console.log(`Seeded ${seeded.cases} cases and ${seeded.tasks} tasks in ${seeded.seconds.toFixed(1)} s`);
    const organizations = seeded.organizations;

    const service = await startServiceProcess(databaseUrl, work, {
      // On, so every request pays its counting as in production, but far above this load.
      RATE_LIMIT_PER_KEY: '1000000000', RATE_LIMIT_PER_ORGANIZATION: '1000000000',
    });
    cleanups.push(() => service.stop());
    const startKoaBaseline = async (script: string) => {
      const baseline = await startNodeProcess(script, { ...(process.env as Record<string, string>), DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '10' }, { readyPath: '/healthz' });
      cleanups.push(() => baseline.stop());
      return baseline;
    };
    const koaPg = await startKoaBaseline('bench/api/baselines/koa-pg.ts');
    const koaPrisma = await startKoaBaseline('bench/api/baselines/koa-prisma.ts');
    const all = scenarios();
    // The fixed body: a real page-1 answer of the service, so the bytes on the wire match.
    const pageOne = await fetch(`${service.base}/v1/consumer-cases?page=1&limit=20`, { headers: { 'x-api-key': organizations[0]!.key } }).then((r) => r.text());
    const bare = await startNodeProcess('bench/api/baselines/bare-http.ts', { ...(process.env as Record<string, string>), BENCH_BODY: pageOne }, { readyPath: '/' });
    cleanups.push(() => bare.stop());

    const { checks, failures } = await checkAnswers(service.base, koaPg.base, koaPrisma.base, organizations, all);
    const documentOf = (path: string) => print(routes.find((r) => r.method === 'GET' && r.path === path)!.operation);
    const plans = await explainOperations(databaseUrl, organizations[0]!, [
      { name: 'List consumer cases, page 1', document: documentOf('/v1/consumer-cases'), variables: { page: 1, limit: 20 } },
      { name: 'List consumer cases, status filter', document: documentOf('/v1/consumer-cases'), variables: { status: 'IN_REVIEW', limit: 20 } },
      { name: 'Search consumer cases', document: documentOf('/v1/consumer-cases'), variables: { search: 'Lovel ada', limit: 20 } },
      { name: 'List tasks, status and priority filter', document: documentOf('/v1/tasks'), variables: { status: 'TODO', priority: 'HIGH', limit: 20 } },
    ]);
    for (const plan of plans) {
      for (const statement of plan.statements) {
        if (statement.sequentialScans.length) failures.push(`${plan.name}: sequential scan on ${statement.sequentialScans.join(', ')}`);
      }
    }

    // The peak: the REST page-1 list at growing concurrency; the smallest count within 5 % of the best throughput is used throughout.
    const pageOneScenario = all[0]!;
    // Each count is timed in every round (rounds in alternating order) and its median run kept, like the operations below.
    const sweepRuns = new Map<number, TimedRun[]>();
    for (let round = 0; round < options.rounds; round++) {
      for (const connections of round % 2 ? [...options.sweep].reverse() : options.sweep) {
        console.log(`Sweep: ${connections} connections (round ${round + 1})`);
        const run = await timed('rest', service, service.base, () => pageOneScenario.rest(pick(organizations)), { ...options, seconds: Math.min(5, options.seconds) }, connections);
        sweepRuns.set(connections, [...(sweepRuns.get(connections) ?? []), run]);
      }
    }
    const sweep: ApiBenchResult['sweep'] = options.sweep.map((connections) => ({ connections, run: median(sweepRuns.get(connections)!) }));
    const best = Math.max(...sweep.map((s) => s.run.perSecond));
    const connections = sweep.find((s) => s.run.perSecond >= 0.95 * best)!.connections;

    const bareRun = await timed('bare', bare, bare.base, () => ({ method: 'GET', path: '/v1/consumer-cases', headers: {} }), options, connections);
    const results: ApiBenchResult['scenarios'] = [];
    for (const scenario of all) {
      console.log(`Timing: ${scenario.name}`);
      const servers = [
        { target: 'koa-pg' as const, process: koaPg, next: () => scenario.rest(pick(organizations)) },
        { target: 'koa-prisma' as const, process: koaPrisma, next: () => scenario.rest(pick(organizations)) },
        { target: 'graphql' as const, process: service, next: () => scenario.graphql(pick(organizations)) },
        { target: 'rest' as const, process: service, next: () => scenario.rest(pick(organizations)) },
      ];
      // Interleaved rounds (the order reversed every other round), so a slow spell of the machine does not fall on one server only.
      const rounds = new Map<Target, TimedRun[]>();
      for (let round = 0; round < options.rounds; round++) {
        for (const server of round % 2 ? [...servers].reverse() : servers) {
          const run = await timed(server.target, server.process, server.process.base, server.next, options, connections);
          rounds.set(server.target, [...(rounds.get(server.target) ?? []), run]);
        }
      }
      const runs = servers.map((server) => median(rounds.get(server.target)!));
      for (const run of runs) if (run.failures) failures.push(`${scenario.name} (${run.target}): ${run.failures} failed requests (first: ${run.sample})`);
      results.push({ name: scenario.name, read: scenario.read, runs });
    }
    for (const { run } of sweep) if (run.failures) failures.push(`sweep: ${run.failures} failed requests (first: ${run.sample})`);
    if (bareRun.failures) failures.push(`bare HTTP: ${bareRun.failures} failed requests`);
    return { options, database, seeded, sweep, connections, bare: bareRun, scenarios: results, plans, checks, failures };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}
