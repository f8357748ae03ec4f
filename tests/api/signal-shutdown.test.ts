// SIGTERM to the service as `npm start` runs it (src/server.ts): it stops
// gracefully, finishing the request in flight, and exits 0, with an external
// database and with its embedded one; and Ctrl-C on the README's own
// `npm start`, where npm relays the terminal's SIGINT a second time.
// (tests/api/graceful-shutdown.test.ts covers what the stop does; this covers
// that the signal gets there.)
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/client.ts';
import { serviceUrl } from '../../src/db/database-setup.ts';
import { postgresAnswers } from '../../src/db/embedded.ts';
import { EMBEDDED_CREDENTIALS } from '../../src/storage/embedded-s3.ts';
import { TEST_BUCKET } from '../setup/servers.ts';
import { freePort } from '../helpers/ports.ts';
import { textImage } from '../helpers/sample-files.ts';
import { createOrganization, type TestOrganization } from '../helpers/service.ts';
import { formWith, upload } from '../helpers/uploads.ts';
import { waitFor } from '../helpers/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Child {
  process: ChildProcess;
  url: string;
  dataDir: string;
  /** The embedded PostgreSQL's URL (none with an external database). */
  databaseUrl?: string;
  output: string[];
  exit: Promise<[number | null, NodeJS.Signals | null]>;
}

let db: Database;
let org: TestOrganization;
const folders: string[] = [];
const children: Child[] = [];

beforeAll(async () => {
  db = createDatabase(inject('databaseUrl'));
  org = await createOrganization(db, undefined, 'signal-shutdown');
});
afterAll(async () => {
  for (const child of children) {
    if (child.process.exitCode === null && child.process.signalCode === null) process.kill(-child.process.pid!, 'SIGKILL');
    // An embedded PostgreSQL a failed test left running (it has a process group of its own).
    const postmaster = await readFile(join(child.dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '');
    if (postmaster) {
      try {
        process.kill(Number(postmaster.split('\n')[0]), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  await db?.$disconnect();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** How the service is started: as the README's `npm start`, or its command (package.json) without npm. */
const COMMANDS = {
  npm: ['npm', ['start']],
  node: [process.execPath, ['--import', 'tsx', 'src/server.ts']],
} as const;

async function startChild(external: boolean, command: keyof typeof COMMANDS = 'node'): Promise<Child> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'signal-'));
  folders.push(dataDir);
  // Run as root, the embedded PostgreSQL runs as its own user, which must reach its folder.
  await chmod(dataDir, 0o755);
  const databasePort = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir,
    WATCHLIST_SOURCES: '[]', WATCHLIST_REFRESH_CRON: 'off', ADVERSE_MEDIA_PROVIDER: 'off', DOCUMENT_ANALYSIS_ENGINE: 'local',
    ...(external
      ? {
        DATABASE_URL: inject('databaseUrl'), S3_ENDPOINT: inject('s3Endpoint'), S3_BUCKET: TEST_BUCKET,
        S3_ACCESS_KEY_ID: EMBEDDED_CREDENTIALS.accessKeyId, S3_SECRET_ACCESS_KEY: EMBEDDED_CREDENTIALS.secretAccessKey,
      }
      : { DATABASE_URL: undefined, S3_ENDPOINT: undefined, EMBEDDED_PG_PORT: String(databasePort), EMBEDDED_S3_PORT: '0' }),
  };
  // In a process group of its own, as a terminal runs a foreground command.
  const [file, args] = COMMANDS[command];
  const child = spawn(file, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const started: Child = {
    process: child, url: `http://127.0.0.1:${port}`, dataDir, output: [], exit: once(child, 'exit') as Child['exit'],
    // The embedded cluster's service role (src/db/embedded.ts).
    databaseUrl: external ? undefined : serviceUrl(`postgresql://postgres:postgres@127.0.0.1:${databasePort}/postgres`, { role: 'compliance', password: 'compliance', database: 'compliance' }),
  };
  children.push(started);
  const keep = (chunk: Buffer) => started.output.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`the service exited at start:\n${started.output.join('\n')}`);
    return fetch(`${started.url}/readyz`).then((response) => response.ok, () => false);
  }, 'the service to be ready', 90_000, 100);
  return started;
}

/** An organization with a key in the child's embedded database. */
async function createKeyThrough(child: Child) {
  const childDb = createDatabase(child.databaseUrl!);
  try {
    return await createOrganization(childDb, undefined, 'ctrl-c');
  } finally {
    await childDb.$disconnect();
  }
}

const errorLines = (child: Child) => child.output.filter((line) => !line.startsWith('{') || JSON.parse(line).level >= 50);
const logged = (child: Child, message: string) => child.output.some((line) => line.includes(`"msg":"${message}"`));

/** The processes descended from `pid` (through /proc), wherever their process group. */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat) parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, itsParent] of parents) if (itsParent === parent) visit(found[found.push(child) - 1]!);
  };
  visit(pid);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A POST whose body arrives in two parts: in flight from the first part until the second, `holdMs` later. */
