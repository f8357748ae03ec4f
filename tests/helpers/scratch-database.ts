import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * A database of its own on the test run's PostgreSQL (a service migrates it
 * when it starts): for a service whose background work (the webhook
 * dispatcher, say) must not pick up rows of other test files' services.
 */
export async function scratchDatabase(label: string) {
  const name = `${label}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
