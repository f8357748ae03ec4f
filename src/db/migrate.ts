import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations/', import.meta.url));
// Any fixed 64-bit number: serialises migrators of several app instances.
const MIGRATION_LOCK = 72_901_451_337;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

/**
 * Applies prisma/migrations/<name>/migration.sql in order and records them in
 * Prisma's own `_prisma_migrations` table (same checksum: SHA-256 of the
 * file), so `prisma migrate deploy` and `migrate status` agree with us where
 * Prisma's native engine is available. Prisma 7's migrate commands need that
 * engine, which cannot be downloaded here.
 *
 * They run as the service's own role, not a superuser: an administrator sets
 * the database up for it once (src/db/database-setup.ts, docs/database.md).
 */
export async function migrate(connectionString: string): Promise<MigrationResult> {
  const names = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const result: MigrationResult = { applied: [], alreadyApplied: [] };
    for (const name of names) {
      const sql = await readFile(`${MIGRATIONS_DIR}${name}/migration.sql`, 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const recorded = done.get(name);
      if (recorded !== undefined) {
        if (recorded !== checksum) {
          throw new Error(`Migration ${name} was changed after it was applied (checksum mismatch)`);
        }
        result.alreadyApplied.push(name);
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), checksum, name],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${name} failed: ${(error as Error).message}${hintFor(error)}`, { cause: error });
      }
      result.applied.push(name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

/** What to do when a migration needs a right the connecting role lacks. */
function hintFor(error: unknown) {
  const { code, hint } = error as { code?: string; hint?: string };
  if (hint) return ` (${hint})`;
  // insufficient_privilege
  return code === '42501' ? ' (an administrator sets the database up for the service once: npm run db:setup, docs/database.md)' : '';
}
