import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { inject } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-keys.ts';
import { ALL_PERMISSIONS, type Permission } from '../../src/auth/permissions.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { createLogger } from '../../src/logger.ts';
import { type RunningService, startService } from '../../src/service.ts';
import { EMBEDDED_CREDENTIALS } from '../../src/storage/embedded-s3.ts';
import { TEST_BUCKET } from '../setup/servers.ts';
import { graphqlClient, restClient } from './http.ts';

/** The real service on a free loopback port, over the test run's PostgreSQL. */
export async function startTestService(
  options: { databaseUrl?: string; logger?: Logger; env?: Record<string, string> } = {},
): Promise<RunningService> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: options.databaseUrl ?? inject('databaseUrl'),
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_POOL_SIZE: '5',
    S3_ENDPOINT: inject('s3Endpoint'),
    S3_BUCKET: TEST_BUCKET,
    S3_ACCESS_KEY_ID: EMBEDDED_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: EMBEDDED_CREDENTIALS.secretAccessKey,
    // No list downloads unless a test configures sources (there is no network here).
    WATCHLIST_SOURCES: '[]',
    // Each test service works only its own jobs: services with other settings
    // (lists, media provider) share the database but must not take them.
    JOB_QUEUE_SCHEMA: `jobs_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
    // Tests make many requests quickly; tests/api/rate-limits.test.ts sets limits itself.
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_ORGANIZATION: '0',
    ...options.env,
  });
  return startService(config, options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'));
}

/** Two instances of the service over one database with the same settings: for what they must share. */
export async function startServicePair(env: Record<string, string>): Promise<[RunningService, RunningService]> {
  const [first, second] = await Promise.all([startTestService({ env }), startTestService({ env })]);
  return [first, second];
}

export interface TestOrganization {
  id: string;
  name: string;
  key: string;
}

/** A fresh organization (unique name) with one key holding `permissions`. */
export async function createOrganization(
  db: Database,
  permissions: readonly Permission[] = ALL_PERMISSIONS,
  label = 'org',
): Promise<TestOrganization> {
  const organization = await db.organization.create({ data: { name: `${label}-${randomUUID()}` } });
  const key = await createKey(db, organization.id, permissions);
  return { id: organization.id, name: organization.name, key };
}

export async function createKey(db: Database, organizationId: string, permissions: readonly Permission[], label?: string) {
  const key = generateApiKey();
  await db.apiKey.create({
    data: { organizationId, prefix: displayPrefix(key), hash: hashApiKey(key), permissions: [...permissions], label },
  });
  return key;
}

/** Two organizations with every permission and a REST and GraphQL client each: for isolation tests. */
export async function twoOrganizations(service: RunningService) {
  const orgA = await createOrganization(service.db, undefined, 'org-a');
  const orgB = await createOrganization(service.db, undefined, 'org-b');
  return {
    orgA, orgB,
    restA: restClient(service.url, orgA.key), restB: restClient(service.url, orgB.key),
    gqlA: graphqlClient(service.url, orgA.key), gqlB: graphqlClient(service.url, orgB.key),
  };
}
