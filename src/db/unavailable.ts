import { AppError } from '../errors.ts';

// Prisma: can't reach, timed out, connection closed, pool timeout.
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
// PostgreSQL: admin/crash shutdown, cannot connect now; class 08 is "connection exception".
const POSTGRES_CODES = /^(57P0[123]|08\w{3})$/;
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
// Driver adapter error kinds of Prisma 7 (`cause.kind`).
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const MESSAGES = /Can't reach database server|Connection terminated|terminating connection|Connection refused|connect ECONNREFUSED/i;

/** Whether an error (or one of its causes) means the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const { code, kind, message, cause } = current as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (PRISMA_CODES.has(code) || POSTGRES_CODES.test(code) || SOCKET_CODES.has(code))) return true;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    current = cause ?? (current as { originalError?: unknown }).originalError;
  }
  return false;
}

export const databaseUnavailable = () => new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly');
