// `npm run bench hostile`: the attacks of issue 18 repeated against the
// service as `npm start` runs it (its own process, production mode, default
// limits), each from a new attacker organization beside a well-behaved
// tenant's steady traffic, whose latency is compared with its quiet value.
// Loopback only; every loop is bounded in time and stops by itself.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { displayPrefix, generateApiKey, hashApiKey } from '../src/auth/api-keys.ts';
import { ALL_PERMISSIONS, type Permission } from '../src/auth/permissions.ts';
import { createDatabase, type Database } from '../src/db/client.ts';
import { textPdf } from '../tests/helpers/sample-files.ts';
import { type PoliteOptions, type Sample } from './polite-client.ts';
import { cpuSeconds, peakMemoryMB, startBenchDatabase, startServiceProcess } from './processes.ts';

const PHASE_SECONDS = Number(process.env.HOSTILE_PHASE_SECONDS ?? 40);
/**
 * The well-behaved tenant's steady request rate (open loop: a slow answer
 * does not slow the sender), within its key's default limit (600 a minute).
 */
const RATE_PER_SECOND = 8;

export interface PhaseResult {
  name: string;
  description: string;
  requests: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
  /** What the attacker's requests were answered with (status: count). */
  attackAnswers: Record<string, number>;
  /** The well-behaved tenant's own analysis of a one-page PDF during the phase (ms), when measured. */
  analysisMs?: number;
  /** Time from the well-behaved tenant's write to its webhook's arrival (ms), when measured. */
  webhookMs?: number;
  notes: string[];
  loadAverage: number;
}

export interface HostileResult {
  database: string;
  /** The first answer body seen for each status. */
  samples: Record<string, string>;
  phases: PhaseResult[];
  serverCpuSeconds: number;
  serverPeakMB: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function createKey(db: Database, organizationId: string, permissions: readonly Permission[]) {
  const key = generateApiKey();
  await db.apiKey.create({ data: { organizationId, prefix: displayPrefix(key), hash: hashApiKey(key), permissions: [...permissions] } });
  return key;
}

/** A local HTTP receiver for webhooks: answers `status` after `delayMs`, and reports arrivals. */
async function receiver(status: number, delayMs: number, onPost: (body: string) => void = () => {}) {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      onPost(body);
      setTimeout(() => res.writeHead(status).end('no'), delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }) };
}

/** A one-page PDF whose page is 3000 x 3000 pt (156 MP at 300 dpi). */
async function hugePagePdf() {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([3000, 3000]);
  page.drawText('A very large page', { x: 50, y: 2900, size: 24, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await pdf.save());
}

/** A small PDF whose one content stream inflates to `megabytes` MB of spaces. */
async function inflatingPdf(megabytes: number) {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([600, 800]);
  const compressed = deflateSync(Buffer.alloc(megabytes * 1024 * 1024, 0x20), { level: 9 });
  const stream = pdf.context.stream(compressed, { Filter: 'FlateDecode', Length: compressed.length });
  page.node.set(PDFName.of('Contents'), pdf.context.register(stream));
  return Buffer.from(await pdf.save());
}

async function uploadPrivate(base: string, key: string, data: Buffer, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'application/pdf' }), filename);
  const response = await fetch(`${base}/v1/files/upload/private`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
  const body = (await response.json()) as { fileKey?: string };
  if (response.status !== 201 || !body.fileKey) throw new Error(`upload failed: ${response.status} ${JSON.stringify(body)}`);
  return body.fileKey;
}

/** The first answer's body of each status in each phase, for the report. */
const samples = new Map<string, string>();
let currentPhase = '';

/** The status of an answer (read whole), remembering the first body of each status. */
async function statusOf(response: Response) {
  const body = await response.text();
  const status = String(response.status);
  const sample = `${currentPhase}, ${status}`;
  if (!samples.has(sample)) samples.set(sample, body.slice(0, 300));
  return status;
}

/** Runs `attack` in `parallel` loops until `until`, counting the answers' statuses. */
async function attackLoops(parallel: number, until: number, answers: Record<string, number>, attack: () => Promise<number | string>) {
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (Date.now() < until) {
      const started = Date.now();
      const status = await attack().catch((error: Error) => `error: ${error.message.slice(0, 60)}`);
      answers[String(status)] = (answers[String(status)] ?? 0) + 1;
      // A refused attack answers at once; a short pause keeps the attacker's own loop from being the load.
      if (Date.now() - started < 5) await sleep(5);
    }
  }));
}

