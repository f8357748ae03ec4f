// DEVELOPMENT queries for the matcher's weak categories (issue 19, round 2),
// made by this code from the lists and from bench/dev/common-names.ts: names
// in Arabic script (entries at even positions only), middle names dropped,
// publisher spellings, words run together, and common unlisted names by
// culture for false positives. Seeds differ from every other split.
import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import doubleMetaphone from 'talisman/phonetics/double-metaphone.js';
import type { IndexedEntity } from '../../src/screening/matching/name-index.ts';
import { carriersByName, type LabelledQuery, nameKey, plainWords, scriptOf, seededRandom, soundKey } from '../screening-names.ts';
import { COMPANY_WORDS, CULTURES } from './common-names.ts';

/** Legal forms and joining words as a reader would drop them (not the matcher's list). */
const LEGAL = new Set(['co', 'ltd', 'limited', 'llc', 'l', 'inc', 'corp', 'corporation', 'company', 'sa', 'sas', 'ltda', 'gmbh', 'jsc', 'ooo', 'oao', 'zao', 'pao', 'ao', 'fze', 'fzco', 'plc', 'srl', 'sarl', 'bv', 'nv', 'ag', 'the', 'de', 'cv', 'pte', 'pjsc', 'cjsc', 'ojsc', 'lp', 'llp', 'cia', 'c', 'a', 's']);

/** Titles and honorifics written with names (general knowledge, not the matcher's list). */
const DEV_TITLES = ['doctor', 'dr', 'engineer', 'eng', 'mufti', 'qari', 'hafiz', 'ustad', 'ustadh', 'imam', 'amir', 'emir', 'sheikh', 'shaykh', 'haji', 'hajji', 'mawlana', 'mullah', 'mulla', 'general', 'colonel', 'major', 'captain', 'prof', 'mr', 'mrs', 'sir', 'senator', 'judge', 'minister', 'president', 'commander', 'lieutenant', 'brigadier'];

export interface DevUnlisted {
  name: string;
  group: string;
  kind: 'PERSON' | 'ORGANIZATION';
}

const kindOf = (entry: IndexedEntity): 'PERSON' | 'ORGANIZATION' | null =>
  entry.entity.kind === 'PERSON' ? 'PERSON' : entry.entity.kind === 'ORGANIZATION' ? 'ORGANIZATION' : null;

/** Names a reviewer must be shown (not weak aliases), in Latin letters, with their entry. */
function reliableLatinNames(entries: IndexedEntity[]) {
  return entries.flatMap((entry) =>
    kindOf(entry) ? entry.entity.names.filter((n) => n.strength !== 'WEAK' && scriptOf(n.full) === 'Latin').map((n) => ({ entry, name: n.full })) : [],
  );
}

/** Common names of each culture, and ordinary company names, none listed nor sounding word for word like a listed name. */
export function devUnlisted(entries: IndexedEntity[], perCulture = 150, companies = 200, seed = 1907): DevUnlisted[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const listedKeys = new Set<string>();
  const listedSounds = new Set<string>();
  for (const { entity } of entries) {
    for (const n of entity.names) {
      listedKeys.add(nameKey(n.full));
      listedSounds.add(soundKey(n.full));
    }
  }
  const unlisted = (name: string) => !listedKeys.has(nameKey(name)) && !listedSounds.has(soundKey(name));
  const out: DevUnlisted[] = [];
  for (const culture of CULTURES) {
    const seen = new Set<string>();
    for (let attempts = 0; seen.size < perCulture && attempts < perCulture * 20; attempts++) {
      const name = culture.compose(() => pick(culture.given), () => pick(culture.family), random);
      if (seen.has(name) || !unlisted(name)) continue;
      seen.add(name);
      out.push({ name, group: culture.name, kind: 'PERSON' });
    }
  }
  const seen = new Set<string>();
  for (let attempts = 0; seen.size < companies && attempts < companies * 20; attempts++) {
    const name = [pick(COMPANY_WORDS.first), pick(COMPANY_WORDS.trade), pick(COMPANY_WORDS.form)].filter(Boolean).join(' ');
    if (seen.has(name) || !unlisted(name)) continue;
    seen.add(name);
    out.push({ name, group: 'organization', kind: 'ORGANIZATION' });
  }
  return out;
}

/** Every name in Arabic script of the entries at even positions, to be found among the romanized names (searched without original script). */
export function devArabicScript(entries: IndexedEntity[]): LabelledQuery[] {
  const carriers = carriersByName(entries);
  const queries: LabelledQuery[] = [];
  entries.forEach((entry, position) => {
    const kind = kindOf(entry);
    if (position % 2 || !kind) return;
    // The entry, and any other entry carrying one of its romanized names (the same person on several lists).
    const expected = new Set([entry.id, ...entry.entity.names.filter((n) => scriptOf(n.full) === 'Latin').flatMap((n) => [...(carriers.get(nameKey(n.full)) ?? [])])]);
    for (const n of entry.entity.names) {
      if (scriptOf(n.full) !== 'Arabic') continue;
      queries.push({ name: n.full, kind, variant: 'Arabic script', expected, withoutOriginalScript: true });
    }
  });
  return queries;
}

