// A port the service needs is taken: it says so in one line naming the
// setting and the port (no EADDRINUSE stack), exits non-zero, and leaves
// nothing running. The service is started as `npm start` starts it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type EmbeddedDatabase, postgresAnswers, startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { EMBEDDED_CREDENTIALS } from '../../src/storage/embedded-s3.ts';
import { TEST_BUCKET } from '../setup/servers.ts';
import { freePort } from '../helpers/ports.ts';
import { waitFor } from '../helpers/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const folders: string[] = [];
const held: Server[] = [];
const databases: EmbeddedDatabase[] = [];

afterAll(async () => {
  for (const database of databases) await database.stop().catch(() => {});
  for (const server of held) server.close();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A loopback port something else listens on. */
async function takenPort() {
  const server = createServer();
  held.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as { port: number }).port;
}

const EXTERNAL_DATABASE = () => ({ DATABASE_URL: inject('databaseUrl') });
const EXTERNAL_S3 = () => ({
  S3_ENDPOINT: inject('s3Endpoint'), S3_BUCKET: TEST_BUCKET,
  S3_ACCESS_KEY_ID: EMBEDDED_CREDENTIALS.accessKeyId, S3_SECRET_ACCESS_KEY: EMBEDDED_CREDENTIALS.secretAccessKey,
});

/** Starts the service as `npm start` does, with `settings` (a fresh DATA_DIR unless given). */
async function launch(settings: Record<string, string | undefined>) {
  let dataDir = settings.DATA_DIR;
  if (!dataDir) {
    dataDir = await mkdtemp(join(tmpdir(), 'port-in-use-'));
    folders.push(dataDir);
    // Run as root, the embedded PostgreSQL runs as its own user, which must reach its folder.
    await chmod(dataDir, 0o755);
  }
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir,
      WATCHLIST_SOURCES: '[]', WATCHLIST_REFRESH_CRON: 'off', ADVERSE_MEDIA_PROVIDER: 'off', DOCUMENT_ANALYSIS_ENGINE: 'local',
      DATABASE_URL: undefined, S3_ENDPOINT: undefined, EMBEDDED_PG_PORT: String(await freePort()), EMBEDDED_S3_PORT: '0',
      ...settings,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  return { child, dataDir, url: `http://127.0.0.1:${port}`, exited, lines: () => output.split('\n').filter(Boolean) };
}

/** Starts the service with `settings` and waits for it to exit: its exit code and output lines. */
async function start(settings: Record<string, string | undefined>) {
  const launched = await launch(settings);
  // A service that starts instead of refusing is stopped, so the test fails rather than hangs.
  const timer = setTimeout(() => launched.child.kill('SIGKILL'), 60_000);
  const [code] = await launched.exited;
  clearTimeout(timer);
  return { code, lines: launched.lines(), dataDir: launched.dataDir };
}

/** The one problem the output holds (an error line, or anything not a log line, as a stack is), parsed. */
function theOneProblem(lines: string[]) {
  const problems = lines.filter((line) => !line.startsWith('{') || JSON.parse(line).level >= 50);
  expect(problems).toHaveLength(1);
  return JSON.parse(problems[0]!);
}

function expectOneLineHint(lines: string[], setting: string, port: number) {
  // The hint, and nothing else: no stack, no raw EADDRINUSE.
  expect(theOneProblem(lines)).toMatchObject({
    level: 60, setting, port, msg: `Port ${port} is already in use (${setting}): stop what listens there, or set ${setting} to a free port`,
  });
}

describe('a port in use at start', () => {
  it('PORT: one line naming it, exit 1', async () => {
    const port = await takenPort();
    const { code, lines } = await start({ ...EXTERNAL_DATABASE(), ...EXTERNAL_S3(), PORT: String(port) });
    expect(code).toBe(1);
    expectOneLineHint(lines, 'PORT', port);
  });

  it('EMBEDDED_S3_PORT: one line naming it, exit 1', async () => {
    const port = await takenPort();
    const { code, lines } = await start({ ...EXTERNAL_DATABASE(), EMBEDDED_S3_PORT: String(port) });
    expect(code).toBe(1);
    expectOneLineHint(lines, 'EMBEDDED_S3_PORT', port);
  });

  it('EMBEDDED_PG_PORT: one line naming it, exit 1', async () => {
    const port = await takenPort();
    const { code, lines } = await start({ EMBEDDED_PG_PORT: String(port) });
    expect(code).toBe(1);
    expectOneLineHint(lines, 'EMBEDDED_PG_PORT', port);
  });

  it('PORT, with the embedded PostgreSQL already started: it is stopped again', async () => {
    const port = await takenPort();
    const databasePort = await freePort();
    const { code, lines } = await start({ PORT: String(port), EMBEDDED_PG_PORT: String(databasePort) });
    expect(code).toBe(1);
    expectOneLineHint(lines, 'PORT', port);
    expect(await postgresAnswers(`postgresql://postgres:postgres@127.0.0.1:${databasePort}/postgres`)).toBe(false);
  });
});

describe('EMBEDDED_PG_PORT held by a PostgreSQL', () => {
  it('of another data folder (another instance): one line naming it, exit 1, its data not served', async () => {
    const otherDir = await mkdtemp(join(tmpdir(), 'other-instance-'));
    folders.push(otherDir);
    await chmod(otherDir, 0o755);
    const port = await freePort();
    const other = await startEmbeddedPostgres({ dataDir: join(otherDir, 'postgres'), port, ephemeral: true });
    databases.push(other);
    const { code, lines } = await start({ EMBEDDED_PG_PORT: String(port) });
    expect(code).toBe(1);
    expectOneLineHint(lines, 'EMBEDDED_PG_PORT', port);
    expect(lines.some((line) => line.includes('listening'))).toBe(false);
    // The other instance's server is left alone.
    expect(await postgresAnswers(other.url)).toBe(true);
  }, 120_000);

  it('of our own data folder, left running by a crash: taken over, served, and stopped when the service stops', async () => {
    const databasePort = String(await freePort());
    const first = await launch({ EMBEDDED_PG_PORT: databasePort });
    await waitFor(async () => first.lines().some((line) => line.includes('listening')), 'the first start', 90_000);
    // A crash (OOM kill): no exit handler runs, PostgreSQL (its own process group) stays.
    first.child.kill('SIGKILL');
    await first.exited;
    const adminUrl = `postgresql://postgres:postgres@127.0.0.1:${databasePort}/postgres`;
    expect(await postgresAnswers(adminUrl)).toBe(true);

    const second = await launch({ EMBEDDED_PG_PORT: databasePort, DATA_DIR: first.dataDir });
    await waitFor(async () => second.lines().some((line) => line.includes('listening')) || second.child.exitCode !== null, 'the second start', 90_000);
    expect(second.child.exitCode).toBe(null);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    second.child.kill('SIGTERM');
    const [code] = await second.exited;
    expect(code).toBe(0);
    expect(await postgresAnswers(adminUrl)).toBe(false);
  }, 180_000);
});

describe('a DATA_DIR whose PostgreSQL runs on another port', () => {
  it('one line naming EMBEDDED_PG_PORT and the running port, exit 1, no stack; the running server left alone', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'held-data-'));
    folders.push(dataDir);
    await chmod(dataDir, 0o755);
    // The service already running on this DATA_DIR, as far as PostgreSQL's folder goes.
    const runningPort = await freePort();
    const running = await startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres'), port: runningPort });
    databases.push(running);
    const port = await freePort();
    const { code, lines } = await start({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) });
    expect(code).toBe(1);
    expect(theOneProblem(lines)).toMatchObject({
      level: 60, setting: 'EMBEDDED_PG_PORT', port, runningPort, msg: expect.stringContaining(`set EMBEDDED_PG_PORT=${runningPort} to share it`),
    });
    expect(await postgresAnswers(running.url)).toBe(true);
  }, 120_000);
});

describe('a DATA_DIR PostgreSQL may not use', () => {
  it('one line naming DATA_DIR and what to do, exit 1, no stack', async () => {
    // As root (PostgreSQL then runs as "postgres"): a 0700 folder of root's, as `mktemp -d` makes.
    // As another user: a folder of its own it may not write into.
    const made = await mkdtemp(join(tmpdir(), 'private-data-'));
    folders.push(made);
    const dataDir = process.getuid?.() === 0 ? made : join(made, 'inside');
    if (dataDir !== made) await chmod(made, 0o500);
    const { code, lines } = await start({ DATA_DIR: dataDir });
    await chmod(made, 0o700);
    expect(code).toBe(1);
    const problem = theOneProblem(lines);
    expect(problem).toMatchObject({ level: 60, setting: 'DATA_DIR' });
    expect(problem.msg).toMatch(/^DATA_DIR: PostgreSQL cannot use .*permission denied.*chmod 755.*DATABASE_URL/);
    expect(problem.msg).toContain(dataDir);
  }, 120_000);
});
