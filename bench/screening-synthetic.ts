// Screening at a million names: the real lists planted among synthetic names
// (scripts/synthetic-names.ts), the same development and held-out queries as
// on the real lists (less those in original script, which need the lists
// without their original-script names), unlisted names checked against the
// synthetic names too; our matcher on all of it, the baselines on a slice
// (they scan every name per query).
import { DEFAULT_THRESHOLD, NameIndex } from '../src/screening/matching/name-index.ts';
import { syntheticEntities, syntheticNames } from '../scripts/synthetic-names.ts';
import { spread } from './screening.ts';
import { loadSharedLists } from './screening-lists.ts';
import { fuseSearch, jaroWinklerScan } from './screening-baselines.ts';
import { heldOutQueries } from './screening-heldout.ts';
import { figures, heapMegabytes, type MatcherFigures, ourRanker, runQueries, runUnlisted } from './screening-measure.ts';
import { nameKey } from './screening-names.ts';
import { buildQueries, unlistedNames, widerUnlistedNames } from './screening-queries.ts';
import { matcherTable, SUMMARY_HEAD, summaryRow, variantTable } from './screening-report.ts';
import { heldOutUnlisted } from './screening-unlisted.ts';

export interface SyntheticBench {
  planted: { entities: number; names: number };
  synthetic: number;
  generationSeconds: number;
  entriesMegabytes: number;
  indexedNames: number;
  buildSeconds: number;
  indexMegabytes: number;
  threshold: number;
  /** Ours on the development split, then on the held-out split. */
  dev: MatcherFigures;
  heldOut: MatcherFigures;
  /** Ours, the Jaro-Winkler scan and Fuse.js on the slice, with held-out queries. */
  slice: { names: number; queries: number; unlisted: number; results: MatcherFigures[] };
  wider: { names: number; falsePositiveRate: number };
}

const OPTIONS = { synthetic: 1_000_000, dev: 2000, devUnlisted: 1000, widerUnlisted: 3000, heldOut: 2000, unlistedPersons: 1500, unlistedOrganizations: 300, sliceNames: 100_000, sliceQueries: 8, threshold: DEFAULT_THRESHOLD };

export async function runSyntheticBench(options = OPTIONS): Promise<SyntheticBench> {
  const log = (message: string) => console.error(`[screening 1M] ${message}`);
  const planted = loadSharedLists();
  const started = performance.now();
  const { names, signatures } = syntheticNames(planted.map((e) => e.entity), options.synthetic);
  const generationSeconds = (performance.now() - started) / 1000;
  signatures.clear();
  log('queries and unlisted names');
  const devQueries = buildQueries(planted, options.dev);
  const heldOut = heldOutQueries(planted, { count: options.heldOut, originalScript: 0 });
  const allNames = [...planted.flatMap(({ entity }) => entity.names.map((n) => n.full)), ...names.map((n) => n.name)];
  const devUnlisted = unlistedNames(options.devUnlisted, new Set(allNames.map(nameKey)));
  const wider = widerUnlistedNames(options.widerUnlisted, new Set(allNames.map(nameKey)));
  const { names: unlisted } = heldOutUnlisted(allNames, options.unlistedPersons, options.unlistedOrganizations);
  allNames.length = 0;
  const beforeEntries = heapMegabytes();
  const entries = [...planted, ...syntheticEntities(names)];
  names.length = 0;
  const entriesMegabytes = heapMegabytes() - beforeEntries;

  log('index');
  const before = heapMegabytes();
  const building = performance.now();
  const index = NameIndex.build(entries);
  const buildSeconds = (performance.now() - building) / 1000;
  const indexMegabytes = heapMegabytes() - before;
  const ours = ourRanker(index, options.threshold);
  for (const query of devQueries.slice(0, 200)) ours(query);
  const dev = figures('this platform, 1M+ names, development split', runQueries(ours, devQueries), runUnlisted(ours, devUnlisted.map((name) => ({ name }))));
  const heldOutFigures = figures('this platform, 1M+ names, held-out split', runQueries(ours, heldOut), runUnlisted(ours, unlisted));
  const widerHits = runUnlisted(ours, wider.map((name) => ({ name })));

  log('baselines on a slice');
  const plantedNames = planted.reduce((n, e) => n + e.entity.names.length, 0);
  const sliceEntries = entries.slice(0, planted.length + Math.max(0, options.sliceNames - plantedNames));
  const sliceIndex = NameIndex.build(sliceEntries);
  const subset = spread(heldOut, options.sliceQueries);
  const unlistedSubset = spread(unlisted, options.sliceQueries / 2);
  const size = `${Math.round(sliceIndex.size.names / 1000)}k names`;
  const slice = [
    ['this platform', ourRanker(sliceIndex, options.threshold)],
    ['token Jaro-Winkler scan (≥ 0.9)', jaroWinklerScan(sliceEntries, 0.9)],
    ['Fuse.js 7 (defaults)', fuseSearch(sliceEntries)],
  ] as const;
  for (const query of devQueries.slice(0, 200)) slice[0][1](query);
  return {
    planted: { entities: planted.length, names: plantedNames }, synthetic: options.synthetic, generationSeconds, entriesMegabytes,
    indexedNames: index.size.names, buildSeconds, indexMegabytes, threshold: options.threshold,
    dev, heldOut: heldOutFigures,
    slice: { names: sliceIndex.size.names, queries: subset.length, unlisted: unlistedSubset.length, results: slice.map(([label, rank]) => figures(`${label}, ${size}`, runQueries(rank, subset), runUnlisted(rank, unlistedSubset))) },
    wider: { names: wider.length, falsePositiveRate: widerHits.filter((h) => h.hit).length / wider.length },
  };
}

