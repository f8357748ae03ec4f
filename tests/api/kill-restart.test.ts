// Kill and restart during async work: the real service runs as a child process
// (as `npm start` does), an analyze-async job is caught while it runs, the
// process is killed with SIGKILL (no graceful shutdown, no chance to put the
// job back), and a new process on the same database and job queue must finish
// the job: not lost, done once, within a bounded time.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/client.ts';
import { EMBEDDED_CREDENTIALS } from '../../src/storage/embedded-s3.ts';
import { TEST_BUCKET } from '../setup/servers.ts';
import { restClient } from '../helpers/http.ts';
import { freePort } from '../helpers/ports.ts';
import { textImage } from '../helpers/sample-files.ts';
import { createOrganization, type TestOrganization } from '../helpers/service.ts';
import { formWith, upload } from '../helpers/uploads.ts';
import { waitFor } from '../helpers/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The job queue both processes work: the restarted one must see the killed one's job. */
const QUEUE_SCHEMA = `jobs_kill_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
/** A killed worker's job is retried once it has been active this long (ANALYSIS_JOB_EXPIRE_SECONDS). */
const EXPIRE_SECONDS = 30;
/** How often the queue looks for such jobs (JOB_QUEUE_MAINTENANCE_SECONDS). */
const MAINTENANCE_SECONDS = 1;
/** Retry delay of analysis jobs (src/analysis/analysis-service.ts). */
const RETRY_DELAY_SECONDS = 5;
const PAGES = 1;

interface Child {
  process: ChildProcess;
  url: string;
  output: string[];
}

const children = new Set<Child>();
let db: Database;
let org: TestOrganization;
let dataDir: string;

/** The service as `npm start` runs it, in its own process group (its analysis engine process included). */
async function startChild(): Promise<Child> {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    // The test run's PostgreSQL and S3 server: the child starts neither itself.
    DATABASE_URL: inject('databaseUrl'),
    DATABASE_POOL_SIZE: '5',
    S3_ENDPOINT: inject('s3Endpoint'),
    S3_BUCKET: TEST_BUCKET,
    S3_ACCESS_KEY_ID: EMBEDDED_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: EMBEDDED_CREDENTIALS.secretAccessKey,
    DOCUMENT_ANALYSIS_ENGINE: 'local',
    WATCHLIST_SOURCES: '[]',
    WATCHLIST_REFRESH_CRON: 'off',
    ADVERSE_MEDIA_PROVIDER: 'off',
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_ORGANIZATION: '0',
    JOB_QUEUE_SCHEMA: QUEUE_SCHEMA,
    JOB_QUEUE_MAINTENANCE_SECONDS: String(MAINTENANCE_SECONDS),
    ANALYSIS_JOB_EXPIRE_SECONDS: String(EXPIRE_SECONDS),
    // Below the expiry, so that a live attempt is never taken for a dead one.
    ANALYSIS_TIMEOUT_MS: String((EXPIRE_SECONDS - 10) * 1000),
  };
  const child: Child = {
    process: spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }),
    url: `http://127.0.0.1:${port}`,
    output: [],
  };
  children.add(child);
  const keep = (chunk: Buffer) => {
    child.output.push(...chunk.toString().split('\n').filter((line) => line && !line.includes('"msg":"request"')));
    child.output.splice(0, Math.max(0, child.output.length - 200));
  };
  child.process.stdout!.on('data', keep);
  child.process.stderr!.on('data', keep);
  try {
    await waitFor(async () => {
      if (exited(child)) throw new Error(`the service exited at start (${child.process.exitCode ?? child.process.signalCode})`);
      return fetch(`${child.url}/readyz`).then((response) => response.ok, () => false);
    }, 'the service to be ready', 60_000, 100);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${child.output.join('\n')}`);
  }
  return child;
}

const exited = (child: Child) => child.process.exitCode !== null || child.process.signalCode !== null;

/** SIGKILL to the whole process group: the server and its analysis engine process die at once, as in a crash. */
async function kill(child: Child) {
  if (!exited(child)) {
    const gone = once(child.process, 'exit');
    try {
      process.kill(-child.process.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await gone;
  }
  // Engine processes of the group outlive the leader for a moment.
  await waitFor(async () => {
    try {
      process.kill(-child.process.pid!, 0);
      return false;
    } catch {
      return true;
    }
  }, 'the killed process group to be gone', 10_000, 50);
  children.delete(child);
}

/** A scanned PDF (images only, so every page goes through OCR: seconds per page): slow enough to be caught running. */
async function scannedPages(pages: string[][]): Promise<Buffer> {
  const { PDFDocument } = await import('pdf-lib');
  const document = await PDFDocument.create();
  for (const lines of pages) {
    const image = await document.embedPng(await textImage(lines, { width: 1240 }));
    const page = document.addPage([595, 842]);
    page.drawImage(image, { x: 0, y: 842 - (image.height * 595) / image.width, width: 595, height: (image.height * 595) / image.width });
  }
  return Buffer.from(await document.save());
}

/** The pg-boss job(s) of one analysis, wherever pg-boss keeps them (queue table or archive). */
async function queueJobs(analysisId: string) {
  return db.$queryRawUnsafe<Array<{ id: string; state: string; retry_count: number }>>(
    `SELECT id::text, state::text, retry_count FROM ${QUEUE_SCHEMA}.job WHERE data->>'analysisId' = $1
     UNION ALL SELECT id::text, state::text, retry_count FROM ${QUEUE_SCHEMA}.archive WHERE data->>'analysisId' = $1`,
    analysisId,
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kill-restart-'));
  db = createDatabase(inject('databaseUrl'), 2);
  org = await createOrganization(db, undefined, 'kill-restart');
});

afterAll(async () => {
  for (const child of [...children]) await kill(child);
  await db?.$disconnect();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// If the test process itself dies, take the children along (best effort, synchronous).
process.once('exit', () => {
  for (const child of children) {
    try {
      process.kill(-child.process.pid!, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
});

describe('SIGKILL during an analyze-async job, then a restart', () => {
  it('finishes the job once, on the restarted process, within a bounded time', async () => {
    const pages = Array.from({ length: PAGES }, (_, i) => [`Statement page ${i + 1}`, `Account holder Ada Lovelace ${1000 + i}`, 'Balance carried forward']);
    const first = await startChild();
    const rest = restClient(first.url, org.key);
    const uploaded = await upload(first.url, org.key, 'private', formWith([{ name: 'file', data: await scannedPages(pages), filename: 'scan.pdf' }]));
    expect(uploaded.status).toBe(201);
    const fileKey = uploaded.body.fileKey as string;

    const queued = await rest('POST', '/v1/document-analysis/analyze-async?wait=false', { fileKey });
    expect(queued.status).toBe(202);
    const { jobId } = queued.body.data as { jobId: string };

    // Running: the API says so (the worker has taken the job and started the engine).
    await waitFor(async () => {
      const job = (await rest('GET', `/v1/document-analysis/jobs/${jobId}`)).body.data;
      if (job.status === 'SUCCEEDED' || job.status === 'FAILED') throw new Error(`the job ended (${job.status}) before it could be caught running`);
      return job.status === 'RUNNING';
    }, 'the job to run', 30_000, 50);
    // Well into the OCR of the first pages, then kill: no graceful stop, nothing handed back.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await kill(first);
    const killedAt = Date.now();

    // The kill interrupted unfinished work: the record is still RUNNING and the job is
    // still active in the queue (only its expiry can tell it was abandoned).
    const interrupted = await db.documentAnalysis.findUniqueOrThrow({ where: { id: jobId } });
    expect(interrupted, 'the analysis finished before the kill: make the document slower').toMatchObject({ status: 'RUNNING', completedAt: null });
    expect(await queueJobs(jobId)).toEqual([expect.objectContaining({ state: 'active', retry_count: 0 })]);

    // A new process on the same database and queue.
    const second = await startChild();
    const done = await waitFor(async () => {
      const job = (await restClient(second.url, org.key)('GET', `/v1/document-analysis/jobs/${jobId}`)).body.data;
      if (job.status === 'FAILED') throw new Error(`the job failed after the restart: ${job.error}\n${second.output.join('\n')}`);
      return job.status === 'SUCCEEDED' ? job : null;
    }, 'the job to finish after the restart', (EXPIRE_SECONDS + 60) * 1000, 250);
    const recoveredSeconds = (Date.now() - killedAt) / 1000;

    // Not lost: the full result of every page.
    expect(done).toMatchObject({ jobId, status: 'SUCCEEDED', pageCount: PAGES });
    for (const lines of pages) for (const word of lines.join(' ').split(' ')) expect(done.textContent).toContain(word);
    // Done by the restarted process: the abandoned attempt expired and was retried there.
    const record = await db.documentAnalysis.findUniqueOrThrow({ where: { id: jobId } });
    expect(record.startedAt!.getTime()).toBeGreaterThan(killedAt);
    // Bounded: about expiry + maintenance + retry delay + the analysis itself.
    expect(recoveredSeconds).toBeLessThan(EXPIRE_SECONDS + MAINTENANCE_SECONDS + RETRY_DELAY_SECONDS + 40);

    // Once: one analysis record for the file, one `document.analyzed` event (what webhook
    // subscribers receive), one queue job (one retry, completed), and nothing runs it
    // again afterwards (past several maintenance rounds).
    await new Promise((resolve) => setTimeout(resolve, (MAINTENANCE_SECONDS + RETRY_DELAY_SECONDS) * 1000));
    expect(await db.documentAnalysis.count({ where: { fileId: record.fileId } })).toBe(1);
    const events = await db.event.findMany({ where: { organizationId: org.id, resourceId: jobId } });
    expect(events).toEqual([expect.objectContaining({ type: 'document.analyzed', data: expect.objectContaining({ status: 'SUCCEEDED' }) })]);
    const [jobs, after] = await Promise.all([queueJobs(jobId), db.documentAnalysis.findUniqueOrThrow({ where: { id: jobId } })]);
    expect(jobs).toEqual([expect.objectContaining({ state: 'completed', retry_count: 1 })]);
    expect(after).toMatchObject({ status: 'SUCCEEDED', startedAt: record.startedAt, completedAt: record.completedAt });
    const analysisSeconds = (record.completedAt!.getTime() - record.startedAt!.getTime()) / 1000;
    console.info(`kill-restart: job ${jobId} finished ${recoveredSeconds.toFixed(1)} s after the kill (expiry ${EXPIRE_SECONDS} s, analysis ${analysisSeconds.toFixed(1)} s)`);

    await kill(second);
  }, (EXPIRE_SECONDS + 120) * 1000);
});
