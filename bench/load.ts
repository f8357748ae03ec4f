// Loopback load test: the real service in its own process (src/server.ts, as
// `npm start` runs it) over PostgreSQL, one organization seeded with cases and
// tasks, then a mixed REST and GraphQL workload from autocannon, bounded in
// time and connections. Any error, timeout, non-2xx answer or GraphQL error
// fails the run.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { displayPrefix, generateApiKey, hashApiKey } from '../src/auth/api-keys.ts';
import { ALL_PERMISSIONS } from '../src/auth/permissions.ts';
import { createDatabase } from '../src/db/client.ts';
import { type BenchProcess, cpuSeconds, peakMemoryMB, startBenchDatabase, startServiceProcess } from './processes.ts';

export interface LoadOptions {
  durationSeconds: number;
  cases: number;
  tasks: number;
  /** Per-request timeout; a slower answer counts as a timeout (a failure). */
  timeoutSeconds: number;
}

export interface EndpointFigures {
  name: string;
  connections: number;
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** 2xx answers whose body was wrong (GraphQL `errors`). */
  mismatches: number;
  /** The first failing answer, for the report. */
  sample?: string;
}

export interface LoadBenchResult {
  options: LoadOptions;
  database: string;
  seedSeconds: number;
  startSeconds: number;
  endpoints: EndpointFigures[];
  totalRequests: number;
  totalPerSecond: number;
  serverPeakMB: number;
  /** CPU seconds the service process used during the timed run (its busy share of one core = this / duration). */
  serverCpuSeconds: number;
  /** 1-minute load average just before and just after the timed run (other work on the machine shows here). */
  loadBefore: number;
  loadAfter: number;
  createdRows: number;
  failures: string[];
}

const GIVEN = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'Edsger', 'Radia', 'Donald', 'Katherine', 'John', 'Hedy', 'Tim', 'Sophie', 'Niklaus', 'Jean', 'Bjarne'];
const FAMILY = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Allen', 'Dijkstra', 'Perlman', 'Knuth', 'Johnson', 'McCarthy', 'Lamarr', 'Berners', 'Wilson', 'Wirth', 'Sammet', 'Stroustrup', 'Kernighan', 'Backus', 'Hoare', 'Lamport', 'Cerf'];
const CASE_STATUSES = ['PENDING', 'INVITED', 'ACTIVE', 'IN_REVIEW', 'VERIFIED', 'REJECTED', 'ARCHIVED'] as const;
const TASK_STATUSES = ['TODO', 'IN_PROGRESS', 'BLOCKED', 'DONE', 'CANCELLED'] as const;
const PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'URGENT'] as const;
const NATIONALITIES = ['GB', 'DE', 'FR', 'US', 'NL', 'SE', 'IE', 'ES'];

const pick = <T>(values: readonly T[]) => values[Math.floor(Math.random() * values.length)]!;

