import { AppError } from '../errors.ts';

// Cannot reach the database. Prisma: can't reach, connection closed.
const PRISMA_CODES = new Set(['P1001', 'P1017']);
// PostgreSQL: admin/crash shutdown, cannot connect now; class 08 is "connection exception".
const POSTGRES_CODES = /^(57P0[123]|08\w{3})$/;
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
// Driver adapter error kinds of Prisma 7 (`cause.kind`).
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed']);
const MESSAGES = /Can't reach database server|Connection terminated|terminating connection|Connection refused|connect ECONNREFUSED/i;

// The database did not serve the request in time, or has no connection free: a reached database
// that is busy, not an unreachable one. PostgreSQL: statement or lock timeout (query_canceled,
// lock_not_available), too many connections. Prisma: timed out (P1002), no pool connection in time
// (P2024). Sockets and Prisma's adapter: a connection or read that timed out.
const BUSY_POSTGRES_CODES = new Set(['57014', '55P03', '53300']);
const BUSY_CODES = new Set(['P1002', 'P2024', 'ETIMEDOUT']);
const BUSY_ADAPTER_KINDS = new Set(['SocketTimeout', 'TooManyConnections']);
// pg-pool's wait for a connection, pg's client-side query timeout, pg's connect timeout and
// Prisma's wait for a transaction to start (maxWait) or its end (timeout), both P2028.
const BUSY_MESSAGES = /timeout exceeded when trying to connect|Query read timeout|Connection terminated due to connection timeout|Unable to start a transaction in the given time|on an expired transaction|Timed out fetching a new connection|too many clients already|remaining connection slots are reserved/i;

/** How long clients are asked to wait before retrying a 503 (Retry-After). */
export const RETRY_AFTER_SECONDS = 5;

type Cause = { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; originalError?: unknown; originalCode?: unknown };

/** The error and its causes (driver adapter errors, GraphQL wrappers), outermost first. */
function* chain(error: unknown) {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    yield current as Cause;
    current = (current as Cause).cause ?? (current as Cause).originalError;
  }
}

function isBusy(error: unknown): boolean {
  for (const { code, kind, originalCode, message } of chain(error)) {
    if ((typeof code === 'string' && (BUSY_POSTGRES_CODES.has(code) || BUSY_CODES.has(code))) || (typeof originalCode === 'string' && BUSY_POSTGRES_CODES.has(originalCode))) return true;
    if (typeof kind === 'string' && BUSY_ADAPTER_KINDS.has(kind)) return true;
    if (typeof message === 'string' && BUSY_MESSAGES.test(message)) return true;
  }
  return false;
}

/** Whether an error (or one of its causes) means the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const { code, kind, message } of chain(error)) {
    if (typeof code === 'string' && (PRISMA_CODES.has(code) || POSTGRES_CODES.test(code) || SOCKET_CODES.has(code))) return true;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
  }
  return false;
}

export const databaseUnavailable = () => new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly');
export const databaseBusy = () => new AppError('SERVICE_UNAVAILABLE', 'The service is busy: no database connection or answer in time; retry shortly');

/**
 * The 503 for an error that means the database cannot serve the request now:
 * too busy (no connection or no answer in time, src/db/connection-pool.ts) or
 * unreachable; null for any other error. Every 503 is answered with
 * Retry-After (src/http/app.ts).
 */
export function databaseRefusal(error: unknown): AppError | null {
  if (isBusy(error)) return databaseBusy();
  return isDatabaseUnavailable(error) ? databaseUnavailable() : null;
}
