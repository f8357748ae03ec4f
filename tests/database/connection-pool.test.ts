// src/db/connection-pool.ts: when end() resolves, the server has let go of
// every connection, so stopping PostgreSQL right after cuts none of them.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ConnectionPool } from '../../src/db/connection-pool.ts';

const observer = new pg.Client({ connectionString: inject('databaseUrl') });
afterAll(() => observer.end());

async function backendsNamed(name: string) {
  const { rows } = await observer.query<{ count: number }>('SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = $1', [name]);
  return rows[0]!.count;
}

/** Opens `size` connections at once (each holds one while the others connect). */
async function fill(pool: pg.Pool, size: number) {
  await Promise.all(Array.from({ length: size }, () => pool.query('SELECT pg_sleep(0.05)')));
}

describe('ConnectionPool.end', () => {
  it('resolves once the server has no connection of the pool left', async () => {
    await observer.connect();
    for (let round = 0; round < 5; round++) {
      const name = `pool-end-${randomUUID()}`;
      const pool = new ConnectionPool({ connectionString: inject('databaseUrl'), application_name: name, max: 4 });
      await fill(pool, 4);
      expect(await backendsNamed(name)).toBe(4);
      await pool.end();
      expect(await backendsNamed(name)).toBe(0);
    }
  });

  it('also ends through the callback form, and refuses a second end', async () => {
    const pool = new ConnectionPool({ connectionString: inject('databaseUrl'), max: 2 });
    await fill(pool, 2);
    await new Promise<void>((done) => pool.end(() => done()));
    expect(pool.totalCount).toBe(0);
    await expect(pool.end()).rejects.toThrow(/more than once/);
  });
});
