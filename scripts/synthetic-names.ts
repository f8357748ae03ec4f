// A synthetic watchlist of a million names or more, for the screening
// benchmark (bench/screening-synthetic.ts): the real lists' name words
// recombined, so that token frequencies, name lengths and the mix of
// cultures and of persons and organizations follow the real lists rather
// than random strings. Deterministic for a seed.
//
// Each name copies the length (in words) of a real name of its kind, starts
// with a first word drawn by its frequency among real first words, and
// continues with a word that followed the previous one in some real name
// (half the time; this keeps Korean, Arabic, Russian or Spanish names
// coherent and repeats phrases like "trading company") or a word drawn by
// frequency from real words at the same place (middle or last). A longer
// list also has more distinct names: 4% of words are new ones, made letter
// by letter from the real words (a Markov chain over three letters), about
// what Heaps' law fitted to the real lists gives at a million names (the
// vocabulary grows as the number of words to the power 0.55). Names the
// real lists carry, repeats, and names ending with a joining word (al, of)
// or an initial are skipped: every name is distinct and none is a listed name.
//
//   npx tsx scripts/synthetic-names.ts [count] [--out names.tsv]
// prints token statistics of the real and the synthetic names, and with
// --out writes "KIND<TAB>name" lines.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ListedEntity } from '../src/screening/lists/listed-entity.ts';
import { nameTokens, words } from '../src/screening/matching/normalize.ts';
import { seededRandom } from '../bench/screening-names.ts';

export interface SyntheticName {
  name: string;
  kind: 'PERSON' | 'ORGANIZATION';
}

type Kind = SyntheticName['kind'];

/** Words with repeats: a uniform pick is a pick by frequency. */
interface NameModel {
  lengths: number[];
  first: string[];
  middle: string[];
  last: string[];
  next: Map<string, string[]>;
  /** Letters that followed each ORDER letters in real words ('^' pads the start, '$' ends a word). */
  letters: Map<string, string[]>;
  known: Set<string>;
}

const FOLLOW_REAL_NEXT_WORD = 0.5;
/** Words that join others and never end a real name (Ahmad Al, Bank Of): a name ending with one is drawn again. */
const JOINERS = new Set(['al', 'el', 'ul', 'bin', 'ibn', 'bint', 'abu', 'abd', 'de', 'del', 'da', 'di', 'la', 'le', 'van', 'von', 'y', 'and', 'of', 'the', 'for', 'in']);
const MAX_WORDS = 8;
const NEW_WORD_RATE = 0.04;
/** Letters of context for new words. */
const ORDER = 3;

const kindOf = (entity: ListedEntity): Kind => (entity.kind === 'PERSON' ? 'PERSON' : 'ORGANIZATION');
const capitalized = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** How screening sees a name, order aside: one signature, one name to the matcher. */
export const signature = (name: string) => nameTokens(name).sort().join(' ');

function learn(names: string[][]): NameModel {
  const model: NameModel = { lengths: [], first: [], middle: [], last: [], next: new Map(), letters: new Map(), known: new Set() };
  for (const name of names) {
    for (const word of name) {
      if (word.length < 3 || model.known.has(word) || /\d/.test(word)) continue;
      model.known.add(word);
      const padded = `${'^'.repeat(ORDER)}${word}$`;
      for (let i = ORDER; i < padded.length; i++) append(model.letters, padded.slice(i - ORDER, i), padded[i]!);
    }
    if (!name.length || name.length > MAX_WORDS) continue;
    model.lengths.push(name.length);
    model.first.push(name[0]!);
    name.forEach((word, i) => {
      if (i === 0) return;
      (i === name.length - 1 ? model.last : model.middle).push(word);
      append(model.next, name[i - 1]!, word);
    });
  }
  return model;
}

function append(map: Map<string, string[]>, key: string, value: string) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A word no real name has, letter by letter from the real words' letter sequences. */
function newWord(model: NameModel, random: () => number): string {
  const pick = (values: string[]) => values[Math.floor(random() * values.length)]!;
  for (;;) {
    let word = '';
    let context = '^'.repeat(ORDER);
    for (let letter = pick(model.letters.get(context)!); letter !== '$' && word.length < 16; letter = pick(model.letters.get(context)!)) {
      word += letter;
      context = context.slice(1) + letter;
    }
    if (word.length >= 3 && !model.known.has(word)) return word;
  }
}

function compose(model: NameModel, random: () => number): string[] {
  const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)]!;
  const length = pick(model.lengths);
  const name = [pick(model.first)];
  for (let i = 1; i < length; i++) {
    const followers = model.next.get(name[i - 1]!);
    const place = i === length - 1 ? model.last : model.middle.length ? model.middle : model.last;
    name.push(followers && random() < FOLLOW_REAL_NEXT_WORD ? pick(followers) : pick(place));
  }
  return name.map((word) => (word.length >= 3 && !JOINERS.has(word) && random() < NEW_WORD_RATE ? newWord(model, random) : word));
}

