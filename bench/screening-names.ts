// How the screening evaluation reads names, independently of the matcher
// under test (src/screening/matching): labels must not move when the
// matcher's own normalization changes, or the evaluation would follow it.
import anyAscii from 'any-ascii';
import doubleMetaphone from 'talisman/phonetics/double-metaphone.js';

/** Lower-case ASCII words: any script transliterated, apostrophes dropped, any other punctuation a break. */
export function plainWords(name: string): string[] {
  return anyAscii(name)
    .toLowerCase()
    .replace(/['`´’‘]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The words in order: what "the same name" means when one name is taken out of a list. */
export const orderedKey = (name: string) => plainWords(name).join(' ');

/** The words in any order: which entities carry a name (the same person on several lists counts as found). */
export const nameKey = (name: string) => plainWords(name).sort().join(' ');

/**
 * How the name sounds, word order aside (Double Metaphone of each word):
 * a name that sounds like a listed one is a transliteration of it, not an
 * unlisted name (Ahmad Hassan for Ahmed HASSAN), so a hit on it is no false positive.
 */
export const soundKey = (name: string) => plainWords(name).map(wordSound).sort().join(' ');

const sounds = new Map<string, string>();
function wordSound(word: string): string {
  let sound = sounds.get(word);
  if (sound === undefined) sounds.set(word, (sound = /^\d+$/.test(word) ? word : doubleMetaphone(word)[0]));
  return sound;
}

export type Script = 'Latin' | 'Arabic' | 'Cyrillic' | 'Han' | 'Hangul' | 'other';
const SCRIPTS: Array<[Exclude<Script, 'Latin' | 'other'>, RegExp]> = [
  ['Arabic', /\p{Script=Arabic}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Han', /\p{Script=Han}/u],
];

/** The name's non-Latin script if it has letters of one, else Latin (or other: no letters at all). */
export function scriptOf(name: string): Script {
  for (const [script, pattern] of SCRIPTS) if (pattern.test(name)) return script;
  return /\p{L}/u.test(name) ? (/\p{Script=Latin}/u.test(name) ? 'Latin' : 'other') : 'other';
}

/** Every entity carrying each name (by nameKey). */
export function carriersByName(entries: Array<{ id: string; entity: { names: Array<{ full: string }> } }>): Map<string, Set<string>> {
  const carriers = new Map<string, Set<string>>();
  for (const { id, entity } of entries) {
    for (const name of entity.names) {
      const key = nameKey(name.full);
      if (!key) continue;
      const ids = carriers.get(key);
      if (ids) ids.add(id);
      else carriers.set(key, new Set([id]));
    }
  }
  return carriers;
}

/** A query with the answer: the entities a reviewer must be shown. */
export interface LabelledQuery {
  name: string;
  kind: 'PERSON' | 'ORGANIZATION';
  variant: string;
  /** Every entity carrying the original name (the same person on several lists counts as found). */
  expected: Set<string>;
  /** YYYY, YYYY-MM or YYYY-MM-DD, when the query brings a date of birth. */
  birthDate?: string;
  /** Searched in the lists without their names in original script (a query in that script must reach a romanized name). */
  withoutOriginalScript?: boolean;
}

/** mulberry32: small, fast, and the same sequence for a seed on every platform. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