const fixed = (value: number, digits = 3) => value.toFixed(digits);

/** The section of bench/results-screening.md. */
export function syntheticSection(bench: SyntheticBench): string {
  return `## Screening at a million names

Index: the shared lists (${bench.planted.entities} entities, ${bench.planted.names} names) planted among
${bench.synthetic.toLocaleString('en')} synthetic names from \`scripts/synthetic-names.ts\` (seeded; real name words
recombined by their frequency and by which word follows which in real names, persons and organizations in the real
proportion, none equal to a listed name): ${bench.indexedNames.toLocaleString('en')} distinct names indexed in
${fixed(bench.buildSeconds, 1)} s (generation: ${fixed(bench.generationSeconds, 1)} s). Index memory (heap and typed-array buffers after
garbage collection, before and after building): ${fixed(bench.indexMegabytes, 0)} MiB; the list entries it indexes, held by the caller: ${fixed(bench.entriesMegabytes, 0)} MiB.
Queries: the development and held-out splits as on the shared lists, less the held-out queries in original script;
unlisted names checked against the synthetic names too (a synthetic namesake is a correct hit). Threshold ${bench.threshold}.

${SUMMARY_HEAD}
${summaryRow('Development split, 1M+ names', bench.dev)}
${summaryRow('Held-out split, 1M+ names', bench.heldOut)}

False positives on ${bench.wider.names} names from the wider pools (\`widerUnlistedNames\`): ${fixed(bench.wider.falsePositiveRate)}. Among a million names
recombined from the lists' words, many plausible unlisted names have a near namesake (a letter or a middle name
apart), and any hit counts as a false positive here.

${matcherTable([bench.dev, bench.heldOut])}

Held-out split at 1M+ names by variant:

${variantTable([bench.heldOut])}

The baselines scan every name per query (over a million names, seconds per query), so they ran on a slice of
${bench.slice.names.toLocaleString('en')} names (every planted name, then synthetic ones) with ${bench.slice.queries} held-out queries and ${bench.slice.unlisted} unlisted names,
our matcher on the same slice and subset beside them: their recall there rests on ${bench.slice.queries} queries, and their time grows with
the number of names.

${matcherTable(bench.slice.results)}
`;
}
