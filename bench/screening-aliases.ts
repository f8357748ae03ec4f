// Leave-one-name-out over the lists' own names: every reliable name of an
// entry that has other names is searched in the lists with that name taken
// out, and the entry must come back. These are spellings the publishers
// chose (transliterations, reorderings, a.k.a.s, names in original script),
// not ours. The names under test are split into folds, no two names of one
// entry in the same fold, so one index per fold serves all its names.
import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import type { ListedEntity } from '../src/screening/lists/listed-entity.ts';
import { type LabelledQuery, nameKey, orderedKey, plainWords, type Script, scriptOf, seededRandom, soundKey } from './screening-names.ts';

/** A name under test; its variant is its relation to the entry's names left in the index (relationOf). */
export interface AliasQuery extends LabelledQuery {
  entityKind: 'person' | 'organization' | 'vessel or aircraft';
  script: Script;
  fold: number;
}

export interface AliasFold {
  /** orderedKey of the names taken out of the index for this fold. */
  removed: Set<string>;
  queries: AliasQuery[];
}

export interface AliasFolds {
  folds: AliasFold[];
  /** Names only ever listed as weak aliases (OFAC's quoted a.k.a.s in remarks, UN aliases of "Low" quality): not searched. */
  weakLeftOut: number;
  /** Names of entries with more names than perEntity that were not drawn. */
  cappedLeftOut: number;
  entities: number;
}

type Entry = { id: string; sourceId: string; listVersion: string; entity: ListedEntity };

/** Relations that are spellings of the same name; the others (an unrelated a.k.a., an acronym) no name matcher can be held to. */
export const SPELLING_RELATIONS = new Set(['original script', 'to original script only', 'reordering', 'run together or split', 'spelling', 'words added or dropped']);
const RELATION_ORDER = ['reordering', 'run together or split', 'spelling', 'words added or dropped', 'partly shared words', 'acronym', 'different name'];
const JOINERS = new Set(['of', 'the', 'and', 'for', 'al', 'el', 'de', 'la', 'in']);

const wordsAlike = (x: string, y: string) =>
  x === y || (x.length === 1 ? y.startsWith(x) : y.length === 1 ? x.startsWith(y) : jaroWinkler(x, y) >= 0.85 || soundKey(x) === soundKey(y));

/** How a name relates to another name of the same entry, from the names alone. */
function relationTo(q: string[], r: string[]): string {
  if ([...q].sort().join(' ') === [...r].sort().join(' ')) return 'reordering';
  if (q.join('') === r.join('')) return 'run together or split';
  const covered = (a: string[], b: string[]) => a.filter((x) => b.some((y) => wordsAlike(x, y))).length;
  const inQ = covered(q, r);
  const inR = covered(r, q);
  if (inQ === q.length && inR === r.length) return 'spelling';
  if (inQ === q.length || inR === r.length) return 'words added or dropped';
  if (inQ > 0) return 'partly shared words';
  const initials = (words: string[]) => words.filter((x) => !JOINERS.has(x)).map((x) => x[0]).join('');
  if ((q.length === 1 && q[0] === initials(r)) || (r.length === 1 && r[0] === initials(q))) return 'acronym';
  return 'different name';
}

/** The closest relation of a name to any of the names left (in original script: "original script"). */
export function relationOf(name: string, others: string[]): string {
  if (!['Latin', 'other'].includes(scriptOf(name))) return 'original script';
  const latin = others.filter((o) => scriptOf(o) === 'Latin');
  if (!latin.length) return 'to original script only';
  const q = plainWords(name);
  const ranks = latin.map((o) => RELATION_ORDER.indexOf(relationTo(q, plainWords(o))));
  return RELATION_ORDER[Math.min(...ranks)]!;
}

/**
 * The names under test and their folds. A name is tested once however many
 * entries carry it (the same person on several lists): every carrier loses
 * it in that fold, and any entry carrying the same words counts as found.
 * Entries with many names contribute at most `perEntity` of them (drawn at
 * random), so that a few entries with dozens of aliases do not weigh most.
 */
