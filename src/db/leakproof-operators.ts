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
 * pg_upgrade, so it is checked at every start.
 */
export const INDEXABLE_OPERATORS = ['pg_catalog.enum_eq(anyenum, anyenum)', 'pg_catalog.texticlike(text, text)'];

/** Marks the operators LEAKPROOF when connected as a superuser; otherwise says what an operator has to run. */
export async function ensureLeakproofOperators(connectionString: string, logger: Logger) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ signature: string }>(
      `SELECT signature FROM unnest($1::text[]) AS signature WHERE NOT (SELECT proleakproof FROM pg_proc WHERE oid = signature::regprocedure)`,
      [INDEXABLE_OPERATORS],
    );
    if (!rows.length) return { marked: [], missing: [] };
    const [{ rolsuper }] = (await client.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows as [{ rolsuper: boolean }];
    const statements = rows.map(({ signature }) => `ALTER FUNCTION ${signature} LEAKPROOF;`);
    if (rolsuper) {
      for (const statement of statements) await client.query(statement);
      logger.info({ functions: rows.map((r) => r.signature) }, 'marked operators LEAKPROOF so filters under row-level security use their indexes');
      return { marked: rows.map((r) => r.signature), missing: [] };
    }
    logger.warn(
      { functions: rows.map((r) => r.signature), run: statements.join(' ') },
      'status filters and search cannot use their indexes under row-level security until a superuser marks these functions LEAKPROOF (README, Operations)',
    );
    return { marked: [], missing: rows.map((r) => r.signature) };
  } finally {
    await client.end();
  }
}