const post = (base: string, key: string, path: string, body: unknown, signal?: AbortSignal) =>
  fetch(base + path, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body), signal });

/** `depth` levels of task -> case -> tasks: the cyclic query that grew exponentially. */
function cyclicTaskQuery(taskId: string, depth: number) {
  let inner = 'id';
  for (let i = 0; i < depth; i++) inner = `id consumerCase { id tasks(first: 50) { edges { node { ${inner} } } } }`;
  return `query { task(id: "${taskId}") { ${inner} } }`;
}

/** Holds `count` POST /graphql requests whose bodies arrive one byte per second, reopening closed ones, until `until`. */
async function slowBodies(port: number, key: string, count: number, until: number, answers: Record<string, number>) {
  const open = (): Promise<void> => new Promise((done) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    const timer = setInterval(() => socket.write('{'), 1000);
    socket.on('connect', () => socket.write(`POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`));
    socket.on('data', (chunk) => (answer += chunk));
    const finish = () => {
      clearInterval(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 'closed without answer';
      answers[status] = (answers[status] ?? 0) + 1;
      done();
    };
    socket.on('close', finish);
    socket.on('error', () => {});
    setTimeout(() => socket.destroy(), Math.max(0, until - Date.now()));
  });
  await Promise.all(Array.from({ length: count }, async () => {
    while (Date.now() < until) await open();
  }));
}

/** The well-behaved tenant's traffic until `until`, from its own process (bench/polite-client.ts). */
async function politeTrafficProcess(options: Omit<PoliteOptions, 'ratePerSecond'>): Promise<Sample[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/polite-client.ts', JSON.stringify({ ...options, ratePerSecond: RATE_PER_SECOND })], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`the well-behaved client exited with ${code ?? signal}`);
  return JSON.parse(output) as Sample[];
}

interface Attacker {
  organizationId: string;
  key: string;
  screeningOnlyKey: string;
  taskId: string;
  hugePage: string;
  inflating: string;
}

interface Attack {
  name: string;
  description: string;
  run(attacker: Attacker, until: number, answers: Record<string, number>, notes: string[]): Promise<void>;
  /** Measures the well-behaved tenant's analysis or webhook latency during the phase. */
  measure?: 'analysis' | 'webhook';
}

