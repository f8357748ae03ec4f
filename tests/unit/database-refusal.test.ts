// A database that is reached but busy (no pool connection in time, too many
// connections, a timed-out read) is answered "busy, retry", not "unavailable":
// the wording tells a client under load that retrying is the cure.
import { describe, expect, it } from 'vitest';
import { databaseRefusal } from '../../src/db/unavailable.ts';

const withProps = (message: string, props: Record<string, unknown>) => Object.assign(new Error(message), props);

describe('databaseRefusal', () => {
  it.each([
    ['Prisma P2024 (no connection from the pool in time)', withProps('Timed out fetching a new connection from the connection pool.', { code: 'P2024' })],
    ['Prisma P1002 (reached, timed out)', withProps('The database server was reached but timed out.', { code: 'P1002' })],
    ['PostgreSQL 53300 (too many connections)', withProps('sorry, too many clients already', { code: '53300' })],
    ['the adapter\'s TooManyConnections', withProps('driver adapter error', { cause: { kind: 'TooManyConnections' } })],
    ['the adapter\'s SocketTimeout', withProps('driver adapter error', { cause: { kind: 'SocketTimeout' } })],
    ['a socket ETIMEDOUT', withProps('read ETIMEDOUT', { code: 'ETIMEDOUT' })],
    ['pg-pool\'s wait', new Error('timeout exceeded when trying to connect')],
  ])('%s is "busy, retry"', (_what, error) => {
    const refusal = databaseRefusal(error);
    expect(refusal?.status).toBe(503);
    expect(refusal?.message).toMatch(/busy.*retry/i);
    expect(refusal?.message).not.toMatch(/unavailable/i);
  });

  it.each([
    ['a refused connection', withProps('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' })],
    ['an administrator shutdown', withProps('terminating connection due to administrator command', { code: '57P01' })],
    ['Prisma P1001', withProps('Can\'t reach database server', { code: 'P1001' })],
  ])('%s is "unavailable"', (_what, error) => {
    expect(databaseRefusal(error)?.message).toMatch(/unavailable/i);
  });

  it('any other error is not a refusal', () => {
    expect(databaseRefusal(new Error('unique constraint'))).toBeNull();
  });
});
