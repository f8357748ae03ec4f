import pg from 'pg';
import type { Logger } from 'pino';

/**
 * Under row-level security PostgreSQL lets a query's condition use an index
 * only when the condition's function is LEAKPROOF (it cannot reveal anything
 * about rows the policy hides). Two built-in functions that the API's
 * filters rely on are not marked so, although neither can leak: enum
 * equality (status and priority filters) never fails, and case-insensitive
 * LIKE (search) fails only on a malformed pattern, which is the query's, not
 * a row's (and the API escapes its patterns). Unmarked, a status filter or a
 * search reads every row of the organization instead of its index entries.
 * Marking them needs a superuser and is lost when a cluster is upgraded with
 * pg_upgrade, so the database set-up (src/db/database-setup.ts) marks them
 * and every start checks them.
 */
export const INDEXABLE_OPERATORS = ['pg_catalog.enum_eq(anyenum, anyenum)', 'pg_catalog.texticlike(text, text)'];

/** The operators not yet LEAKPROOF in the connected database (the mark is per database). */
async function unmarkedOperators(client: pg.Client) {
  const { rows } = await client.query<{ signature: string }>(
    `SELECT signature FROM unnest($1::text[]) AS signature WHERE NOT (SELECT proleakproof FROM pg_proc WHERE oid = signature::regprocedure)`,
    [INDEXABLE_OPERATORS],
  );
  return rows.map((row) => row.signature);
}

const isSuperuser = async (client: pg.Client) =>
  (await client.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows[0]?.rolsuper === true;

/**
 * Marks the operators LEAKPROOF when the client is a superuser's; answers
 * what was marked and what is still missing (it is not one).
 */
export async function markLeakproofOperators(client: pg.Client) {
  const unmarked = await unmarkedOperators(client);
  if (!unmarked.length) return { marked: [], missing: [] };
  if (!(await isSuperuser(client))) return { marked: [], missing: unmarked };
  for (const signature of unmarked) await client.query(`ALTER FUNCTION ${signature} LEAKPROOF`);
  return { marked: unmarked, missing: [] };
}

/** Marks the operators LEAKPROOF when connected as a superuser; otherwise says what an operator has to run. */
export async function ensureLeakproofOperators(connectionString: string, logger: Logger) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const result = await markLeakproofOperators(client);
    if (result.marked.length) {
      logger.info({ functions: result.marked }, 'marked operators LEAKPROOF so filters under row-level security use their indexes');
    }
    if (result.missing.length) {
      logger.warn(
        { functions: result.missing, run: result.missing.map((signature) => `ALTER FUNCTION ${signature} LEAKPROOF;`).join(' ') },
        'status filters and search cannot use their indexes under row-level security until a superuser marks these functions LEAKPROOF (npm run db:setup, docs/database.md)',
      );
    }
    return result;
  } finally {
    await client.end();
  }
}