export function aliasFolds(entries: Entry[], perEntity = 24, seed = 5): AliasFolds {
  const random = seededRandom(seed);
  const carriersOf = new Map<string, Array<{ index: number; name: string; weak: boolean }>>();
  const byWords = new Map<string, Set<string>>();
  entries.forEach(({ id, entity }, index) => {
    for (const name of entity.names) {
      const key = orderedKey(name.full);
      if (!key) continue;
      const list = carriersOf.get(key) ?? [];
      if (!list.some((c) => c.index === index)) list.push({ index, name: name.full, weak: name.strength === 'WEAK' });
      carriersOf.set(key, list);
      const words = nameKey(name.full);
      byWords.set(words, (byWords.get(words) ?? new Set()).add(id));
    }
  });
  const distinctKeys = entries.map(({ entity }) => new Set(entity.names.map((n) => orderedKey(n.full)).filter(Boolean)));
  let weakLeftOut = 0;
  const units: Array<{ key: string; name: string; carriers: number[] }> = [];
  for (const [key, carriers] of carriersOf) {
    // An entry with this name and at least one other.
    const withOthers = carriers.filter((c) => distinctKeys[c.index]!.size >= 2);
    if (!withOthers.length) continue;
    const reliable = withOthers.find((c) => !c.weak);
    if (!reliable) {
      weakLeftOut++;
      continue;
    }
    units.push({ key, name: reliable.name, carriers: carriers.map((c) => c.index) });
  }
  // Random order: which names an entry keeps under the cap, and an even load over folds.
  const order = units.map((u) => ({ u, r: random() })).sort((a, b) => a.r - b.r).map(({ u }) => u);
  const tested = new Map<number, number>();
  const foldsOf = new Map<number, Set<number>>();
  const folds: AliasFold[] = [];
  let cappedLeftOut = 0;
  for (const unit of order) {
    if (unit.carriers.every((c) => (tested.get(c) ?? 0) >= perEntity)) {
      cappedLeftOut++;
      continue;
    }
    const used = new Set(unit.carriers.flatMap((c) => [...(foldsOf.get(c) ?? [])]));
    let fold = -1;
    for (let f = 0; f < folds.length; f++) if (!used.has(f) && (fold < 0 || folds[f]!.queries.length < folds[fold]!.queries.length)) fold = f;
    if (fold < 0) {
      fold = folds.length;
      folds.push({ removed: new Set(), queries: [] });
    }
    const { entity } = entries[unit.carriers[0]!]!;
    const expected = new Set(byWords.get(nameKey(unit.name)) ?? []);
    for (const c of unit.carriers) {
      expected.add(entries[c]!.id);
      tested.set(c, (tested.get(c) ?? 0) + 1);
      foldsOf.set(c, (foldsOf.get(c) ?? new Set()).add(fold));
    }
    const others = unit.carriers.flatMap((c) => entries[c]!.entity.names.map((n) => n.full).filter((n) => orderedKey(n) !== unit.key));
    folds[fold]!.removed.add(unit.key);
    folds[fold]!.queries.push({
      name: unit.name,
      kind: entity.kind === 'PERSON' ? 'PERSON' : 'ORGANIZATION',
      variant: relationOf(unit.name, others),
      entityKind: entity.kind === 'PERSON' ? 'person' : entity.kind === 'ORGANIZATION' ? 'organization' : 'vessel or aircraft',
      expected,
      script: scriptOf(unit.name),
      fold,
    });
  }
  return { folds, weakLeftOut, cappedLeftOut, entities: new Set(units.flatMap((u) => u.carriers)).size };
}

/** The entries without the names of a fold (an entry left with no name is left out). */
export function withoutNames(entries: Entry[], removed: Set<string>): Entry[] {
  return entries.flatMap((entry) => {
    const names = entry.entity.names.filter((n) => !removed.has(orderedKey(n.full)));
    if (names.length === entry.entity.names.length) return [entry];
    return names.length ? [{ ...entry, entity: { ...entry.entity, names } }] : [];
  });
}