function slowCreate(child: Child, key: string, holdMs = 1_000) {
  const body = JSON.stringify({ email: 'in-flight@example.com' });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sent = request(`${child.url}/v1/consumer-cases`, {
      method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: text }));
    });
    sent.on('error', reject);
    sent.write(body.slice(0, 10));
    setTimeout(() => sent.end(body.slice(10)), holdMs);
  });
  return answer;
}

describe('SIGTERM', () => {
  it('lets the request in flight finish, then exits 0 (external database)', async () => {
    const child = await startChild(true);
    const inFlight = slowCreate(child, org.key);
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.process.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ email: 'in-flight@example.com' });
    expect(await child.exit).toEqual([0, null]);
    expect(child.output.some((line) => line.includes('"msg":"shutting down"'))).toBe(true);
  });

  it('stops its embedded PostgreSQL last: no connection is cut under it, and it exits 0', async () => {
    const child = await startChild(false);
    expect((await fetch(`${child.url}/v1/consumer-cases`)).status).toBe(401);
    child.process.kill('SIGTERM');
    expect(await child.exit).toEqual([0, null]);
    expect(errorLines(child)).toEqual([]);
  });
});

describe('Ctrl-C in a terminal (SIGINT to the whole foreground process group)', () => {
  it('stops gracefully with its embedded PostgreSQL: the request in flight finishes, no connection is cut, PostgreSQL stops last', async () => {
    const child = await startChild(false);
    const key = (await createKeyThrough(child)).key;
    const inFlight = slowCreate(child, key);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // What a terminal does: the signal goes to every process in the group.
    process.kill(-child.process.pid!, 'SIGINT');
    const answer = await inFlight;
    expect(answer.status).toBe(201);
    expect(await child.exit).toEqual([0, null]);
    expect(errorLines(child)).toEqual([]);
    expect(child.output.some((line) => line.includes('terminating connection'))).toBe(false);
    expect(await postgresAnswers(child.databaseUrl!)).toBe(false);
  });

  it('pressed twice, stops at once, and its embedded PostgreSQL with it', async () => {
    const child = await startChild(false);
    const key = (await createKeyThrough(child)).key;
    // Holds the graceful stop open, so the second signal arrives during it.
    const inFlight = slowCreate(child, key, 5_000).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(-child.process.pid!, 'SIGINT');
    await waitFor(async () => logged(child, 'shutting down'), 'the graceful stop to begin', 10_000, 20);
    // A second press, not the same one relayed (signals within a second of the first are one press).
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    process.kill(-child.process.pid!, 'SIGINT');
    expect(await child.exit).toEqual([130, null]);
    expect(child.output.some((line) => line.includes('"msg":"stopping at once"'))).toBe(true);
    await inFlight;
    await waitFor(async () => !(await postgresAnswers(child.databaseUrl!)), 'the embedded PostgreSQL to stop', 15_000, 100);
  });
});

describe('Ctrl-C on `npm start`, the README\'s command', () => {
  it('stops gracefully: the analysis in flight gets its answer, exit 0, nothing left running', async () => {
    const child = await startChild(false, 'npm');
    const key = (await createKeyThrough(child)).key;
    const lines = Array.from({ length: 24 }, (_, i) => `Line ${i + 1} of a scanned page to read while the service stops`);
    const stored = await upload(child.url, key, 'private', formWith([{ name: 'file', data: await textImage(lines, { width: 2400 }), filename: 'scan.png', type: 'image/png' }]));
    expect(stored.status).toBe(201);
    const analysis = fetch(`${child.url}/v1/document-analysis/analyze`, {
      method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ fileKey: stored.body.fileKey }),
    }).then(async (response) => ({ status: response.status, body: await response.json(), at: performance.now() }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const family = [child.process.pid!, ...(await descendants(child.process.pid!))];
    // What a terminal does: the signal goes to every process in the foreground group (npm's too).
    process.kill(-child.process.pid!, 'SIGINT');
    await waitFor(async () => logged(child, 'shutting down'), 'the graceful stop to begin', 10_000, 20);
    const stopping = performance.now();
    const answer = await analysis;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'SUCCEEDED', textContent: expect.stringContaining('scanned page') });
    // It was still in flight when the stop began.
    expect(answer.at).toBeGreaterThan(stopping);
    expect(await child.exit).toEqual([0, null]);
    expect(logged(child, 'stopping at once')).toBe(false);
    expect(child.output.filter((line) => line.startsWith('{') && JSON.parse(line).level >= 50)).toEqual([]);
    // npm, the service, its workers and its embedded PostgreSQL are all gone.
    await waitFor(async () => family.every((pid) => !alive(pid)), 'every process of the service to end', 15_000, 100);
    expect(await postgresAnswers(child.databaseUrl!)).toBe(false);
  });
});
