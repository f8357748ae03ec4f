// A search's cost must not tell whether another organization has rows with
// the searched word (migration 20261202100000): its plan never reads another
// organization's rows. The API's own search (the consumerCases query, run
// in-process against the real schema) is explained (ANALYZE) as the tenant
// role, while another organization holds thousands of rows with the word,
// written after the statistics were last gathered (as between two autovacuum
// runs), and the plan is read, not timed.
import { randomUUID } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { execute, parse } from 'graphql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Context } from '../../src/context.ts';
import { forOrganization, SharedReadTransaction } from '../../src/db/tenant.ts';
import { PrismaClient } from '../../src/generated/prisma/client.ts';
import { schema } from '../../src/schema/index.ts';

const url = inject('databaseUrl');
const client = new pg.Client({ connectionString: url });
const caller = randomUUID();
const other = randomUUID();
const bystander = randomUUID();
const CALLER_ROWS = 1_500;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The SQL the consumerCases search sends, with its parameters, captured from Prisma. */
async function searchStatements(search: string) {
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 1 }), log: [{ emit: 'event', level: 'query' }] });
  const captured: Array<{ sql: string; params: unknown[] }> = [];
  db.$on('query', (event) => captured.push({ sql: event.query, params: JSON.parse(event.params) as unknown[] }));
  try {
    const context: Partial<Context> = {
      requestId: 'search-isolation',
      apiKey: { id: 'search-isolation', organizationId: caller, name: 'search-isolation', permissions: new Set(['consumer_cases:read']) },
      readTransaction: new SharedReadTransaction(),
      db: forOrganization(db, caller, { actor: 'search-isolation' }),
    } as Partial<Context>;
    const result = await execute({
      schema, contextValue: context, variableValues: { search },
      document: parse('query ($search: String) { consumerCases(search: $search, limit: 20) { items { id } meta { total } } }'),
    });
    expect(result.errors).toBeUndefined();
    return captured.filter((statement) => /ILIKE/.test(statement.sql));
  } finally {
    await db.$disconnect();
  }
}

/** The plan's nodes, run (ANALYZE) as the caller's tenant: the row-level security policy applies. */
async function tenantPlan(sql: string, params: unknown[]) {
  await client.query('BEGIN');
  try {
    await client.query("SELECT set_config('role', 'compliance_tenant', TRUE), set_config('app.organization_id', $1, TRUE)", [caller]);
    const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
    return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
  } finally {
    await client.query('ROLLBACK');
  }
}

beforeAll(async () => {
  await client.connect();
  await client.query('INSERT INTO organizations (id, name) VALUES ($1, $2), ($3, $4), ($5, $6)', [
    caller, `search-caller-${caller}`, other, `search-other-${other}`, bystander, `search-bystander-${bystander}`,
  ]);
  const cases = (organization: string, count: number, lastName: string, email: string) =>
    client.query(
      `INSERT INTO consumer_cases (id, organization_id, email, first_name, last_name, updated_at)
       SELECT gen_random_uuid(), $1, format($4, n), 'Grace', format($3, n), now() FROM generate_series(1, $2) AS n`,
      [organization, count, lastName, email],
    );
  // The caller: a few Lovelaces among many others. A bystander, so the caller is not the whole table.
  await cases(caller, CALLER_ROWS - 15, 'Hopper-%s', 'grace%s@caller.example');
  await cases(caller, 15, 'Lovelace', 'ada%s@caller.example');
  await cases(bystander, 3_000, 'Turing-%s', 'alan%s@bystander.example');
  await client.query('ANALYZE consumer_cases');
  // Then another organization writes thousands of rows with the word.
  await cases(other, 6_000, 'Lovelace-%s', 'lovelace%s@other.example');
});
afterAll(async () => {
  await client.query('DELETE FROM consumer_cases WHERE organization_id = ANY ($1::uuid[])', [[caller, other, bystander]]);
  await client.query('DELETE FROM organizations WHERE id = ANY ($1::uuid[])', [[caller, other, bystander]]);
  await client.end();
});

describe('search under row-level security', () => {
  it.each(['lovelace', 'zqxjvw'])('reads none of another organization\'s rows (searching "%s")', async (search) => {
    const statements = await searchStatements(search);
    // The page, and the total when the page does not tell it.
    expect(statements.length).toBeGreaterThan(0);
    const indexNames = new Set((await client.query<{ name: string }>("SELECT indexname AS name FROM pg_indexes WHERE tablename = 'consumer_cases'")).rows.map((r) => r.name));
    for (const { sql, params } of statements) {
      const nodes = await tenantPlan(sql, params);
      const plan = JSON.stringify(nodes.map((node) => ({ ...node, Plans: undefined })), null, 1);
      const onTable = nodes.filter((node) => node['Relation Name'] === 'consumer_cases');
      expect(onTable.length, plan).toBeGreaterThan(0);
      // No scan of the whole table...
      expect(onTable.filter((node) => node['Node Type'] === 'Seq Scan'), plan).toEqual([]);
      // ...and every index scan of it is bounded by the organization.
      const indexScans = nodes.filter((node) => node['Index Name'] && indexNames.has(node['Index Name']));
      expect(indexScans.length, plan).toBeGreaterThan(0);
      expect(indexScans.filter((node) => !/organization_id = /.test(node['Index Cond'] ?? '')), plan).toEqual([]);
      // So every row it fetched, kept or dropped, was one of the caller's.
      const fetched = onTable.reduce(
        (sum, node) => sum + (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * node['Actual Loops'],
        0,
      );
      expect(fetched, plan).toBeLessThanOrEqual(CALLER_ROWS);
    }
  });
});
