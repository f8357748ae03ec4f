// Screening quality and speed on the real lists (../shared/datasets/sanctions):
// our matcher next to a plain token Jaro-Winkler scan and Fuse.js, on the same
// generated queries, in one run.
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Fuse from 'fuse.js';
import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import type { ListedEntity } from '../src/screening/lists/listed-entity.ts';
import { parseOfac } from '../src/screening/lists/ofac.ts';
import { parseSenzing } from '../src/screening/lists/senzing.ts';
import { parseUnList } from '../src/screening/lists/un.ts';
import { DEFAULT_THRESHOLD, type IndexedEntity, NameIndex } from '../src/screening/matching/name-index.ts';
import { nameTokens } from '../src/screening/matching/normalize.ts';
import { buildQueries, type LabelledQuery, unlistedNames, widerUnlistedNames } from './screening-queries.ts';

const DATASETS = new URL('../../shared/datasets/sanctions/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DATASETS), 'utf8');

export function loadSharedLists(): IndexedEntity[] {
  const lists: Array<[string, ListedEntity[]]> = [
    ['ofac-sdn', parseOfac({ primary: read('ofac_sdn.csv'), aliases: read('ofac_alt.csv'), addresses: read('ofac_add.csv') })],
    ['ofac-consolidated', parseOfac({ primary: read('ofac_cons_prim.csv'), aliases: read('ofac_cons_alt.csv') })],
    ['un-consolidated', parseUnList(read('un_consolidated.xml')).entities],
    ['us-congress-peps', parseSenzing(read('us_congress_senzing.json'))],
  ];
  return lists.flatMap(([sourceId, entities]) => entities.map((entity) => ({ id: `${sourceId}:${entity.externalId}`, sourceId, listVersion: 'snapshot', entity })));
}

export interface MatcherFigures {
  matcher: string;
  recallAt1: number;
  recallAt5: number;
  falsePositiveRate: number;
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
  byVariant: Record<string, number>;
}

export type Ranker = (query: LabelledQuery | { name: string; kind?: 'PERSON' | 'ORGANIZATION' }) => string[];

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;

export function measure(matcher: string, rank: Ranker, queries: LabelledQuery[], unlisted: string[]): MatcherFigures {
  const times: number[] = [];
  let at1 = 0;
  let at5 = 0;
  const variantTotals: Record<string, [number, number]> = {};
  const started = performance.now();
  for (const query of queries) {
    const t = performance.now();
    const ranked = rank(query);
    times.push(performance.now() - t);
    const found1 = ranked.slice(0, 1).some((id) => query.expected.has(id));
    at1 += Number(found1);
    at5 += Number(ranked.slice(0, 5).some((id) => query.expected.has(id)));
    const totals = (variantTotals[query.variant] ??= [0, 0]);
    totals[0] += Number(found1);
    totals[1]++;
  }
  let falsePositives = 0;
  for (const name of unlisted) {
    const t = performance.now();
    falsePositives += Number(rank({ name }).length > 0);
    times.push(performance.now() - t);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    matcher,
    recallAt1: at1 / queries.length,
    recallAt5: at5 / queries.length,
    falsePositiveRate: falsePositives / unlisted.length,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    perSecond: times.length / seconds,
    byVariant: Object.fromEntries(Object.entries(variantTotals).map(([variant, [hits, total]]) => [variant, hits / total])),
  };
}

/** The plain baseline: every listed name scored by token Jaro-Winkler (best pairs, averaged both ways). */
export function jaroWinklerScan(entries: IndexedEntity[], threshold: number): Ranker {
  const names = entries.flatMap(({ id, entity }) => entity.names.map((n) => ({ id, tokens: nameTokens(n.full) })));
  const side = (a: string[], b: string[]) => a.reduce((sum, x) => sum + Math.max(...b.map((y) => jaroWinkler(x, y))), 0) / a.length;
  return (query) => {
    const q = nameTokens(query.name);
    const best = new Map<string, number>();
    for (const { id, tokens } of names) {
      if (!tokens.length || !q.length) continue;
      const score = (side(q, tokens) + side(tokens, q)) / 2;
      if (score >= threshold && score > (best.get(id) ?? 0)) best.set(id, score);
    }
    return [...best].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([id]) => id);
  };
}