export async function runLoadBench(options: LoadOptions = { durationSeconds: 20, cases: 2000, tasks: 2000, timeoutSeconds: 10 }): Promise<LoadBenchResult> {
  const work = await mkdtemp(join(tmpdir(), 'bench-load-'));
  const cleanups: Array<() => Promise<unknown>> = [];
  let app: BenchProcess | undefined;
  try {
    const pg = await startBenchDatabase();
    cleanups.push(() => pg.stop());
    const { url: databaseUrl, description: database } = pg;
    const db = createDatabase(databaseUrl, 4);
    cleanups.push(() => db.$disconnect());

    // One organization, a real key, a modest dataset (direct inserts, for speed).
    const seeding = performance.now();
    const organization = await db.organization.create({ data: { name: `load-${randomUUID()}` } });
    const key = generateApiKey();
    await db.apiKey.create({
      data: { organizationId: organization.id, prefix: displayPrefix(key), hash: hashApiKey(key), permissions: [...ALL_PERMISSIONS], label: 'load test' },
    });
    const cases = await db.consumerCase.createManyAndReturn({
      data: Array.from({ length: options.cases }, (_, i) => {
        const firstName = GIVEN[i % GIVEN.length]!;
        const lastName = FAMILY[(i * 7) % FAMILY.length]!;
        return {
          organizationId: organization.id,
          email: `${firstName}.${lastName}.${i}@example.com`.toLowerCase(),
          firstName,
          lastName,
          phoneNumber: `+4420794${String(i).padStart(5, '0')}`,
          dateOfBirth: new Date(Date.UTC(1950 + (i % 50), i % 12, 1 + (i % 28))),
          nationality: NATIONALITIES[i % NATIONALITIES.length]!,
          status: CASE_STATUSES[i % CASE_STATUSES.length]!,
        };
      }),
      select: { id: true, status: true },
    });
    await db.task.createMany({
      data: Array.from({ length: options.tasks }, (_, i) => ({
        organizationId: organization.id,
        title: `${pick(['Review', 'Verify', 'Escalate', 'Call back'])} ${GIVEN[i % GIVEN.length]} ${FAMILY[(i * 3) % FAMILY.length]}`,
        description: `Task ${i} of the load test`,
        priority: PRIORITIES[i % PRIORITIES.length]!,
        status: TASK_STATUSES[i % TASK_STATUSES.length]!,
        consumerCaseId: cases[i % cases.length]!.id,
        dueDate: new Date(Date.now() + ((i % 60) - 30) * 86_400_000),
      })),
    });
    const seedSeconds = (performance.now() - seeding) / 1000;
    const caseIds = cases.map((c) => c.id);
    // ARCHIVED is final; the other cases take any edit of their details.
    const editable = cases.filter((c) => c.status !== 'ARCHIVED').map((c) => c.id);

    // The service, as `npm start` runs it, in its own process: the load generator
    // must not share its event loop.
    const starting = performance.now();
    app = await startServiceProcess(databaseUrl, work, {
      LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '10',
      // On, so every request pays its counting as in production, but far above this load.
      RATE_LIMIT_PER_KEY: '1000000000', RATE_LIMIT_PER_ORGANIZATION: '1000000000',
    });
    const base = app.base;
    const startSeconds = (performance.now() - starting) / 1000;

    const json = { 'content-type': 'application/json' };
    let created = 0;
    const graphqlQuery = `query Load($status: ConsumerCaseStatus) {
      consumerCases(status: $status, limit: 10) { items { id email status tasks(first: 3) { totalCount edges { node { id title priority } } } } meta { total totalPages } }
    }`;
    type Request = { method: string; path: string; body?: string; headers?: Record<string, string> };
    const endpoints: Array<{ name: string; connections: number; request: () => Request; verify?: (body: string | Buffer | undefined) => boolean }> = [
      { name: 'GET /v1/consumer-cases (page 1)', connections: 3, request: () => ({ method: 'GET', path: '/v1/consumer-cases?page=1&limit=20' }) },
      { name: 'GET /v1/consumer-cases?status=', connections: 2, request: () => ({ method: 'GET', path: `/v1/consumer-cases?status=${pick(CASE_STATUSES)}&limit=20` }) },
      { name: 'GET /v1/consumer-cases?search=', connections: 3, request: () => ({ method: 'GET', path: `/v1/consumer-cases?search=${encodeURIComponent(`${pick(FAMILY).slice(0, 5)} ${pick(GIVEN).slice(1, 4)}`)}&limit=20` }) },
      { name: 'GET /v1/consumer-cases/:id', connections: 3, request: () => ({ method: 'GET', path: `/v1/consumer-cases/${pick(caseIds)}` }) },
      {
        name: 'POST /v1/consumer-cases', connections: 2,
        request: () => ({
          method: 'POST', path: '/v1/consumer-cases', headers: json,
          body: JSON.stringify({
            email: `load-${++created}-${randomUUID().slice(0, 8)}@example.com`, firstName: pick(GIVEN), lastName: pick(FAMILY),
            phoneNumber: '+44 20 7946 0958', dateOfBirth: '1985-12-10', nationality: pick(NATIONALITIES),
          }),
        }),
      },
      {
        name: 'PATCH /v1/consumer-cases/:id', connections: 2,
        request: () => ({ method: 'PATCH', path: `/v1/consumer-cases/${pick(editable)}`, headers: json, body: JSON.stringify({ lastName: `${pick(FAMILY)}-${Math.floor(Math.random() * 1e6)}` }) }),
      },
      { name: 'GET /v1/tasks?status=&priority=', connections: 3, request: () => ({ method: 'GET', path: `/v1/tasks?status=${pick(TASK_STATUSES)}&priority=${pick(PRIORITIES)}&limit=20` }) },
      {
        name: 'POST /graphql (cases with tasks)', connections: 2,
        request: () => ({ method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: graphqlQuery, variables: { status: pick(CASE_STATUSES) } }) }),
        verify: (body) => {
          try {
            const parsed = JSON.parse(String(body)) as { data?: { consumerCases?: unknown }; errors?: unknown };
            return !parsed.errors && Boolean(parsed.data?.consumerCases);
          } catch {
            return false;
          }
        },
      },
    ];

    // Warm-up and check: each request once, sequentially; any failure stops here.
    for (const endpoint of endpoints) {
      for (let i = 0; i < 5; i++) {
        const { method, path, body, headers } = endpoint.request();
        const response = await fetch(base + path, { method, body, headers: { 'x-api-key': key, ...headers } });
        const text = await response.text();
        if (!response.ok || (endpoint.verify && !endpoint.verify(text))) throw new Error(`${endpoint.name}: ${response.status} ${text.slice(0, 500)}`);
      }
    }
    const createdBefore = created;

    // The mixed load: one autocannon instance per endpoint, all at once, each with
    // its share of the connections (closed loop: a connection sends its next
    // request when the answer to the last one is in).
    const samples = new Map<string, string>();
    const wrongBodies = new Map<string, number>();
    const loadBefore = loadavg()[0]!;
    const cpuBefore = await cpuSeconds(app.pid!);
    const runs = endpoints.map((endpoint) =>
      autocannon({
        url: base,
        connections: endpoint.connections,
        duration: options.durationSeconds,
        timeout: options.timeoutSeconds,
        headers: { 'x-api-key': key },
        requests: [
          {
            setupRequest: (request: autocannon.Request) => {
              const next = endpoint.request();
              return { ...request, method: next.method as autocannon.Request['method'], path: next.path, body: next.body, headers: { ...request.headers, ...next.headers } };
            },
            onResponse: (status: number, body: string) => {
              const ok = status >= 200 && status <= 299;
              // A 2xx whose body is wrong (a GraphQL answer with `errors`) is a failure too.
              const wrong = ok && endpoint.verify !== undefined && !endpoint.verify(body);
              if (wrong) wrongBodies.set(endpoint.name, (wrongBodies.get(endpoint.name) ?? 0) + 1);
              if ((!ok || wrong) && !samples.has(endpoint.name)) samples.set(endpoint.name, `${status} ${String(body).slice(0, 300)}`);
            },
          },
        ],
      }),
    );
    const results = await Promise.all(runs);
    const loadAfter = loadavg()[0]!;
    const serverCpuSeconds = (await cpuSeconds(app.pid!)) - cpuBefore;
    const serverPeakMB = await peakMemoryMB(app.pid!);

    const figures: EndpointFigures[] = results.map((result, i) => {
      const endpoint = endpoints[i]!;
      return {
        name: endpoint.name,
        connections: endpoint.connections,
        requests: result.requests.total,
        perSecond: result.requests.total / result.duration,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        maxMs: result.latency.max,
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        mismatches: wrongBodies.get(endpoint.name) ?? 0,
        sample: samples.get(endpoint.name),
      };
    });
    const failures = figures
      .filter((f) => f.errors || f.timeouts || f.non2xx || f.mismatches)
      .map((f) => `${f.name}: ${f.errors} errors, ${f.timeouts} timeouts, ${f.non2xx} non-2xx, ${f.mismatches} wrong bodies${f.sample ? ` (first: ${f.sample})` : ''}`);
    // Every 201 of the create endpoint is a row (requests still in flight when the time ran out may add a few).
    const createdRows = (await db.consumerCase.count({ where: { organizationId: organization.id } })) - options.cases - createdBefore;
    const creates = figures.find((f) => f.name.startsWith('POST /v1/consumer-cases'))!;
    const answeredCreates = creates.requests - creates.non2xx;
    if (createdRows < answeredCreates || createdRows > answeredCreates + creates.connections) {
      failures.push(`POST /v1/consumer-cases: ${answeredCreates} answered, but ${createdRows} rows created`);
    }

    await app.stop();
    app = undefined;
    const totalRequests = figures.reduce((n, f) => n + f.requests, 0);
    return {
      options, database, seedSeconds, startSeconds, endpoints: figures, totalRequests,
      totalPerSecond: figures.reduce((n, f) => n + f.perSecond, 0), serverPeakMB, serverCpuSeconds, loadBefore, loadAfter, createdRows, failures,
    };
  } finally {
    await app?.stop();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}

