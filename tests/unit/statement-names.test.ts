// Prepared statement names for Prisma's SQL (src/db/client.ts): one per text, none for pattern searches.
import { describe, expect, it } from 'vitest';
import { statementNames } from '../../src/db/client.ts';

describe('statementNames', () => {
  it('names each distinct statement once, and leaves searches unnamed (their best plan depends on the pattern)', () => {
    const name = statementNames();
    const byId = 'SELECT "id" FROM "public"."consumer_cases" WHERE "id" = $1';
    const list = 'SELECT "id" FROM "public"."tasks" WHERE "status" = CAST($1::text AS "public"."TaskStatus") LIMIT $2';
    expect(name({ sql: byId })).toBe(name({ sql: byId }));
    expect(name({ sql: list })).not.toBe(name({ sql: byId }));
    expect(name({ sql: byId })).toMatch(/^prisma_\d+$/);
    expect(name({ sql: 'SELECT "id" FROM "public"."consumer_cases" WHERE ("first_name" ILIKE $1 OR "email" ILIKE $2)' })).toBe('');
    expect(name({ sql: 'SELECT "id" FROM "public"."notes" WHERE "body" LIKE $1' })).toBe('');
  });
});
