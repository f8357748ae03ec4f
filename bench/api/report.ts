// The API benchmark's part of bench/results.md: figures, ratios, targets, plans.
import type { ApiBenchResult, TimedRun } from './api-bench.ts';

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const percent = (part: number, whole: number) => `${fixed((100 * part) / whole)} %`;

export interface TargetCheck {
  target: string;
  met: boolean;
  detail: string;
}

const runOf = (runs: TimedRun[], target: TimedRun['target']) => runs.find((r) => r.target === target)!;

/** The issue's targets, judged on this run's figures. */
export function targetChecks(result: ApiBenchResult): TargetCheck[] {
  const reads = result.scenarios.filter((s) => s.read);
  const checks: TargetCheck[] = [];
  for (const side of ['rest', 'graphql'] as const) {
    const ratios = reads.map((s) => ({ name: s.name, ratio: runOf(s.runs, side).perSecond / runOf(s.runs, 'koa-pg').perSecond }));
    const worst = ratios.reduce((a, b) => (b.ratio < a.ratio ? b : a));
    checks.push({
      target: `${side === 'rest' ? 'REST' : 'GraphQL'} reads reach at least 60 % of Koa + pg's throughput`,
      met: worst.ratio >= 0.6,
      detail: ratios.map((r) => `${r.name}: ${percent(r.ratio, 1)}`).join('; '),
    });
  }
  const overheads = result.scenarios.map((s) => ({ name: s.name, overhead: 1 - runOf(s.runs, 'rest').perSecond / runOf(s.runs, 'graphql').perSecond }));
  checks.push({
    target: 'REST adds under 10 % over the same GraphQL operation (throughput lost)',
    met: overheads.every((o) => o.overhead < 0.1),
    // One decimal: a whole-percent "10 %" would not say which side of the line it is on.
    detail: overheads.map((o) => `${o.name}: ${o.overhead <= 0 ? `none (REST ${percent(-o.overhead, 1)} faster)` : `${fixed(100 * o.overhead, 1)} %`}`).join('; '),
  });
  const p99s = result.scenarios.flatMap((s) => s.runs.filter((r) => r.target === 'rest' || r.target === 'graphql').map((r) => ({ name: `${s.name} (${r.target})`, p99: r.p99Ms })));
  checks.push({
    target: `p99 under 50 ms at the measured peak (${result.connections} connections)`,
    met: p99s.every((p) => p.p99 < 50),
    detail: p99s.filter((p) => p.p99 >= 50).map((p) => `${p.name}: ${p.p99} ms`).join('; ') || 'all under 50 ms',
  });
  const scans = result.plans.flatMap((p) => p.statements.flatMap((s) => s.sequentialScans.map((table) => `${p.name}: ${table}`)));
  checks.push({ target: 'List and search queries are index-backed (no sequential scan)', met: scans.length === 0, detail: scans.join('; ') || 'no sequential scan in any plan below' });
  return checks;
}

