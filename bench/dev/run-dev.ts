// The matcher's development figures (issue 19, round 2): recall at the
// threshold on bench/dev queries and the development split, false positives
// on common names by culture. Run: npx tsx bench/dev/run-dev.ts [--show]
// (--show prints the misses and false positives).
import { DEFAULT_THRESHOLD, type IndexedEntity, NameIndex } from '../../src/screening/matching/name-index.ts';
import { loadSharedLists } from '../screening-lists.ts';
import { figures, ourRanker, percentile, type RankQuery, runQueries } from '../screening-measure.ts';
import { type LabelledQuery, nameKey, scriptOf } from '../screening-names.ts';
import { buildQueries, unlistedNames, widerUnlistedNames } from '../screening-queries.ts';
import { devArabicScript, devUnlisted, devVariants } from './dev-queries.ts';

/** The entries without their names in any script but Latin: a query in Arabic script must reach a romanized name. */
export function latinOnly(entries: IndexedEntity[]): IndexedEntity[] {
  return entries.flatMap((entry) => {
    const names = entry.entity.names.filter((n) => ['Latin', 'other'].includes(scriptOf(n.full)));
    return names.length ? [{ ...entry, entity: { ...entry.entity, names } }] : [];
  });
}

const show = process.argv.includes('--show');
const entries = loadSharedLists();
const index = NameIndex.build(entries);
const latin = NameIndex.build(latinOnly(entries));
const ours = ourRanker(index, DEFAULT_THRESHOLD);
const oursLatin = ourRanker(latin, DEFAULT_THRESHOLD);
const rank = (q: RankQuery) => (q.withoutOriginalScript ? oursLatin(q) : ours(q));

const report = (label: string, queries: LabelledQuery[]) => {
  const outcomes = runQueries(rank, queries);
  const f = figures(label, outcomes);
  console.log(`${label}: ${queries.length} queries, recall@1 ${f.recallAt1.toFixed(3)}, @5 ${f.recallAt5.toFixed(3)}, p50 ${f.p50Ms.toFixed(2)} ms, p99 ${f.p99Ms.toFixed(2)} ms`);
  for (const [variant, r] of Object.entries(f.byVariant).sort()) console.log(`  ${variant}: ${r.at1.toFixed(3)} / ${r.at5.toFixed(3)} (${r.n})`);
  if (show) {
    for (const o of outcomes.filter((o) => !o.at1)) {
      const [top] = (o.query.withoutOriginalScript ? latin : index).search({ name: o.query.name, kind: o.query.kind }, { limit: 1, threshold: 0.5 });
      const want = [...o.query.expected].map((id) => entries.find((e) => e.id === id)?.entity.names[0]?.full).slice(0, 1);
      console.log(`    MISS [${o.query.variant}] ${o.query.name} → want ${want} ; top ${top ? `${top.explanation.name.matched} ${top.score} (${top.primaryName})` : '-'}`);
    }
  }
};

report('dev data (bench/dev)', [...devArabicScript(entries), ...devVariants(entries)]);
report('development split', buildQueries(entries, 2000));

const listedKeys = new Set(entries.flatMap(({ entity }) => entity.names.map((n) => nameKey(n.full))));
const groups: Record<string, { names: number; hits: number }> = {};
const times: number[] = [];
for (const u of devUnlisted(entries)) {
  const started = performance.now();
  const hits = index.search({ name: u.name }, { limit: 1 });
  times.push(performance.now() - started);
  const g = (groups[u.group] ??= { names: 0, hits: 0 });
  g.names++;
  g.hits += Number(hits.length > 0);
  if (show && hits.length) console.log(`    FP [${u.group}] ${u.name} → ${hits[0]!.explanation.name.matched} ${hits[0]!.score}`);
}
const all = Object.values(groups).reduce((s, g) => ({ names: s.names + g.names, hits: s.hits + g.hits }), { names: 0, hits: 0 });
console.log(`dev unlisted (bench/dev): ${all.names} names, false positives ${(all.hits / all.names).toFixed(3)}, p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms`);
for (const [group, g] of Object.entries(groups)) console.log(`  ${group}: ${(g.hits / g.names).toFixed(3)} (${g.hits}/${g.names})`);
for (const [label, names] of [['development split unlisted', unlistedNames(1000, listedKeys)], ['development split wider unlisted', widerUnlistedNames(3000, listedKeys)]] as const) {
  const hits = names.filter((name) => ours({ name }).length > 0);
  console.log(`${label}: ${names.length} names, false positives ${(hits.length / names.length).toFixed(3)}`);
  if (show) for (const name of hits) console.log(`    FP ${name}`);
}
