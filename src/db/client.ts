import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { requestScope } from '../http/request-scope.ts';
import { ConnectionPool } from './connection-pool.ts';
import type { RequestDatabaseLimits } from './request-limits.ts';

export type Database = PrismaClient;

/** Distinct statements a connection keeps prepared; past this many, statements run unprepared. */
const MAX_PREPARED = 2_000;

/** Pattern matches: how good a plan is depends on the pattern itself (a two-letter word cannot use a trigram index). */
const PATTERN_MATCH = /\sI?LIKE\s/;

/**
 * Names for the statements Prisma sends (adapter-pg's `statementNameGenerator`):
 * the driver prepares a named statement once per connection and then only
 * binds and executes it, so PostgreSQL stops parsing and planning the same
 * SQL on every request (under row-level security, planning costs more than
 * running a read by id). One name per distinct SQL text. Searches stay
 * unnamed: a prepared statement soon gets one generic plan for every
 * pattern, and no single plan suits both "Kowal" and "en".
 */
export function statementNames() {
  const names = new Map<string, string>();
  return ({ sql }: { sql: string }): string => {
    let name = names.get(sql);
    if (name === undefined) {
      name = names.size < MAX_PREPARED && !PATTERN_MATCH.test(sql) ? `prisma_${names.size}` : '';
      names.set(sql, name);
    }
    return name;
  };
}

/**
 * The unscoped client: it connects as the configured role, which row-level
 * security does not restrict. Request handling never uses it directly; it goes
 * through `forOrganization` (src/db/tenant.ts), whose writes run here in
 * transactions of their own. With `limits`, those wait for a connection at
 * most `connectionWaitMs` (Prisma's maxWait, for every transaction without
 * its own) and a request's queries at most `queryTimeoutMs`; jobs and
 * watchlist loads, outside any request, have no such limit.
 */
export function createDatabase(connectionString: string, poolSize = 10, limits?: RequestDatabaseLimits): Database {
  const pool = new ConnectionPool({
    connectionString,
    max: poolSize,
    application_name: 'compliance-service',
    ...(limits && { queryTimeout: { ms: limits.queryTimeoutMs, applies: () => requestScope.getStore() !== undefined } }),
  });
  const adapter = new PrismaPg(pool, { statementNameGenerator: statementNames(), disposeExternalPool: true });
  return new PrismaClient({ adapter, ...(limits && { transactionOptions: { maxWait: limits.connectionWaitMs } }) });
}
