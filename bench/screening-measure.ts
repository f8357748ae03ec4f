// Recall at the operating threshold, false positives and search times: a
// ranker returns the entity ids of its hits at or above its threshold, best
// first, so a hit under the threshold is a miss, as it is for a reviewer.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { NameIndex } from '../src/screening/matching/name-index.ts';
import type { LabelledQuery } from './screening-names.ts';

export type RankQuery = Pick<LabelledQuery, 'name'> & Partial<Pick<LabelledQuery, 'kind' | 'birthDate' | 'withoutOriginalScript'>>;
export type Ranker = (query: RankQuery) => string[];

/** One query's result. */
export interface Outcome {
  query: LabelledQuery;
  at1: boolean;
  at5: boolean;
  ms: number;
}

export interface Recall {
  at1: number;
  at5: number;
  n: number;
}

export interface MatcherFigures {
  matcher: string;
  recallAt1: number;
  recallAt5: number;
  queries: number;
  /** null where no unlisted names were searched. */
  falsePositiveRate: number | null;
  unlisted: number;
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
  byVariant: Record<string, Recall>;
  /** The variant with the lowest recall@1. */
  worst: { variant: string; at1: number } | null;
}

export const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;

export function runQueries(rank: Ranker, queries: LabelledQuery[]): Outcome[] {
  return queries.map((query) => {
    const started = performance.now();
    const ranked = rank(query);
    const ms = performance.now() - started;
    return { query, at1: ranked.slice(0, 1).some((id) => query.expected.has(id)), at5: ranked.slice(0, 5).some((id) => query.expected.has(id)), ms };
  });
}

/** Per unlisted name: whether anything was reported, and the time. */
export function runUnlisted(rank: Ranker, names: RankQuery[]): Array<{ hit: boolean; ms: number }> {
  return names.map((name) => {
    const started = performance.now();
    const hit = rank(name).length > 0;
    return { hit, ms: performance.now() - started };
  });
}

/** Recall by any grouping of the queries. */
export function recallBy(outcomes: Outcome[], group: (query: LabelledQuery) => string): Record<string, Recall> {
  const groups: Record<string, Recall> = {};
  for (const { query, at1, at5 } of outcomes) {
    const g = (groups[group(query)] ??= { at1: 0, at5: 0, n: 0 });
    g.at1 += Number(at1);
    g.at5 += Number(at5);
    g.n++;
  }
  for (const g of Object.values(groups)) {
    g.at1 /= g.n;
    g.at5 /= g.n;
  }
  return groups;
}

export function figures(matcher: string, outcomes: Outcome[], unlisted: Array<{ hit: boolean; ms: number }> = []): MatcherFigures {
  const times = [...outcomes.map((o) => o.ms), ...unlisted.map((u) => u.ms)];
  const byVariant = recallBy(outcomes, (q) => q.variant);
  const worst = Object.entries(byVariant).reduce<MatcherFigures['worst']>((w, [variant, r]) => (!w || r.at1 < w.at1 ? { variant, at1: r.at1 } : w), null);
  const sum = times.reduce((a, b) => a + b, 0);
  return {
    matcher,
    recallAt1: outcomes.filter((o) => o.at1).length / Math.max(1, outcomes.length),
    recallAt5: outcomes.filter((o) => o.at5).length / Math.max(1, outcomes.length),
    queries: outcomes.length,
    falsePositiveRate: unlisted.length ? unlisted.filter((u) => u.hit).length / unlisted.length : null,
    unlisted: unlisted.length,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    perSecond: sum ? (times.length * 1000) / sum : 0,
    byVariant,
    worst,
  };
}

/** Our matcher as a ranker: entity ids of the hits at the threshold, best first. */
export function ourRanker(index: NameIndex, threshold: number): Ranker {
  return (query) =>
    index
      .search({ name: query.name, ...(query.kind ? { kind: query.kind } : {}), ...(query.birthDate ? { birthDate: query.birthDate } : {}) }, { limit: 5, threshold })
      .map((h) => h.entityId);
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
