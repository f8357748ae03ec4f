// EXPLAIN plans of the SQL the service really runs for the list and search
// operations: the routes' own GraphQL documents are executed in this process
// against the real schema, with a Prisma client that reports each statement;
// every statement on consumer_cases or tasks is then explained (ANALYZE,
// BUFFERS) as the tenant role with the organization set, so the plan includes
// row-level security's own condition.
import { PrismaPg } from '@prisma/adapter-pg';
import { execute, parse } from 'graphql';
import pg from 'pg';
import { isPermission } from '../../src/auth/permissions.ts';
import type { Context } from '../../src/context.ts';
import { forOrganization, SharedReadTransaction } from '../../src/db/tenant.ts';
import { PrismaClient } from '../../src/generated/prisma/client.ts';
import { schema } from '../../src/schema/index.ts';
import type { SeededOrganization } from './seed.ts';

export interface ExplainedOperation {
  name: string;
  variables: Record<string, unknown>;
  statements: Array<{ sql: string; plan: string; sequentialScans: string[] }>;
}

export async function explainOperations(
  databaseUrl: string,
  organization: SeededOrganization,
  operations: Array<{ name: string; document: string; variables: Record<string, unknown> }>,
): Promise<ExplainedOperation[]> {
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: 2 }), log: [{ emit: 'event', level: 'query' }] });
  const captured: Array<{ sql: string; params: unknown[] }> = [];
  db.$on('query', (event) => captured.push({ sql: event.query, params: JSON.parse(event.params) as unknown[] }));
  const explainer = new pg.Client({ connectionString: databaseUrl });
  await explainer.connect();
  try {
    const results: ExplainedOperation[] = [];
    for (const operation of operations) {
      captured.length = 0;
      const who = { actor: 'bench explain', requestId: 'explain' };
      const context: Partial<Context> = {
        requestId: 'explain',
        apiKey: { id: 'explain', organizationId: organization.id, name: 'explain', permissions: new Set(['consumer_cases:read', 'tasks:read'].filter(isPermission)) },
        readTransaction: new SharedReadTransaction(),
        db: forOrganization(db, organization.id, who),
      };
      const result = await execute({ schema, document: parse(operation.document), contextValue: context, variableValues: operation.variables });
      if (result.errors?.length) throw new Error(`${operation.name}: ${result.errors[0]!.message}`);
      const statements = [];
      for (const { sql, params } of captured.filter((c) => /FROM "[^"]+"\."(consumer_cases|tasks)"/.test(c.sql))) {
        await explainer.query('BEGIN');
        try {
          await explainer.query(`SELECT set_config('role', 'compliance_tenant', TRUE), set_config('app.organization_id', $1, TRUE)`, [organization.id]);
          const { rows } = await explainer.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          statements.push({ sql, plan, sequentialScans: [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!) });
        } finally {
          await explainer.query('ROLLBACK');
        }
      }
      results.push({ name: operation.name, variables: operation.variables, statements });
    }
    return results;
  } finally {
    await explainer.end();
    await db.$disconnect();
  }
}
