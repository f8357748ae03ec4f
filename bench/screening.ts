// Screening quality and speed on the real lists (../shared/datasets/sanctions),
// at the operating threshold, on three query sets: the development split
// (bench/screening-queries.ts), the held-out split (bench/screening-heldout.ts)
// and leave-one-name-out over the lists' own names (bench/screening-aliases.ts);
// false positives on unlisted names; the baselines on a subset beside ours.
import { DEFAULT_THRESHOLD, type IndexedEntity, NameIndex } from '../src/screening/matching/name-index.ts';
import { type AliasQuery, aliasFolds, SPELLING_RELATIONS, withoutNames } from './screening-aliases.ts';
import { fuseSearch, jaroWinklerScan } from './screening-baselines.ts';
import { loadSharedLists } from './screening-lists.ts';
import { heldOutQueries } from './screening-heldout.ts';
import { figures, heapMegabytes, type MatcherFigures, type Outcome, ourRanker, type Ranker, type Recall, recallBy, runQueries, runUnlisted } from './screening-measure.ts';
import { type LabelledQuery, nameKey, orderedKey, scriptOf } from './screening-names.ts';
import { buildQueries, unlistedNames, widerUnlistedNames } from './screening-queries.ts';
import { heldOutUnlisted, type UnlistedName } from './screening-unlisted.ts';

/** The lists without their names in original script (Arabic, Cyrillic, Chinese): where a query in that script must reach a romanized name. */
export function withoutOriginalScript(entries: IndexedEntity[]): IndexedEntity[] {
  const removed = new Set(entries.flatMap(({ entity }) => entity.names.filter((n) => !['Latin', 'other'].includes(scriptOf(n.full))).map((n) => orderedKey(n.full))));
  return withoutNames(entries, removed);
}

/** A ranker per query: the one for the lists without original script where the query asks for it. */
const byScript = (all: Ranker, withoutScript: Ranker): Ranker => (q) => (q.withoutOriginalScript ? withoutScript(q) : all(q));

/** `count` queries spread over the whole set (every variant has its share), not the first ones. */
export const spread = <T>(values: T[], count: number): T[] => (values.length <= count ? values : Array.from({ length: count }, (_, i) => values[Math.floor((i * values.length) / count)]!));

export interface SplitRun {
  /** Ours on every query and unlisted name, then ours, the Jaro-Winkler scan and Fuse.js on the subset. */
  results: MatcherFigures[];
  subset: { queries: number; unlisted: number };
}

export interface ScreeningBench {
  lists: { entities: number; names: number };
  parseSeconds: number;
  buildSeconds: number;
  indexMegabytes: number;
  threshold: number;
  dev: SplitRun & { wider: { names: number; falsePositiveRate: number } };
  heldOut: SplitRun & {
    byKind: Record<string, Recall>;
    unlistedByGroup: Record<string, { names: number; falsePositives: number }>;
    soundAlikesLeftOut: number;
    examplesLeftOut: string[];
    /** The examples and what they hit. */
    examples: Array<{ name: string; hit: string | null }>;
  };
  aliases: SplitRun & {
    folds: number;
    buildSeconds: number;
    entities: number;
    weakLeftOut: number;
    cappedLeftOut: number;
    perEntity: number;
    /** Ours on the names whose relation is a spelling of the same name (SPELLING_RELATIONS). */
    spellings: MatcherFigures;
    byKind: Record<string, Recall>;
    byScript: Record<string, Recall>;
    byKindAndRelation: Record<string, Recall>;
  };
}

const OPTIONS = { dev: 2000, devUnlisted: 1000, widerUnlisted: 3000, heldOut: 2000, originalScript: 200, unlistedPersons: 1500, unlistedOrganizations: 300, perEntity: 24, baselineQueries: 60, threshold: DEFAULT_THRESHOLD };

/** Ours, then the baselines, on a subset (they scan every name per query). */
function baselineRows(label: string, subset: LabelledQuery[], unlisted: UnlistedName[] | string[], rankers: { ours: Ranker; jw: Ranker; fuse: Ranker }): MatcherFigures[] {
  const names = unlisted.map((u) => (typeof u === 'string' ? { name: u } : u));
  return [
    figures(`this platform (${label} subset)`, runQueries(rankers.ours, subset), runUnlisted(rankers.ours, names)),
    figures('token Jaro-Winkler scan (≥ 0.9)', runQueries(rankers.jw, subset), runUnlisted(rankers.jw, names)),
    figures('Fuse.js 7 (defaults)', runQueries(rankers.fuse, subset), runUnlisted(rankers.fuse, names)),
  ];
}

