// The screening sections of bench/results-screening.md.
import type { ScreeningBench, SplitRun } from './screening.ts';
import type { MatcherFigures, Recall } from './screening-measure.ts';

/** The issue's targets at the default threshold. */
export const TARGETS = { recallAt1: 0.98, recallAt5: 0.995, falsePositives: 0.005, p50Ms: 1, p99Ms: 5 };

const f = (value: number, digits = 3) => value.toFixed(digits);
const met = (ok: boolean) => (ok ? '✓' : '✗ missed');
export const atLeast = (value: number, target: number) => `${f(value)} ${met(value >= target)}`;
export const atMost = (value: number | null, target: number, digits = 3) => (value === null ? '–' : `${f(value, digits)} ${met(value <= target)}`);

/** One row of the summary: a query set, ours, marked against the targets. */
export function summaryRow(set: string, r: MatcherFigures): string {
  const worst = r.worst ? `${r.worst.variant}: ${f(r.worst.at1)}` : '–';
  return `| ${set} | ${r.queries} | ${atLeast(r.recallAt1, TARGETS.recallAt1)} | ${atLeast(r.recallAt5, TARGETS.recallAt5)} | ${worst} | ${atMost(r.falsePositiveRate, TARGETS.falsePositives)} | ${atMost(r.p50Ms, TARGETS.p50Ms, 2)} | ${atMost(r.p99Ms, TARGETS.p99Ms, 2)} |`;
}

export const SUMMARY_HEAD = `| Query set | queries | recall@1 (≥ ${TARGETS.recallAt1}) | recall@5 (≥ ${TARGETS.recallAt5}) | worst variant, recall@1 | false positives (≤ ${TARGETS.falsePositives}) | p50 ms (≤ ${TARGETS.p50Ms}) | p99 ms (≤ ${TARGETS.p99Ms}) |
|---|---|---|---|---|---|---|---|`;

export function matcherTable(results: MatcherFigures[]): string {
  return `| Matcher | queries | recall@1 | recall@5 | unlisted names | false positives | p50 ms | p99 ms | searches/s |
|---|---|---|---|---|---|---|---|---|
${results.map((r) => `| ${r.matcher} | ${r.queries} | ${f(r.recallAt1)} | ${f(r.recallAt5)} | ${r.unlisted || '–'} | ${r.falsePositiveRate === null ? '–' : f(r.falsePositiveRate)} | ${f(r.p50Ms, 2)} | ${f(r.p99Ms, 2)} | ${f(r.perSecond, 0)} |`).join('\n')}`;
}

const cell = (r: Recall | undefined, withN = false) => (r ? `${f(r.at1)}${withN ? ` (${r.n})` : ''}` : '–');

/** Recall by variant: ours on all queries (@1 and @5), then each matcher of the subset (@1, with how many queries of the variant it had). */
export function variantTable(results: MatcherFigures[], label = 'Variant'): string {
  const [ours, ...subset] = results;
  const variants = Object.keys(ours!.byVariant).sort((a, b) => ours!.byVariant[a]!.at1 - ours!.byVariant[b]!.at1 || a.localeCompare(b));
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    row([label, 'queries', 'recall@1', 'recall@5', ...subset.map((r) => `${r.matcher}, recall@1 (queries)`)]),
    row(Array(4 + subset.length).fill('---')),
    ...variants.map((v) => row([v, String(ours!.byVariant[v]!.n), atLeast(ours!.byVariant[v]!.at1, TARGETS.recallAt1), f(ours!.byVariant[v]!.at5), ...subset.map((r) => cell(r.byVariant[v], true))])),
  ].join('\n');
}

export function recallTable(groups: Record<string, Recall>, label: string, note: (group: string) => string = () => ''): string {
  const rows = Object.entries(groups).sort((a, b) => b[1].n - a[1].n);
  return `| ${label} | queries | recall@1 | recall@5 |
|---|---|---|---|
${rows.map(([g, r]) => `| ${g}${note(g)} | ${r.n} | ${f(r.at1)} | ${f(r.at5)} |`).join('\n')}`;
}

const baselineNote = (run: SplitRun, what: string) =>
  `The baselines scan every name per query, so they ran on ${run.subset.queries} ${what}${run.subset.unlisted ? ` and ${run.subset.unlisted} unlisted names` : ''}, our matcher on the same subset beside them; per variant that is a handful of queries each (in brackets).`;

