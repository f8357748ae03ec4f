// Prisma passes `contains` into LIKE as it is: % and _ would be wildcards.
const escapeLike = (term: string) => term.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * `search` filters: every whitespace-separated term must occur (case
 * insensitive, anywhere) in at least one of the fields, so "ada lovelace"
 * finds first name Ada, last name Lovelace. Served by the organization's
 * rows only: trigram indexes that lead with organization_id (under row-level
 * security once ILIKE is LEAKPROOF: src/db/leakproof-operators.ts), and no
 * column statistics that would let other organizations' words or sizes
 * change the plan (migration 20261202100000,
 * tests/database/search-isolation.test.ts).
 */
export function textSearch<Field extends string>(search: string | null | undefined, fields: readonly Field[]) {
  const terms = (search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8);
  if (terms.length === 0) return {};
  return {
    AND: terms.map((term) => ({
      OR: fields.map((field) => ({ [field]: { contains: escapeLike(term), mode: 'insensitive' as const } })),
    })),
  };
}