/**
 * `count` distinct names, persons and organizations in the real lists'
 * proportion, none of them carried by `entities`; with the signatures of
 * all names, real and synthetic (what is listed, for unlisted names).
 */
export function syntheticNames(entities: ListedEntity[], count: number, seed = 20_240_601): { names: SyntheticName[]; signatures: Set<string> } {
  const random = seededRandom(seed);
  const real: Record<Kind, string[][]> = { PERSON: [], ORGANIZATION: [] };
  const taken = new Set<string>();
  for (const entity of entities) {
    for (const name of entity.names) {
      real[kindOf(entity)].push(words(name.full));
      taken.add(signature(name.full));
    }
  }
  const models: Record<Kind, NameModel> = { PERSON: learn(real.PERSON), ORGANIZATION: learn(real.ORGANIZATION) };
  const personShare = real.PERSON.length / (real.PERSON.length + real.ORGANIZATION.length);
  const names: SyntheticName[] = [];
  for (let attempts = 0; names.length < count && attempts < count * 5; attempts++) {
    const kind: Kind = random() < personShare ? 'PERSON' : 'ORGANIZATION';
    const composed = compose(models[kind], random);
    // Joining words, and initials (0.2% of real persons' names end with one; following "Robert" by the "A" of "Robert A. Brady" would make far more).
    if (JOINERS.has(composed.at(-1)!) || composed.at(-1)!.length === 1) continue;
    const name = composed.map(capitalized).join(' ');
    const key = signature(name);
    if (!key || taken.has(key)) continue;
    taken.add(key);
    names.push({ name, kind });
  }
  if (names.length < count) throw new Error(`only ${names.length} distinct synthetic names after ${count * 5} attempts`);
  return { names, signatures: taken };
}

const NOTHING: never[] = [];

/** The names as list entries (one name each, no other features), ids synthetic:0, synthetic:1 ... */
export function syntheticEntities(names: SyntheticName[]): Array<{ id: string; sourceId: string; listVersion: string; entity: ListedEntity }> {
  return names.map(({ name, kind }, i) => ({
    id: `synthetic:${i}`,
    sourceId: 'synthetic',
    listVersion: 'synthetic',
    entity: {
      externalId: String(i), kind, names: [{ full: name, strength: 'PRIMARY' }],
      birthDates: NOTHING, birthPlaces: NOTHING, nationalities: NOTHING, countries: NOTHING, addresses: NOTHING, identifiers: NOTHING, programs: NOTHING, topics: NOTHING,
    },
  }));
}

/** Token statistics of a set of names: how alike the synthetic and real lists are. */
export function tokenStatistics(names: SyntheticName[]) {
  const frequency = new Map<string, number>();
  let tokens = 0;
  for (const { name, kind } of names) {
    const texts = nameTokens(name, kind);
    tokens += texts.length;
    for (const text of new Set(texts)) frequency.set(text, (frequency.get(text) ?? 0) + 1);
  }
  const counts = [...frequency.values()].sort((a, b) => b - a);
  const share = (n: number) => counts.slice(0, n).reduce((a, b) => a + b, 0) / tokens;
  return {
    names: names.length,
    persons: names.filter((n) => n.kind === 'PERSON').length / names.length,
    tokensPerName: tokens / names.length,
    distinctTokens: counts.length,
    /** Share of all token occurrences taken by the 10 and 100 most common tokens. */
    top10: share(10),
    top100: share(100),
    /** Share of distinct tokens seen in one name only. */
    singletons: counts.filter((c) => c === 1).length / counts.length,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { loadSharedLists } = await import('../bench/screening-lists.ts');
  const count = Number(process.argv[2] ?? 1_000_000);
  const out = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : undefined;
  const entities = loadSharedLists().map((e) => e.entity).filter((e) => e.kind === 'PERSON' || e.kind === 'ORGANIZATION');
  const real = entities.flatMap((e) => e.names.map((n) => ({ name: n.full, kind: kindOf(e) })));
  const started = performance.now();
  const synthetic = syntheticNames(entities, count).names;
  console.log(`${synthetic.length} names in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.table({ real: tokenStatistics(real), synthetic: tokenStatistics(synthetic) });
  console.log(synthetic.slice(0, 15).map((n) => `${n.kind.padEnd(12)} ${n.name}`).join('\n'));
  if (out) writeFileSync(out, synthetic.map((n) => `${n.kind}\t${n.name}`).join('\n') + '\n');
}