export function fuseSearch(entries: IndexedEntity[]): Ranker {
  const names = entries.flatMap(({ id, entity }) => entity.names.map((n) => ({ id, name: n.full })));
  // Fuse.js defaults (threshold 0.6) on the name field.
  const fuse = new Fuse(names, { keys: ['name'], includeScore: true });
  return (query) => {
    const ids: string[] = [];
    for (const result of fuse.search(query.name, { limit: 20 })) if (!ids.includes(result.item.id)) ids.push(result.item.id);
    return ids.slice(0, 5);
  };
}

// `npm run bench` starts node without --expose-gc: the flag is set now and the function taken from a fresh context.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Memory in use after a full collection, in MiB (the JS heap and the typed arrays' buffers outside it): before and after building an index, its size. */
export function heapMegabytes(): number {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return (heapUsed + external) / 2 ** 20;
}

/** Share of names our matcher reports anything for. */
export function falsePositiveRate(rank: Ranker, names: string[]): number {
  return names.filter((name) => rank({ name }).length > 0).length / names.length;
}

/** Our matcher as a ranker: entity ids of the hits at the threshold, best first. */
export function ourRanker(index: NameIndex, threshold: number): Ranker {
  return (query) => index.search({ name: query.name, ...('kind' in query ? { kind: query.kind } : {}) }, { limit: 5, threshold }).map((h) => h.entityId);
}

export interface ScreeningBench {
  lists: { entities: number; names: number };
  /** Reading and parsing the publishers' files. */
  parseSeconds: number;
  buildSeconds: number;
  indexMegabytes: number;
  threshold: number;
  queries: number;
  unlisted: number;
  baselineQueries: number;
  results: MatcherFigures[];
  /** Ours on widerUnlistedNames. */
  wider: { names: number; falsePositiveRate: number };
}

export async function runScreeningBench(options = { queries: 2000, unlisted: 1000, widerUnlisted: 3000, baselineQueries: 100, threshold: DEFAULT_THRESHOLD }): Promise<ScreeningBench> {
  const parseStarted = performance.now();
  const entries = loadSharedLists();
  const parseSeconds = (performance.now() - parseStarted) / 1000;
  const before = heapMegabytes();
  const started = performance.now();
  const index = NameIndex.build(entries);
  const buildSeconds = (performance.now() - started) / 1000;
  const indexMegabytes = heapMegabytes() - before;
  const queries = buildQueries(entries, options.queries);
  const listed = new Set(entries.flatMap(({ entity }) => entity.names.map((n) => nameTokens(n.full).sort().join(' '))));
  const unlisted = unlistedNames(options.unlisted, listed);
  const ours = ourRanker(index, options.threshold);
  // Warm the matcher so the first queries do not pay for compilation.
  for (const query of queries.slice(0, 200)) ours(query);
  const results = [measure('this platform', ours, queries, unlisted)];
  const wider = widerUnlistedNames(options.widerUnlisted, listed);
  // The baselines scan every name per query: a subset, with ours on the same subset beside them.
  const subset = queries.slice(0, options.baselineQueries);
  const unlistedSubset = unlisted.slice(0, options.baselineQueries / 2);
  results.push(measure('this platform (baseline subset)', ours, subset, unlistedSubset));
  results.push(measure('token Jaro-Winkler scan (≥ 0.9)', jaroWinklerScan(entries, 0.9), subset, unlistedSubset));
  results.push(measure('Fuse.js 7 (defaults)', fuseSearch(entries), subset, unlistedSubset));
  return {
    lists: { entities: entries.length, names: index.size.names }, parseSeconds, buildSeconds, indexMegabytes, threshold: options.threshold,
    queries: queries.length, unlisted: unlisted.length, baselineQueries: subset.length, results,
    wider: { names: wider.length, falsePositiveRate: falsePositiveRate(ours, wider) },
  };
}