/** Labelled variants of reliable listed names: middle names dropped, a word in another listed spelling, two words run together. */
export function devVariants(entries: IndexedEntity[], perVariant = 150, seed = 2611): LabelledQuery[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const carriers = carriersByName(entries);
  const names = reliableLatinNames(entries);
  // Listed words by sound: the spellings publishers use for one word (Mohammed / Muhammad, Hizballah / Hezbollah).
  const spellings = new Map<string, Set<string>>();
  for (const { name } of names) {
    for (const word of plainWords(name)) {
      if (word.length < 4 || /\d/.test(word)) continue;
      const sound = doubleMetaphone(word)[0];
      const set = spellings.get(sound) ?? new Set<string>();
      set.add(word);
      spellings.set(sound, set);
    }
  }
  // Spellings one entry uses for a word of another of its names, word for word (Muhammad / Mohammed, Husayn / Hussein).
  const entrySpellings = new Map<string, Set<string>>();
  for (const entry of entries) {
    const all = entry.entity.names.filter((n) => scriptOf(n.full) === 'Latin').map((n) => plainWords(n.full));
    for (const a of all) {
      for (const b of all) {
        if (a === b || a.length !== b.length) continue;
        a.forEach((w, k) => {
          const o = b[k]!;
          if (w === o || w.length < 3 || o.length < 3 || /\d/.test(w + o) || jaroWinkler(w, o) < 0.75) return;
          const set = entrySpellings.get(w) ?? new Set<string>();
          set.add(o);
          entrySpellings.set(w, set);
        });
      }
    }
  }
  const variants: Record<string, (words: string[], kind: 'PERSON' | 'ORGANIZATION') => string[] | null> = {
    'entry spelling': (words) => {
      const options = words.map((w, i) => [i, [...(entrySpellings.get(w) ?? [])]] as const).filter(([, o]) => o.length);
      if (!options.length) return null;
      const [i, others] = pick(options);
      return words.map((w, k) => (k === i ? pick(others) : w));
    },
    'middle names dropped': (words, kind) => {
      if (words.length < 3) return null;
      // One middle word; a person's middle names all from four words on.
      return kind === 'PERSON' && words.length >= 4 && random() < 0.4 ? [words[0]!, words.at(-1)!] : words.filter((_, i) => i !== 1 + Math.floor(random() * (words.length - 2)));
    },
    'publisher spelling': (words) => {
      // Another listed spelling of the word: the same sound, the same first letter, close in letters (Mohammed / Muhammad, not Oleg / Alagha).
      const alike = (w: string, o: string) => o !== w && o[0] === w[0] && jaroWinkler(w, o) >= 0.8;
      const options = words.map((w, i) => [i, [...(spellings.get(doubleMetaphone(w)[0]) ?? [])].filter((o) => alike(w, o))] as const).filter(([, o]) => o.length);
      if (!options.length) return null;
      const [i, others] = pick(options);
      return words.map((w, k) => (k === i ? pick(others) : w));
    },
    'title anywhere': (words, kind) => {
      if (kind !== 'PERSON' || words.length < 2) return null;
      const at = Math.floor(random() * (words.length + 1));
      return [...words.slice(0, at), pick(DEV_TITLES), ...words.slice(at)];
    },
    'split': (words) => {
      const long = words.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 8);
      if (!long.length) return null;
      const [w, i] = pick(long);
      const at = 3 + Math.floor(random() * (w.length - 5));
      return [...words.slice(0, i), w.slice(0, at), w.slice(at), ...words.slice(i + 1)];
    },
    'one-word organization': (words, kind) => {
      const core = words.filter((w) => !LEGAL.has(w));
      if (kind !== 'ORGANIZATION' || core.length !== 1 || words.length < 2) return null;
      const choice = random();
      return choice < 0.34 ? core : choice < 0.67 ? [...core, pick(['llc', 'ltd', 'limited', 'inc', 'co', 'sa', 'gmbh'])] : words;
    },
    'run together': (words) => {
      const joinable = words.map((_, i) => i).filter((i) => i + 1 < words.length && words[i]!.length >= 3 && words[i + 1]!.length >= 3);
      if (!joinable.length) return null;
      const at = pick(joinable);
      return [...words.slice(0, at), words[at]! + words[at + 1]!, ...words.slice(at + 2)];
    },
  };
  const queries: LabelledQuery[] = [];
  for (const [variant, change] of Object.entries(variants)) {
    let made = 0;
    for (let attempts = 0; made < perVariant && attempts < perVariant * 50; attempts++) {
      const { entry, name } = pick(names);
      const kind = kindOf(entry)!;
      const changed = change(plainWords(name), kind);
      if (!changed) continue;
      const query = changed.join(' ');
      if (carriers.has(nameKey(query))) continue;
      queries.push({ name: query, kind, variant, expected: carriers.get(nameKey(name)) ?? new Set([entry.id]) });
      made++;
    }
  }
  return queries;
}