export async function runHostileBench(): Promise<HostileResult> {
  const database = await startBenchDatabase();
  const workDir = await mkdtemp(join(tmpdir(), 'bench-hostile-'));
  const failing = await receiver(500, 2000);
  let arrivals: Array<{ body: string; at: number }> = [];
  const healthy = await receiver(200, 0, (body) => arrivals.push({ body, at: Date.now() }));
  const db = createDatabase(database.url, 2);
  const service = await startServiceProcess(database.url, workDir, {
    // The receivers of this bench are on loopback.
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_DISPATCH_INTERVAL_MS: '250', WEBHOOK_TIMEOUT_MS: '3000',
  });
  try {
    const polite = await db.organization.create({ data: { name: `polite-${randomUUID()}` } });
    const politeKey = await createKey(db, polite.id, ALL_PERMISSIONS);
    const { base } = service;
    const port = Number(new URL(base).port);

    // The well-behaved tenant: cases with tasks, and a webhook endpoint that answers at once.
    const politeCase = await (await post(base, politeKey, '/v1/consumer-cases', { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' })).json() as { id: string };
    for (let i = 0; i < 30; i++) await post(base, politeKey, '/v1/tasks', { title: `Task ${i}`, consumerCaseId: politeCase.id });
    await post(base, politeKey, '/v1/webhook-endpoints', { url: healthy.url, eventTypes: ['consumer_case.created'] });
    const politePdf = await uploadPrivate(base, politeKey, await textPdf([['Invoice 1001', 'Total due: 120.00 EUR']]), 'invoice.pdf');

    // Each phase's attacker is a fresh organization (its own rate-limit
    // allowance, as a new hostile tenant would start): a case with three
    // tasks (the cyclic query), two bombs; the failing endpoint only for the backlog.
    const bombs = { page: await hugePagePdf(), inflating: await inflatingPdf(500) };
    const newAttacker = async (name: string): Promise<Attacker> => {
      const organization = await db.organization.create({ data: { name: `attacker-${name}-${randomUUID()}` } });
      const key = await createKey(db, organization.id, ALL_PERMISSIONS);
      const created = await (await post(base, key, '/v1/consumer-cases', { email: 'eve@example.com', firstName: 'Eve', lastName: 'Mallory' })).json() as { id: string };
      const tasks: string[] = [];
      for (let i = 0; i < 3; i++) tasks.push(((await (await post(base, key, '/v1/tasks', { title: `T${i}`, consumerCaseId: created.id })).json()) as { id: string }).id);
      return {
        organizationId: organization.id, key, taskId: tasks[0]!,
        screeningOnlyKey: await createKey(db, organization.id, ['screening:read'] as Permission[]),
        hugePage: await uploadPrivate(base, key, bombs.page, 'huge-page.pdf'),
        inflating: await uploadPrivate(base, key, bombs.inflating, 'inflating.pdf'),
      };
    };

    // Built once, so that the attacker's loops spend their time sending.
    const aliasQueries = [
      `mutation { ${Array.from({ length: 1000 }, (_, n) => `s${n}: screenName(input: { name: "Ivan Petrov ${n}", kind: PERSON }) { id }`).join(' ')} }`,
      `mutation { ${Array.from({ length: 20 }, (_, n) => `e${n}: sendOnboardingEmail(input: { email: "victim${n}@example.com", fullName: "Victim ${n}" }) { __typename }`).join(' ')} }`,
      `query { ${Array.from({ length: 1000 }, (_, n) => `a${n}: auditEvents(limit: 100) { items { id } }`).join(' ')} }`,
    ];
    const attacks: Attack[] = [
      { name: 'quiet', description: 'the well-behaved tenant alone', run: async (_attacker, until) => { await sleep(Math.max(0, until - Date.now())); }, measure: 'analysis' },
      {
        name: 'cyclic nesting', description: 'task → case → tasks nested 16 and 30 deep, and screening → hits → screening with a screening:read key, 2 loops',
        run: (attacker, until, answers) => attackLoops(2, until, answers, async (i = Math.random()) => {
          const query = i < 0.4 ? cyclicTaskQuery(attacker.taskId, 16) : i < 0.7 ? cyclicTaskQuery(attacker.taskId, 30)
            : `query { screenings(limit: 100) { items { ${'hits { screening { '.repeat(12)}id${' } }'.repeat(12)} } } }`;
          return statusOf(await post(base, i >= 0.7 ? attacker.screeningOnlyKey : attacker.key, '/graphql', { query }));
        }),
      },
      {
        name: 'aliases', description: '1,000 aliased screenName, 20 aliased sendOnboardingEmail, 1,000 aliased auditEvents(limit: 100), 2 loops',
        run: (attacker, until, answers) => attackLoops(2, until, answers, async (i = Math.random()) =>
          statusOf(await post(base, attacker.key, '/graphql', { query: aliasQueries[Math.floor(i * aliasQueries.length)] }))),
      },
      {
        name: 'slow bodies', description: '20 POST /graphql bodies sent one byte a second with a valid key, reopened when closed',
        run: (attacker, until, answers) => slowBodies(port, attacker.key, 20, until, answers),
      },
      {
        name: 'analysis bombs', description: 'a 3000 × 3000 pt page and a PDF inflating to 500 MB, analysed in 3 loops; the well-behaved tenant analyses a one-page PDF',
        measure: 'analysis',
        run: (attacker, until, answers) => attackLoops(3, until, answers, async (i = Math.random()) => {
          const bomb = process.env.HOSTILE_BOMB === 'page' ? attacker.hugePage : process.env.HOSTILE_BOMB === 'inflating' ? attacker.inflating
            : i < 0.5 ? attacker.hugePage : attacker.inflating;
          return statusOf(await post(base, attacker.key, '/v1/document-analysis/analyze', { fileKey: bomb }));
        }),
      },
      {
        name: 'webhook backlog', description: '1,500 of the attacker\'s events to an endpoint that answers 500 after 2 s; the well-behaved tenant\'s new case must still be delivered at once',
        measure: 'webhook',
        run: async (attacker, until, answers, notes) => {
          await post(base, attacker.key, '/v1/webhook-endpoints', { url: failing.url, eventTypes: ['*'] });
          // The backlog is written straight into the database (as a bulk import would), so that its events are there at once.
          const inserted = await db.$executeRaw`INSERT INTO consumer_cases (id, organization_id, email, first_name, last_name, status, created_at, updated_at)
            SELECT gen_random_uuid(), ${attacker.organizationId}::uuid, 'bulk' || n || '@example.com', 'Bulk', 'Import', 'PENDING', now(), now() FROM generate_series(1, 1500) AS n`;
          notes.push(`${inserted} attacker cases inserted (each emits consumer_case.created)`);
          answers['cases inserted'] = inserted;
          await sleep(Math.max(0, until - Date.now()));
        },
      },
      {
        name: 'heavy texts', description: '100 stored 20,000-character Markdown notes read as HTML 100 at a time, and notes whose tables pad to a million cells, 3 loops',
        run: async (attacker, until, answers, notes) => {
          // Dense but allowed Markdown: emphasis, links and list items, about 20,000 characters.
          const dense = Array.from({ length: 400 }, (_, n) => `- *item ${n}* [link](https://example.com/${n}) **b**`).join('\n').slice(0, 20_000);
          let stored = 0;
          for (let n = 0; n < 100 && Date.now() < until; n++) {
            const response = await post(base, attacker.key, '/v1/notes', { body: dense, format: 'MARKDOWN', taskId: attacker.taskId });
            if (response.status === 201) stored += 1;
            await response.arrayBuffer();
          }
          notes.push(`${stored} dense notes stored`);
          const padded = `${'|a'.repeat(100)}\n${'|-'.repeat(100)}\n${'|\n'.repeat(9790)}`;
          await attackLoops(3, until, answers, async (i = Math.random()) => i < 0.5
            ? statusOf(await post(base, attacker.key, '/graphql', { query: '{ notes(limit: 100) { items { id bodyHtml } } }' }))
            : statusOf(await post(base, attacker.key, '/v1/notes', { body: padded, format: 'MARKDOWN', taskId: attacker.taskId })));
        },
      },
      {
        name: 'wrong keys', description: 'random well-formed keys from 4 loops',
        run: (_attacker, until, answers) => attackLoops(4, until, answers, async () =>
          statusOf(await fetch(`${base}/v1/consumer-cases`, { headers: { 'x-api-key': `cpk_${randomBytes(32).toString('base64url')}` } }))),
      },
    ];
    const together = attacks.slice(1).filter((a) => a.name !== 'webhook backlog');
    attacks.push({
      name: 'all at once', description: 'every attack above but the backlog, together',
      measure: 'analysis',
      run: async (attacker, until, answers, notes) => {
        await Promise.all(together.map((a) => a.run(attacker, until, answers, notes)));
      },
    });

    // HOSTILE_PHASES: a comma-separated choice of phases (quiet always runs first), for looking into one.
    const chosen = process.env.HOSTILE_PHASES?.split(',').map((name) => name.trim());
    const run = chosen ? attacks.filter((a, i) => i === 0 || chosen.includes(a.name)) : attacks;
    const phases: PhaseResult[] = [];
    const cpuBefore = await cpuSeconds(service.pid);
    for (const attack of run) {
      const answers: Record<string, number> = {};
      const notes: string[] = [];
      currentPhase = attack.name;
      const attacker = await newAttacker(attack.name);
      const until = Date.now() + PHASE_SECONDS * 1000;
      const running = attack.run(attacker, until, answers, notes);
      // Let the attack take hold before the measured traffic starts.
      await sleep(1500);
      const traffic = politeTrafficProcess({ base, key: politeKey, caseId: politeCase.id, until });
      let analysisMs: number | undefined;
      let webhookMs: number | undefined;
      if (attack.measure === 'analysis') {
        await sleep(3000);
        const t0 = performance.now();
        const answer = await post(base, politeKey, '/v1/document-analysis/analyze', { fileKey: politePdf });
        analysisMs = performance.now() - t0;
        if (answer.status !== 200) notes.push(`the well-behaved analysis answered ${answer.status}`);
      }
      if (attack.measure === 'webhook') {
        await sleep(5000);
        arrivals = [];
        const sent = Date.now();
        const created = await (await post(base, politeKey, '/v1/consumer-cases', { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' })).json() as { id: string };
        while (!arrivals.some((a) => a.body.includes(created.id)) && Date.now() < sent + 120_000) await sleep(50);
        const arrival = arrivals.find((a) => a.body.includes(created.id));
        webhookMs = arrival ? arrival.at - sent : undefined;
        if (!arrival) notes.push('the well-behaved webhook did not arrive within 120 s');
        const pending = await db.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) FROM webhook_deliveries WHERE organization_id = ${attacker.organizationId}::uuid AND status = 'PENDING'`.catch(() => [{ count: -1n }]);
        notes.push(`attacker deliveries still pending when the well-behaved one arrived: ${pending[0]?.count ?? '?'}`);
      }
      const samples = await traffic;
      await running;
      const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
      const failed = samples.filter((s) => typeof s.status !== 'number' || s.status >= 300);
      if (failed.length) notes.push(`the well-behaved tenant's failed requests: ${[...new Set(failed.map((s) => s.status))].join(', ')}`);
      phases.push({
        name: attack.name, description: attack.description, requests: samples.length, failures: failed.length,
        p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0,
        attackAnswers: answers, analysisMs, webhookMs, notes, loadAverage: loadavg()[0]!,
      });
      console.log(`${attack.name}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, ${JSON.stringify(answers)}`);
      // Let queued work drain between phases, so each phase is judged on its own attack.
      await sleep(3000);
    }
    return {
      database: database.description, phases, samples: Object.fromEntries(samples),
      serverCpuSeconds: (await cpuSeconds(service.pid)) - cpuBefore, serverPeakMB: await peakMemoryMB(service.pid),
    };
  } finally {
    await service.stop();
    await db.$disconnect();
    await failing.close();
    await healthy.close();
    await database.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The report: the well-behaved tenant's latency per phase against its quiet value (target: p99 under 2x). */
export function hostileSection(result: HostileResult) {
  const quiet = result.phases[0]!;
  const rows = result.phases.map((phase) => {
    const ratio = phase.p99 / quiet.p99;
    const verdict = phase === quiet ? '' : ratio < 2 && phase.failures === 0 ? 'met' : '**missed**';
    return `| ${phase.name} | ${phase.requests} | ${phase.failures} | ${phase.p50.toFixed(1)} | ${phase.p99.toFixed(1)} | ${phase.max.toFixed(0)} | ${phase === quiet ? '1.00' : ratio.toFixed(2)} ${verdict} | ${phase.analysisMs === undefined ? '' : phase.analysisMs.toFixed(0)} | ${phase.webhookMs === undefined ? '' : phase.webhookMs.toFixed(0)} | ${phase.loadAverage.toFixed(2)} |`;
  });
  const answers = result.phases.slice(1).map((phase) =>
    `- **${phase.name}** (${phase.description}): ${Object.entries(phase.attackAnswers).map(([status, count]) => `${status} × ${count}`).join(', ') || 'nothing answered'}${phase.notes.length ? `. ${phase.notes.join('; ')}` : ''}`);
  return `## Hostile tenant beside a well-behaved one

The service as \`npm start\` runs it (production mode, every limit at its default), over ${result.database}.
Each phase runs one attack for ${PHASE_SECONDS} s from a new authenticated attacker organization (so each
starts with a whole rate-limit allowance) while a
well-behaved organization sends ${RATE_PER_SECOND} requests a second from a process of its own (open loop: REST list, REST by id,
a GraphQL case with its tasks, a task list, a task create), and, where shown, analyses a one-page
PDF or waits for its own webhook. Target: the well-behaved p99 stays under 2x its quiet value, with
no failed request.

| Phase | Requests | Failed | p50 ms | p99 ms | max ms | p99 / quiet | Own analysis ms | Own webhook ms | Load avg |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

What the attacker got back:

${answers.join('\n')}

The first answer of each status the attacker saw, per phase:

${Object.entries(result.samples).map(([status, body]) => `- ${status}: \`${body.replaceAll('`', "'").replaceAll('\n', ' ')}\``).join('\n')}

Service CPU over the whole run: ${result.serverCpuSeconds.toFixed(1)} s; peak resident set ${result.serverPeakMB.toFixed(0)} MB
(the analysis workers are separate processes and not counted here).
`;
}
