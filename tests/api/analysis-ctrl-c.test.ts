// Ctrl-C in a terminal sends SIGINT to the whole foreground process group.
// The analysis engine's processes have a group of their own, so the signal
// reaches only the service, which finishes the analysis in flight and then
// stops its engine processes itself.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/client.ts';
import { EMBEDDED_CREDENTIALS } from '../../src/storage/embedded-s3.ts';
import { TEST_BUCKET } from '../setup/servers.ts';
import { slowScanPdf } from '../helpers/bombs.ts';
import { restClient } from '../helpers/http.ts';
import { freePort } from '../helpers/ports.ts';
import { createOrganization, type TestOrganization } from '../helpers/service.ts';
import { formWith, upload } from '../helpers/uploads.ts';
import { waitFor } from '../helpers/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let db: Database;
let org: TestOrganization;
let service: ChildProcess | undefined;

beforeAll(async () => {
  db = createDatabase(inject('databaseUrl'));
  org = await createOrganization(db, undefined, 'ctrl-c-analysis');
});
afterAll(async () => {
  if (service?.pid && service.exitCode === null && service.signalCode === null) process.kill(-service.pid, 'SIGKILL');
  await db?.$disconnect();
});

/** Live processes whose parent is `parent` and whose command line mentions `text`. */
function childrenOf(parent: number, text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === parent && state !== 'Z' && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

describe('Ctrl-C while an analysis runs', () => {
  it('finishes the analysis (200), exits 0, and leaves no engine process behind', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const output: string[] = [];
    service = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: ROOT,
      // Its own group, as a shell gives a foreground job: the signal below goes to that group.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port),
        DATABASE_URL: inject('databaseUrl'), S3_ENDPOINT: inject('s3Endpoint'), S3_BUCKET: TEST_BUCKET,
        S3_ACCESS_KEY_ID: EMBEDDED_CREDENTIALS.accessKeyId, S3_SECRET_ACCESS_KEY: EMBEDDED_CREDENTIALS.secretAccessKey,
        WATCHLIST_SOURCES: '[]', WATCHLIST_REFRESH_CRON: 'off', ADVERSE_MEDIA_PROVIDER: 'off', DOCUMENT_ANALYSIS_ENGINE: 'local',
        JOB_QUEUE_SCHEMA: 'jobs_ctrl_c_analysis',
      },
    });
    const keep = (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean));
    service.stdout!.on('data', keep);
    service.stderr!.on('data', keep);
    const exit = once(service, 'exit');
    await waitFor(async () => {
      if (service!.exitCode !== null) throw new Error(`the service exited at start:\n${output.join('\n')}`);
      return fetch(`${url}/readyz`).then((response) => response.ok, () => false);
    }, 'the service to be ready', 90_000, 100);

    const uploaded = await upload(url, org.key, 'private', formWith([{ name: 'file', data: await slowScanPdf(4), filename: 'scan.pdf' }]));
    expect(uploaded.status).toBe(201);
    const inFlight = restClient(url, org.key)('POST', '/v1/document-analysis/analyze', { fileKey: uploaded.body.fileKey });
    // The engine process is at work on the scan.
    const engines = await waitFor(async () => {
      const found = childrenOf(service!.pid!, 'local-worker');
      return found.length ? found : null;
    }, 'an engine process', 30_000, 50);
    await waitFor(async () => (await db.documentAnalysis.count({ where: { organizationId: org.id, status: 'RUNNING' } })) > 0, 'the analysis to run', 30_000, 50);

    // What a terminal does on Ctrl-C.
    process.kill(-service.pid!, 'SIGINT');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'SUCCEEDED', pageCount: 4 });
    expect(await exit).toEqual([0, null]);
    expect(engines.filter(alive)).toEqual([]);
    expect(await db.documentAnalysis.count({ where: { organizationId: org.id, status: 'FAILED' } })).toBe(0);
  }, 120_000);
});
