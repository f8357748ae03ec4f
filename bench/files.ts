// File storage benchmark: 10 concurrent 20 MB uploads and downloads through
// the app (REST multipart in, public file path out) next to the raw AWS SDK
// doing the same against the same S3 server, with peak memory of each.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { displayPrefix, generateApiKey, hashApiKey } from '../src/auth/api-keys.ts';
import { ALL_PERMISSIONS } from '../src/auth/permissions.ts';
import { createDatabase } from '../src/db/client.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { EMBEDDED_CREDENTIALS } from '../src/storage/embedded-s3.ts';

export interface FileBenchResult {
  files: number;
  fileBytes: number;
  rounds: Array<{ app: Measure; raw: Measure }>;
}
interface Measure {
  uploadMBps: number;
  downloadMBps: number;
  peakMB: number;
}

const FILES = 10;
const FILE_BYTES = 20_000_000; // 20 MB, under the default 20 MiB limit
const BUCKET = 'bench-files';
const MB = 1_000_000;

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

function node(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
}

async function firstLine(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  return line;
}

/** kB values of /proc/<pid>/status fields. */
async function memory(pid: number) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

async function resetPeak(pid: number) {
  // Linux: writing 5 to clear_refs resets the peak RSS (VmHWM) to the current RSS.
  await writeFile(`/proc/${pid}/clear_refs`, '5');
}

export async function runFileBench(): Promise<FileBenchResult> {
  const work = await mkdtemp(join(tmpdir(), 'bench-files-'));
  const children: ChildProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  try {
    const paths: string[] = [];
    for (let i = 0; i < FILES; i++) {
      const path = join(work, `file-${i}.pdf`);
      // A PDF signature so the app accepts it; the rest is incompressible noise.
      await writeFile(path, Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(FILE_BYTES - 9)]));
      paths.push(path);
    }
    // Its own folder: PostgreSQL may run as another user than ours.
    const pgDir = await mkdtemp(join(tmpdir(), 'bench-pg-'));
    cleanups.push(() => rm(pgDir, { recursive: true, force: true }));
    const pg = await startEmbeddedPostgres({ dataDir: pgDir, port: await freePort(), ephemeral: true });
    await migrate(pg.url);
    const db = createDatabase(pg.url, 2);
    const organization = await db.organization.create({ data: { name: 'bench' } });
    const key = generateApiKey();
    await db.apiKey.create({ data: { organizationId: organization.id, prefix: displayPrefix(key), hash: hashApiKey(key), permissions: ALL_PERMISSIONS } });

    const s3 = node(['bench/s3-server.ts', join(work, 's3'), BUCKET]);
    children.push(s3);
    const { endpoint } = JSON.parse(await firstLine(s3)) as { endpoint: string };

    const total = FILES * FILE_BYTES;
    const rounds: FileBenchResult['rounds'] = [];
    for (let round = 0; round < 3; round++) {
      // A fresh app process per round, so its memory figure is not flattered
      // by heap kept from the round before.
      const port = await freePort();
      const app = node(['src/server.ts'], {
        NODE_ENV: 'production', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: pg.url,
        S3_ENDPOINT: endpoint, S3_BUCKET: BUCKET, S3_ACCESS_KEY_ID: EMBEDDED_CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: EMBEDDED_CREDENTIALS.secretAccessKey, TMPDIR: work,
      });
      children.push(app);
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 200; i++) {
        if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The app: REST multipart uploads, then downloads through its public path.
      const idle = await memory(app.pid!);
      await resetPeak(app.pid!);
      let started = performance.now();
      const uploaded = await Promise.all(
        paths.map(async (path) => {
          const form = new FormData();
          form.append('file', await openAsBlob(path), 'bench.pdf');
          const response = await fetch(`${base}/v1/files/upload/public`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
          if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
          return (await response.json()) as { url: string };
        }),
      );
      const appUploadMs = performance.now() - started;
      started = performance.now();
      await Promise.all(
        uploaded.map(async ({ url }) => {
          const response = await fetch(url);
          let bytes = 0;
          const reader = response.body!.getReader();
          for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.length;
          if (bytes !== FILE_BYTES) throw new Error(`download returned ${bytes} bytes`);
        }),
      );
      const appDownloadMs = performance.now() - started;
      const appPeak = (await memory(app.pid!)).peak - idle.rss;
      app.kill('SIGTERM');
      await once(app, 'exit');
      children.splice(children.indexOf(app), 1);

      // The raw SDK in its own process, same files, same server.
      const raw = node(['bench/raw-s3.ts', endpoint, BUCKET, ...paths]);
      const rawResult = JSON.parse(await firstLine(raw)) as { uploadMs: number; downloadMs: number; idleRss: number; peakRss: number };
      await once(raw, 'exit');
      rounds.push({
        app: { uploadMBps: total / MB / (appUploadMs / 1000), downloadMBps: total / MB / (appDownloadMs / 1000), peakMB: appPeak / MB },
        raw: {
          uploadMBps: total / MB / (rawResult.uploadMs / 1000),
          downloadMBps: total / MB / (rawResult.downloadMs / 1000),
          peakMB: (rawResult.peakRss - rawResult.idleRss) / MB,
        },
      });
    }
    await db.$disconnect();
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => once(child, 'exit')));
    children.length = 0;
    await pg.stop();
    return { files: FILES, fileBytes: FILE_BYTES, rounds };
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await rm(work, { recursive: true, force: true });
    for (const cleanup of cleanups) await cleanup();
  }
}
