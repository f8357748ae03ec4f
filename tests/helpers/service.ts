import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { inject } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-keys.ts';
import { ALL_PERMISSIONS, type Permission } from '../../src/auth/permissions.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { createLogger } from '../../src/logger.ts';
import { type RunningService, startService } from '../../src/service.ts';

/** The real service on a free loopback port, over the test run's PostgreSQL. */
export async function startTestService(options: { databaseUrl?: string; logger?: Logger } = {}): Promise<RunningService> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: options.databaseUrl ?? inject('databaseUrl'),
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_POOL_SIZE: '5',
  });
  return startService(config, options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'));
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

export async function createKey(db: Database, organizationId: string, permissions: readonly Permission[]) {
  const key = generateApiKey();
  await db.apiKey.create({
    data: { organizationId, prefix: displayPrefix(key), hash: hashApiKey(key), permissions: [...permissions] },
  });
  return key;
}