export function screeningSection(bench: ScreeningBench, spellingRelations: Set<string>): string {
  const { dev, heldOut, aliases } = bench;
  const groups = Object.entries(heldOut.unlistedByGroup).sort((a, b) => b[1].names - a[1].names);
  return `## Screening: recall at the operating threshold, false positives, speed

Lists: the snapshots in \`../shared/datasets/sanctions\` (OFAC SDN and Consolidated with aliases and addresses, UN,
US Congress PEPs): ${bench.lists.entities} entities read and parsed in ${f(bench.parseSeconds, 2)} s, ${bench.lists.names} distinct names indexed in
${f(bench.buildSeconds, 2)} s, ${f(bench.indexMegabytes, 0)} MiB (heap and typed-array buffers after garbage collection, before and after building).
Threshold: ${bench.threshold}, the default. **Recall is counted at the threshold**: a query counts for recall@1 when
its first hit at or above the threshold is an expected entity (any entity carrying the name it was made from:
the same person on several lists counts as found), for recall@5 when one of the first five hits at or above it
is; a hit under the threshold is shown to nobody and counts as a miss. A false positive is an unlisted name
with any hit at or above the threshold. Times: one search at a time, single-threaded, in the engine (no HTTP).

Three query sets, built apart from the matcher (labels use their own normalization, \`bench/screening-names.ts\`):

- **Development split** (\`bench/screening-queries.ts\`, seed 7, variants drawn evenly): the matcher may be tuned on it, tests use it.
- **Held-out split** (\`bench/screening-heldout.ts\`, its own code for each variant, seed 20191119, its own mix):
  nothing in \`tests/\` or \`src/\` imports it (a unit test checks). Names drawn from every reliable name of an
  entry; variants from real resources where one exists: word spellings the publishers use for the same word in
  other entries ("publisher spelling"), names in original script searched in the lists without their
  original-script names, and romanized by packages (Cyrillic: cyrillic-to-translit-js; Chinese: pinyin-pro).
  No maintained given-name or nickname variant package exists on the registry, so there is no nickname variant;
  the lists carry no Hangul, so no Korean-script query can be labelled (the one Korean name in Chinese characters,
  金铁三 for KIM CHOL SAM, is among the Chinese ones).
- **Leave-one-name-out** (\`bench/screening-aliases.ts\`): every name of an entry that has other names, searched in
  the lists with that name taken out (from every entry carrying it); the entry must come back.

### Against the issue's targets

${SUMMARY_HEAD}
${summaryRow('Development split', dev.results[0]!)}
${summaryRow('Held-out split', heldOut.results[0]!)}
${summaryRow('Leave-one-name-out, every name', aliases.results[0]!)}
${summaryRow('Leave-one-name-out, spellings of the same name', aliases.spellings)}

False positives: development split on its ${dev.results[0]!.unlisted} unlisted names; held-out split on ${heldOut.results[0]!.unlisted} held-out unlisted
names (below); leave-one-name-out measures recall only. "Spellings of the same name" leaves out the relations no
name matcher can be held to (an unrelated a.k.a., an acronym, names sharing only some words); both rows are shown.

### Development split

${dev.results[0]!.queries} queries, ${dev.results[0]!.unlisted} unlisted names (\`unlistedNames\`). False positives on ${dev.wider.names} names from wider pools
(\`widerUnlistedNames\`): ${f(dev.wider.falsePositiveRate)}. ${baselineNote(dev, 'queries (the first)')}

${matcherTable(dev.results)}

${variantTable(dev.results)}

### Held-out split

${heldOut.results[0]!.queries} queries; by kind: ${Object.entries(heldOut.byKind).map(([k, r]) => `${k} ${f(r.at1)} @1, ${f(r.at5)} @5 (${r.n})`).join('; ')}.
Queries in original script (and their romanizations) are searched in the lists without their names in original
script, so they must reach a romanized name. ${baselineNote(heldOut, 'queries spread over the split')}

${matcherTable(heldOut.results)}

${variantTable(heldOut.results)}

Held-out unlisted names (\`bench/screening-unlisted.ts\`): the most common given and family names of many cultures in
each culture's order, the issue's examples, and ordinary company names; ${heldOut.soundAlikesLeftOut} candidates that sound like a listed
name word for word (Double Metaphone, order aside) were left out, as a hit on them is a correct hit.

| Group | names | false positives | rate |
|---|---|---|---|
${groups.map(([g, r]) => `| ${g} | ${r.names} | ${r.falsePositives} | ${f(r.falsePositives / r.names)} |`).join('\n')}

The issue's examples: ${heldOut.examples.map((e) => `${e.name}: ${e.hit ? `hits ${e.hit}` : 'no hit'}`).join('; ')}${heldOut.examplesLeftOut.length ? `; left out as sounding like a listed name: ${heldOut.examplesLeftOut.join('; ')}` : ''}.

### Leave-one-name-out over the lists' own names

${aliases.results[0]!.queries} names of persons and organizations (and ${aliases.byKind['vessel or aircraft']?.n ?? 0} of vessels and aircraft, by kind only), of ${aliases.entities} entries, tested in ${aliases.folds} folds (one index per fold, no two names of an entry in one
fold; ${f(aliases.buildSeconds, 1)} s of index building in all). Left out: ${aliases.weakLeftOut} names only ever listed as weak aliases (OFAC's quoted
a.k.a.s in remarks, which OFAC calls weak; UN aliases of "Low" quality), and ${aliases.cappedLeftOut} names of entries with more than ${aliases.perEntity}
names beyond the ${aliases.perEntity} drawn at random. Relation: how the name relates to the closest name of the entry left in the index, from the
names alone (same words reordered; same letters run together or split; every word alike both ways, Jaro-Winkler ≥ 0.85
or same Double Metaphone: spelling; all words of one alike in the other: words added or dropped; some words alike:
partly shared; initials: acronym; nothing alike: different name). † marks the relations in the "spellings" row.

${recallTable(aliases.results[0]!.byVariant, 'Relation', (g) => (spellingRelations.has(g) ? ' †' : ''))}

${recallTable(aliases.byKind, 'Kind')}

${recallTable(aliases.byScript, 'Script of the name')}

<details><summary>By kind and relation</summary>

${recallTable(aliases.byKindAndRelation, 'Kind: relation')}

</details>

On fold 1, its index built for each matcher without that fold's names: ${baselineNote(aliases, 'names spread over the fold')}

${matcherTable(aliases.results.slice(1))}
`;
}
