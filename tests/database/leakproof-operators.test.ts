// Filters under row-level security use their indexes once enum equality and
// ILIKE are LEAKPROOF (src/db/leakproof-operators.ts): marked by the database
// set-up and at start when connected as a superuser, named in a warning
// otherwise. The plans are read as the tenant role, where the policy applies
// (tests/database/search-isolation.test.ts reads the search plans).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureLeakproofOperators, INDEXABLE_OPERATORS } from '../../src/db/leakproof-operators.ts';
import { capturedLogs } from '../helpers/logs.ts';

// Marking needs a superuser; the service's role (the test run's) is not one.
const url = inject('adminDatabaseUrl');
const client = new pg.Client({ connectionString: url });
const organization = randomUUID();

/** EXPLAIN of `sql` as the tenant of the organization, with sequential scans ruled out so only a usable index can serve it. */
async function tenantPlan(sql: string, params: unknown[]) {
  await client.query('BEGIN');
  try {
    await client.query("SELECT set_config('role', 'compliance_tenant', TRUE), set_config('app.organization_id', $1, TRUE), set_config('enable_seqscan', 'off', TRUE)", [organization]);
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${sql}`, params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.query('ROLLBACK');
  }
}

const leakproof = async () =>
  (await client.query<{ leakproof: boolean }>(
    'SELECT p.proleakproof AS leakproof FROM unnest($1::text[]) WITH ORDINALITY AS f (signature, n) JOIN pg_proc p ON p.oid = f.signature::regprocedure ORDER BY f.n',
    [INDEXABLE_OPERATORS],
  )).rows.map((r) => r.leakproof);

beforeAll(async () => {
  await client.connect();
  await client.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [organization, `leakproof-${organization}`]);
  // Enough cases, over every status, that the status index is the cheaper plan whatever the rest of the shared database holds.
  await client.query(
    `INSERT INTO consumer_cases (id, organization_id, email, status, updated_at)
     SELECT gen_random_uuid(), $1, 'case' || n || '@example.com', (enum_range(NULL::"ConsumerCaseStatus"))[1 + n % 7], now()
       FROM generate_series(1, 3000) AS n`,
    [organization],
  );
  await client.query('ANALYZE consumer_cases');
});
afterAll(async () => {
  await client.query('DELETE FROM consumer_cases WHERE organization_id = $1', [organization]);
  await client.query('DELETE FROM organizations WHERE id = $1', [organization]);
  // Marked again for the other tests, whatever happened here.
  await ensureLeakproofOperators(url, capturedLogs().logger);
  await client.end();
});

describe('LEAKPROOF operators', () => {
  it('are marked at start by a superuser, and a status filter then uses its index under row-level security', async () => {
    const { logger } = capturedLogs();
    await ensureLeakproofOperators(url, logger);
    expect(await leakproof()).toEqual([true, true]);
    // Only the policy names the organization: the status index serves both conditions, or (unmarked) only the policy's.
    const status = await tenantPlan(`SELECT count(*) FROM consumer_cases WHERE status = 'IN_REVIEW' AND $1::uuid IS NOT NULL`, [organization]);
    expect(status, status).toMatch(/Index Cond: \(\(organization_id = .*\) AND \(status = 'IN_REVIEW'/);
  });

  it('without a superuser (as the service\'s own role), are left alone and named in a warning with the statements to run', async () => {
    await client.query(`ALTER FUNCTION ${INDEXABLE_OPERATORS[0]} NOT LEAKPROOF`);
    try {
      const { logger, lines } = capturedLogs();
      expect(await ensureLeakproofOperators(inject('databaseUrl'), logger)).toEqual({ marked: [], missing: [INDEXABLE_OPERATORS[0]] });
      const warning = lines.map((line) => JSON.parse(line)).find((line) => line.level === 40);
      expect(warning).toMatchObject({ run: `ALTER FUNCTION ${INDEXABLE_OPERATORS[0]} LEAKPROOF;` });
      expect((await leakproof())[0]).toBe(false);
      // The status filter is then only a filter, not an index condition.
      const status = await tenantPlan(`SELECT count(*) FROM consumer_cases WHERE status = 'IN_REVIEW' AND $1::uuid IS NOT NULL`, [organization]);
      expect(status, status).not.toMatch(/Index Cond: .*status/);
    } finally {
      await ensureLeakproofOperators(url, capturedLogs().logger);
    }
  });
});
