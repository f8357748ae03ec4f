// The screening evaluation itself (bench/screening-*.ts): the held-out split
// stays out of reach of tests and source, leave-one-name-out really takes each
// name out, and the development split is what tests may use.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { aliasFolds, relationOf, withoutNames } from '../../bench/screening-aliases.ts';
import { loadSharedLists } from '../../bench/screening-lists.ts';
import { orderedKey } from '../../bench/screening-names.ts';
import { buildQueries } from '../../bench/screening-queries.ts';
import type { ListedEntity, ListedName } from '../../src/screening/lists/listed-entity.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const HELD_OUT = ['bench/screening-heldout.ts', 'bench/screening-unlisted.ts'];

/** Relative modules a file imports, statically or dynamically, resolved to paths from the project root. */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)));
}

const sourceFiles = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));

const entity = (externalId: string, kind: ListedEntity['kind'], names: Array<[string, ListedName['strength']]>): ListedEntity => ({
  externalId, kind, names: names.map(([full, strength]) => ({ full, strength })),
  birthDates: [], birthPlaces: [], nationalities: [], countries: [], addresses: [], identifiers: [], programs: [], topics: ['sanction'],
});

describe('the held-out split', () => {
  it('is reached by no file in tests/ or src/, directly or through other modules', () => {
    const reached = new Map<string, string>();
    const queue = [...sourceFiles('tests'), ...sourceFiles('src')].map((file) => [file, file] as const);
    for (const [file, from] of queue) {
      if (reached.has(file) || !/\.(ts|mts|js|mjs)$/.test(file)) continue;
      reached.set(file, from);
      for (const imported of relativeImports(file)) queue.push([imported, from]);
    }
    for (const file of HELD_OUT) expect(reached.has(file) ? `${file} reached from ${reached.get(file)}` : null).toBeNull();
    // The walk did follow imports into bench/ (this file imports the development split).
    expect(reached.has('bench/screening-queries.ts')).toBe(true);
  });
});

describe('leave-one-name-out', () => {
  const entries = [
    entity('1', 'PERSON', [['Ahmad Shah NOORZAI', 'PRIMARY'], ['Ahmed Shah NURZAI', 'STRONG'], ['NOORZAI Ahmad Shah', 'STRONG'], ['Haji Ahmad', 'WEAK']]),
    entity('2', 'ORGANIZATION', [['VELA-MARINE LTD', 'PRIMARY'], ['VELAMARINE LTD', 'STRONG'], ['VML', 'STRONG']]),
    // The same person on another list: carries one of the first entry's names.
    entity('3', 'PERSON', [['Ahmed Shah NURZAI', 'PRIMARY'], ['Mullah Ahmed Shah', 'STRONG']]),
    entity('4', 'PERSON', [['Single NAME', 'PRIMARY']]),
  ].map((e) => ({ id: `list:${e.externalId}`, sourceId: 'list', listVersion: 'v1', entity: e }));
  const { folds, weakLeftOut } = aliasFolds(entries, 24, 1);
  const queries = folds.flatMap((f) => f.queries.map((q) => ({ ...q, removed: f.removed })));

  it('searches every reliable name of an entry with other names, once, and no weak alias', () => {
    expect(queries.map((q) => orderedKey(q.name)).sort()).toEqual(
      ['ahmad shah noorzai', 'ahmed shah nurzai', 'noorzai ahmad shah', 'vela marine ltd', 'velamarine ltd', 'vml', 'mullah ahmed shah'].sort(),
    );
    expect(weakLeftOut).toBe(1);
  });

  it('takes the name out of every entry carrying it, and never two names of one entry in a fold', () => {
    for (const fold of folds) {
      const left = withoutNames(entries, fold.removed);
      for (const q of fold.queries) expect(left.flatMap((e) => e.entity.names).some((n) => orderedKey(n.full) === orderedKey(q.name))).toBe(false);
      for (const e of entries) expect(e.entity.names.filter((n) => fold.removed.has(orderedKey(n.full))).length).toBeLessThanOrEqual(1);
    }
    const shared = queries.find((q) => orderedKey(q.name) === 'ahmed shah nurzai')!;
    expect([...shared.expected].sort()).toEqual(['list:1', 'list:3']);
  });

  it('tells how a name relates to the names left', () => {
    expect(relationOf('NOORZAI Ahmad Shah', ['Ahmad Shah NOORZAI'])).toBe('reordering');
    expect(relationOf('VELAMARINE LTD', ['VELA-MARINE LTD'])).toBe('run together or split');
    expect(relationOf('Ahmed Shah NURZAI', ['Ahmad Shah NOORZAI'])).toBe('spelling');
    expect(relationOf('Ahmad NOORZAI', ['Ahmad Shah NOORZAI'])).toBe('words added or dropped');
    expect(relationOf('VML', ['VELA MARINE LTD'])).toBe('acronym');
    expect(relationOf('Single NAME', ['Other PERSON'])).toBe('different name');
    expect(relationOf('أحمد شاه', ['Ahmad SHAH'])).toBe('original script');
  });
});

describe('the development split', () => {
  const entries = loadSharedLists();

  it('is the same for a seed, labels every query with the entries carrying its name, and covers every variant', () => {
    const queries = buildQueries(entries, 600);
    expect(buildQueries(entries, 600).map((q) => [q.name, q.variant, q.birthDate])).toEqual(queries.map((q) => [q.name, q.variant, q.birthDate]));
    expect(queries).toHaveLength(600);
    for (const q of queries) {
      expect(q.expected.size).toBeGreaterThan(0);
      for (const id of q.expected) expect(entries.some((e) => e.id === id)).toBe(true);
    }
    const variants = new Set(queries.map((q) => q.variant));
    for (const variant of ['typo', 'missing middle name', 'one-word organization', 'loose legal form', 'title word in organization', 'Arabic name family', 'run together or split', 'spelling family', 'birth date approximate', 'birth date differs', 'lower case, no punctuation']) {
      expect(variants).toContain(variant);
    }
    expect(queries.filter((q) => q.variant.startsWith('birth date')).every((q) => /^\d{4}(-\d{2}-\d{2})?$/.test(q.birthDate ?? ''))).toBe(true);
  });
});
