import type { Config } from '../config.ts';

/**
 * How long a request may wait for the database: for a connection, and for
 * each statement. Past them it answers 503 with Retry-After
 * (src/db/unavailable.ts) instead of waiting with its client. Only requests
 * have these limits; jobs, migrations and watchlist loads do not.
 */
export interface RequestDatabaseLimits {
  /** For a connection of the request pool, or for a write transaction to start (Prisma's maxWait). */
  connectionWaitMs: number;
  /** PostgreSQL's statement_timeout. */
  statementTimeoutMs: number;
  /** PostgreSQL's lock_timeout. */
  lockTimeoutMs: number;
  /** PostgreSQL's idle_in_transaction_session_timeout: request connections never idle inside a transaction, so one that does is closed. */
  idleInTransactionMs: number;
  /** The client's own limit, for when PostgreSQL does not answer at all; later than its statement_timeout, whose clean cancel comes first. */
  queryTimeoutMs: number;
  /** Request connections one organization may hold at once (the rest of the pool stays for the others). */
  connectionsPerOrganization: number;
}

const CLIENT_MARGIN_MS = 2_000;
const IDLE_IN_TRANSACTION_MS = 60_000;

export function requestDatabaseLimits(
  config: Pick<
    Config,
    'REQUEST_CONNECTION_WAIT_MS' | 'REQUEST_STATEMENT_TIMEOUT_MS' | 'REQUEST_LOCK_TIMEOUT_MS' | 'DATABASE_POOL_SIZE' | 'REQUEST_CONNECTIONS_PER_ORGANIZATION'
  >,
): RequestDatabaseLimits {
  return {
    connectionWaitMs: config.REQUEST_CONNECTION_WAIT_MS,
    statementTimeoutMs: config.REQUEST_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.REQUEST_LOCK_TIMEOUT_MS,
    idleInTransactionMs: IDLE_IN_TRANSACTION_MS,
    queryTimeoutMs: config.REQUEST_STATEMENT_TIMEOUT_MS + CLIENT_MARGIN_MS,
    // By default half the pool: two organizations at their cap still leave room for a third.
    connectionsPerOrganization: config.REQUEST_CONNECTIONS_PER_ORGANIZATION ?? Math.max(1, Math.floor(config.DATABASE_POOL_SIZE / 2)),
  };
}