export function loadSection(result: LoadBenchResult): string {
  const fixed = (value: number, digits = 1) => value.toFixed(digits);
  const { options } = result;
  const connections = result.endpoints.reduce((n, e) => n + e.connections, 0);
  const creates = result.endpoints.find((e) => e.name.startsWith('POST /v1/consumer-cases'))!;
  return `## Load: mixed REST and GraphQL workload on loopback

${result.failures.length ? `**FAILED**: ${result.failures.join('; ')}` : 'Passed: no connection error, timeout, non-2xx answer or GraphQL error.'}

The service as \`npm start\` runs it (\`src/server.ts\`, its own process, \`NODE_ENV=production\`,
\`LOG_LEVEL=warn\`, default pool of 10 connections) over ${result.database}, with rate limits
on but far above this load (so each request pays its counter upsert). One organization, one
API key with every permission, ${options.cases.toLocaleString('en')} consumer cases and ${options.tasks.toLocaleString('en')} tasks seeded by direct inserts
(${fixed(result.seedSeconds, 2)} s); service start to ready: ${fixed(result.startSeconds, 1)} s. autocannon in the bench process: one
instance per endpoint, all at once, ${connections} connections in total for ${options.durationSeconds} s (closed loop: each
connection sends its next request when the last is answered), timeout ${options.timeoutSeconds} s. Ids, filters, search
words and bodies vary per request. Every request was first checked once sequentially (warm-up).
Load generator, service and PostgreSQL share the machine's cores; 1-minute load average
${fixed(result.loadBefore, 2)} before the timed run and ${fixed(result.loadAfter, 2)} after it (on ${cpus().length} cores: above that, other work on the
machine took part of the CPU and the figures are lower than the service alone would give).

| Endpoint | Conn. | Requests | req/s | p50 ms | p99 ms | max ms | Errors | Timeouts | Non-2xx |
|---|---|---|---|---|---|---|---|---|---|
${result.endpoints.map((e) => `| ${e.name} | ${e.connections} | ${e.requests} | ${fixed(e.perSecond)} | ${e.p50Ms} | ${e.p99Ms} | ${e.maxMs} | ${e.errors} | ${e.timeouts} | ${e.non2xx + e.mismatches} |`).join('\n')}
| **All** | ${connections} | ${result.totalRequests} | ${fixed(result.totalPerSecond)} | | | | ${result.endpoints.reduce((n, e) => n + e.errors, 0)} | ${result.endpoints.reduce((n, e) => n + e.timeouts, 0)} | ${result.endpoints.reduce((n, e) => n + e.non2xx + e.mismatches, 0)} |

Search: two word fragments (a family name's first five letters and part of a given name).
GraphQL: \`consumerCases(status, limit: 10)\` with each case's first 3 tasks and their count; a
2xx with \`errors\` counts as a failure (in the Non-2xx column). Cases created during the run: ${result.createdRows} rows for the
${creates.requests - creates.non2xx} creates answered 201. Peak resident memory of the service process: ${fixed(result.serverPeakMB, 0)} MB.
The service process used ${fixed(result.serverCpuSeconds)} CPU seconds in the ${options.durationSeconds} s (${fixed((100 * result.serverCpuSeconds) / options.durationSeconds, 0)} % of one core;
Node runs the app on one thread), ${fixed((1000 * result.serverCpuSeconds) / Math.max(1, result.totalRequests), 1)} ms per request.
`;
}