export function apiSection(result: ApiBenchResult, machine: string): string {
  const { options, seeded } = result;
  const row = (label: string, run: TimedRun, koa?: TimedRun, prisma?: TimedRun) =>
    `| ${label} | ${fixed(run.perSecond)} | ${run.p50Ms} | ${run.p99Ms} | ${run.maxMs} | ${run.cpuMsPerRequest ? fixed(run.cpuMsPerRequest, 2) : ''} | ${percent(run.perSecond, result.bare.perSecond)} | ${koa ? percent(run.perSecond, koa.perSecond) : ''} | ${prisma ? percent(run.perSecond, prisma.perSecond) : ''} | ${run.failures} |`;
  const tables = result.scenarios.map((s) => {
    const [koa, prisma, graphql, rest] = (['koa-pg', 'koa-prisma', 'graphql', 'rest'] as const).map((target) => runOf(s.runs, target)) as [TimedRun, TimedRun, TimedRun, TimedRun];
    return `| **${s.name}** | | | | | | | | | |
${row('Koa + pg baseline', koa)}
${row('Koa + Prisma baseline', prisma, koa)}
${row('GraphQL', graphql, koa, prisma)}
${row('REST', rest, koa, prisma)}`;
  });
  const reads = result.scenarios.filter((s) => s.read);
  const share = (target: TimedRun['target'], of: TimedRun['target']) =>
    reads.map((s) => `${s.name}: ${percent(runOf(s.runs, target).perSecond, runOf(s.runs, of).perSecond)}`).join('; ');
  const checks = targetChecks(result);
  return `## API: REST and GraphQL against the physical limits of the stack

${result.failures.length ? `**FAILED**: ${result.failures.join('; ')}` : 'Passed: every answer 2xx without GraphQL errors, and every check below held.'}

Machine: ${machine}. Database: ${result.database}. Dataset: ${seeded.organizations.length} organizations,
${seeded.cases.toLocaleString('en')} consumer cases and ${seeded.tasks.toLocaleString('en')} tasks (${options.casesPerOrganization.toLocaleString('en')} and ${options.tasksPerOrganization.toLocaleString('en')} per organization; seeded with
every trigger on, so events and audit rows exist too, in ${fixed(seeded.seconds, 1)} s). Every request picks one of the
organizations at random and uses its key; ids, filters, search words and new cases vary per request.

Each server runs in its own process: the service as \`npm start\` runs it (\`src/server.ts\`,
\`NODE_ENV=production\`, default log level info with its request lines, metrics, rate limits on
but far above this load, so requests are counted as in production: in blocks of up to 50 per
instance, README "Rate limits"); the Koa + pg baseline
(\`bench/api/baselines/koa-pg.ts\`: looks the key up by hash, checks the permission, runs the
same SQL a competent hand-written handler would, a pool of 10 like the service's); the Koa +
Prisma baseline (\`bench/api/baselines/koa-prisma.ts\`: the same key lookup and checks, the
endpoint's own reads and write through Prisma set up as the service sets it up, so it shows
what the chosen data layer costs before GraphQL and the service's middleware); the bare
Node HTTP baseline (\`bench/api/baselines/bare-http.ts\`: the service's own page-1 answer as a
fixed body). autocannon runs in the bench process, closed loop (a connection sends its next
request when the last is answered), ${options.seconds} s per run and at most ${options.maxRequests.toLocaleString('en')} requests, each after a
2 s warm-up of the same operation. Each operation is timed ${options.rounds} times on each server, the servers taking turns
(the order reversed every other round); the tables give the run with the median throughput (failures: all runs).
Load generator, servers and PostgreSQL share the machine's cores.

The peak: the REST page-1 list at ${result.sweep.map((s) => s.connections).join(', ')} connections (each count timed ${options.rounds} times, the counts
taking turns; the median run shown); the smallest count within 5 % of the best throughput is used for every run below.

| Connections | req/s | p50 ms | p99 ms | service CPU ms/request |
|---|---|---|---|---|
${result.sweep.map(({ connections, run }) => `| ${connections} | ${fixed(run.perSecond)} | ${run.p50Ms} | ${run.p99Ms} | ${fixed(run.cpuMsPerRequest, 2)} |`).join('\n')}

Measured at ${result.connections} connections. CPU is the answering process's own (service or
baseline), from /proc, per request; PostgreSQL's is not included.

| Operation / server | req/s | p50 ms | p99 ms | max ms | CPU ms/req | of bare HTTP | of Koa + pg | of Koa + Prisma | failed |
|---|---|---|---|---|---|---|---|---|---|
${row('Bare Node HTTP, fixed JSON (machine ceiling)', result.bare)}
${tables.join('\n')}

### Targets

${checks.map((c) => `- ${c.met ? 'Met' : '**Not met**'}: ${c.target}. ${c.detail}.`).join('\n')}

For reference (no target): on reads, Koa + Prisma reaches ${share('koa-prisma', 'koa-pg')} of Koa + pg;
REST reaches ${share('rest', 'koa-prisma')} of Koa + Prisma.

### Checks before timing

${result.checks.map((c) => `- ${c}`).join('\n')}

### Query plans

The SQL the service runs for each list operation (the route's own GraphQL document executed
in-process against the real schema, statements captured from Prisma), explained with
\`EXPLAIN (ANALYZE, BUFFERS)\` as the tenant role with the organization set, so row-level
security's condition is part of the plan. Organization: one of the ${seeded.organizations.length}.

${result.plans.map((plan) => `#### ${plan.name} \`${JSON.stringify(plan.variables)}\`

${plan.statements.map((s) => `\`\`\`sql
${s.sql}
\`\`\`

\`\`\`
${s.plan}
\`\`\``).join('\n\n')}`).join('\n\n')}
`;
}