export async function runScreeningBench(options = OPTIONS): Promise<ScreeningBench> {
  const log = (message: string) => console.error(`[screening] ${message}`);
  const parseStarted = performance.now();
  const entries = loadSharedLists();
  const parseSeconds = (performance.now() - parseStarted) / 1000;
  const before = heapMegabytes();
  const started = performance.now();
  const index = NameIndex.build(entries);
  const buildSeconds = (performance.now() - started) / 1000;
  const indexMegabytes = heapMegabytes() - before;
  const ours = ourRanker(index, options.threshold);
  const listedNames = entries.flatMap(({ entity }) => entity.names.map((n) => n.full));
  const listedKeys = new Set(listedNames.map(nameKey));

  log('development split');
  const devQueries = buildQueries(entries, options.dev);
  const devUnlisted = unlistedNames(options.devUnlisted, listedKeys);
  for (const query of devQueries.slice(0, 200)) ours(query);
  const devOurs = figures('this platform', runQueries(ours, devQueries), runUnlisted(ours, devUnlisted.map((name) => ({ name }))));
  const wider = widerUnlistedNames(options.widerUnlisted, listedKeys);
  const widerHits = runUnlisted(ours, wider.map((name) => ({ name })));

  log('held-out split');
  const noScriptEntries = withoutOriginalScript(entries);
  const oursNoScript = ourRanker(NameIndex.build(noScriptEntries), options.threshold);
  const heldOut = heldOutQueries(entries, { count: options.heldOut, originalScript: options.originalScript });
  const { names: unlisted, soundAlikesLeftOut, examplesLeftOut } = heldOutUnlisted(listedNames, options.unlistedPersons, options.unlistedOrganizations);
  const heldOutRank = byScript(ours, oursNoScript);
  const heldOutOutcomes = runQueries(heldOutRank, heldOut);
  const unlistedRuns = runUnlisted(ours, unlisted);
  const unlistedByGroup: ScreeningBench['heldOut']['unlistedByGroup'] = {};
  unlisted.forEach((u, i) => {
    const g = (unlistedByGroup[u.group] ??= { names: 0, falsePositives: 0 });
    g.names++;
    g.falsePositives += Number(unlistedRuns[i]!.hit);
  });
  const examples = unlisted.filter((u) => u.group === 'issue examples').map((u) => {
    const [hit] = index.search({ name: u.name, kind: 'PERSON' }, { limit: 1, threshold: options.threshold });
    return { name: u.name, hit: hit ? `${hit.explanation.name.matched} (${hit.score.toFixed(2)})` : null };
  });

  log('leave-one-name-out');
  const folds = aliasFolds(entries, options.perEntity);
  const aliasOutcomes: Outcome[] = [];
  let aliasBuild = 0;
  for (const fold of folds.folds) {
    const t = performance.now();
    const foldIndex = NameIndex.build(withoutNames(entries, fold.removed));
    aliasBuild += (performance.now() - t) / 1000;
    aliasOutcomes.push(...runQueries(ourRanker(foldIndex, options.threshold), fold.queries));
  }
  const entityKind = (q: LabelledQuery) => (q as AliasQuery).entityKind;
  // Screening subjects are persons and organizations: vessels and aircraft (mostly former names) are shown by kind only.
  const subjectOutcomes = aliasOutcomes.filter((o) => entityKind(o.query) !== 'vessel or aircraft');
  const spellingOutcomes = subjectOutcomes.filter((o) => SPELLING_RELATIONS.has(o.query.variant));

  log('baselines');
  const n = options.baselineQueries;
  const jwAll = jaroWinklerScan(entries, 0.9);
  const fuseAll = fuseSearch(entries);
  const devSubset = devQueries.slice(0, n);
  const devRows = baselineRows('development', devSubset, devUnlisted.slice(0, n / 2), { ours, jw: jwAll, fuse: fuseAll });
  const heldOutSubset = spread(heldOut, n);
  const heldOutRows = baselineRows('held-out', heldOutSubset, spread(unlisted, n / 2), {
    ours: heldOutRank,
    jw: byScript(jwAll, jaroWinklerScan(noScriptEntries, 0.9)),
    fuse: byScript(fuseAll, fuseSearch(noScriptEntries)),
  });
  const fold0 = folds.folds[0]!;
  const fold0Entries = withoutNames(entries, fold0.removed);
  const aliasRows = baselineRows('leave-one-name-out, fold 1', spread(fold0.queries.filter((q) => q.entityKind !== 'vessel or aircraft'), n), [], {
    ours: ourRanker(NameIndex.build(fold0Entries), options.threshold),
    jw: jaroWinklerScan(fold0Entries, 0.9),
    fuse: fuseSearch(fold0Entries),
  });

  return {
    lists: { entities: entries.length, names: index.size.names },
    parseSeconds,
    buildSeconds,
    indexMegabytes,
    threshold: options.threshold,
    dev: {
      results: [devOurs, ...devRows],
      subset: { queries: devSubset.length, unlisted: n / 2 },
      wider: { names: wider.length, falsePositiveRate: widerHits.filter((h) => h.hit).length / wider.length },
    },
    heldOut: {
      results: [figures('this platform', heldOutOutcomes, unlistedRuns), ...heldOutRows],
      subset: { queries: heldOutSubset.length, unlisted: n / 2 },
      byKind: recallBy(heldOutOutcomes, (q) => q.kind.toLowerCase()),
      unlistedByGroup,
      soundAlikesLeftOut,
      examplesLeftOut,
      examples,
    },
    aliases: {
      results: [figures('this platform', subjectOutcomes), ...aliasRows],
      subset: { queries: Math.min(n, fold0.queries.length), unlisted: 0 },
      folds: folds.folds.length,
      buildSeconds: aliasBuild,
      entities: folds.entities,
      weakLeftOut: folds.weakLeftOut,
      cappedLeftOut: folds.cappedLeftOut,
      perEntity: options.perEntity,
      spellings: figures('this platform', spellingOutcomes),
      byKind: recallBy(aliasOutcomes, entityKind),
      byScript: recallBy(subjectOutcomes, (q) => (q as AliasQuery).script),
      byKindAndRelation: recallBy(aliasOutcomes, (q) => `${entityKind(q)}: ${q.variant}`),
    },
  };
}
