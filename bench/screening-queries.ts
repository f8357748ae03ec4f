// The DEVELOPMENT split of the screening evaluation: labelled queries
// generated from the real lists with a seeded random generator. Each query is
// a listed name changed in one way a real subject's name differs from the
// list, plus names that are not listed for the false-positive rate. The
// matcher may be tuned on this split (tests use it); bench/screening-heldout.ts
// is the held-out split, written apart, that nothing in tests/ or src/ reads.
import type { ListedEntity } from '../src/screening/lists/listed-entity.ts';
import { carriersByName, type LabelledQuery, nameKey, plainWords, seededRandom } from './screening-names.ts';

export type { LabelledQuery } from './screening-names.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
// Common romanisation swaps, applied where they occur.
const TRANSLITERATIONS: Array<[RegExp, string]> = [
  [/mohammed|mohamed|muhammad/i, 'Mohamad'], [/ou/i, 'u'], [/ei/i, 'ey'], [/ph/i, 'f'], [/ks/i, 'x'], [/x/i, 'ks'], [/q/i, 'k'],
  [/kh/i, 'h'], [/y/i, 'i'], [/ee/i, 'i'], [/sh/i, 'sch'], [/j/i, 'dzh'], [/v/i, 'w'], [/c/i, 'k'],
];
const ACCENTS: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ö', u: 'ü', n: 'ñ', c: 'ç' };
// Legal forms as listed, and how people write them instead.
const LOOSE_FORMS: Array<[RegExp, string[]]> = [
  [/\bCO\.,? LTD\.?$/i, ['Company Limited', 'co ltd', 'Co. Ltd']],
  [/\bS\.A\.$/i, ['s a', 'SA', 'S.A']],
  [/\bS\.A\.S\.$/i, ['SAS', 's a s']],
  [/\bLTDA\.?$/i, ['Limitada', 'ltda']],
  [/\bLTD\.?$/i, ['Limited', 'ltd']],
  [/\bLIMITED$/i, ['Ltd', 'Ltd.']],
  [/\bL\.?L\.?C\.?$/i, ['L.L.C.', 'llc', 'Limited Liability Company']],
  [/\bINC\.?$/i, ['Incorporated', 'inc']],
  [/\bCORP(?:\.|ORATION)$/i, ['Corp', 'Corporation']],
  [/\bCOMPANY$/i, ['Co.', 'Co']],
  [/\bGMBH$/i, ['G.m.b.H.', 'gmbh']],
  [/\bC\.A\.$/i, ['CA', 'c a']],
];
const LEGAL_WORDS = new Set(['co', 'ltd', 'limited', 'sa', 'sas', 'ltda', 'llc', 'inc', 'corp', 'corporation', 'company', 'gmbh', 'ca', 'the', 'sarl', 'srl', 'jsc', 'ooo', 'fze', 'pte', 'plc']);
const TITLES = ['Mr', 'Dr', 'Sheikh', 'General', 'Haji', 'Mullah', 'Colonel'];
/** Listed words that are also titles: the organization's name must still be found with them. */
const TITLE_WORDS = new Set(['general', 'sheikh', 'shaykh', 'doctor', 'colonel', 'captain', 'haji', 'sayed', 'sayyid', 'emir', 'amir', 'sultan', 'imam']);
const ABD_FAMILY = ['Abd al-', 'Abdul ', 'Abdel ', 'Abd-al-', 'Abdul-'];
const ABD_ALLAH = ['Abdullah', 'Abdallah', 'Abd Allah', 'Abd-Allah', 'Abdulla'];

export function buildQueries(entities: Array<{ id: string; entity: ListedEntity }>, count: number, seed = 7): LabelledQuery[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const carriers = carriersByName(entities);
  const candidates = entities.filter(({ entity }) => (entity.kind === 'PERSON' || entity.kind === 'ORGANIZATION') && plainWords(entity.names[0]!.full).length >= 1);
  const changeWord = (name: string, change: (word: string) => string | null) => {
    const words = name.split(' ');
    const long = words.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 5);
    if (!long.length) return null;
    const [, i] = pick(long);
    const changed = change(words[i]!);
    if (changed === null) return null;
    words[i] = changed;
    return words.join(' ');
  };
  const isPerson = (entity: ListedEntity) => entity.kind === 'PERSON';
  const coreWords = (name: string) => plainWords(name).filter((w) => !LEGAL_WORDS.has(w));
  const fullDate = (entity: ListedEntity) => entity.birthDates.find((d) => d.length === 10);
  const variants: Record<string, (name: string, entity: ListedEntity) => string | { name: string; birthDate: string } | null> = {
    typo: (name) => changeWord(name, (w) => {
      const at = 1 + Math.floor(random() * (w.length - 2));
      const kind = random();
      if (kind < 0.34) return w.slice(0, at) + pick([...LETTERS]) + w.slice(at + 1);
      if (kind < 0.67) return w.slice(0, at) + w.slice(at + 1);
      return w.slice(0, at) + pick([...LETTERS]) + w.slice(at);
    }),
    transposition: (name) => changeWord(name, (w) => {
      const at = 1 + Math.floor(random() * (w.length - 3));
      return w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2);
    }),
    reordered: (name) => {
      const words = name.split(' ');
      return words.length >= 2 ? [...words.slice(1), words[0]].join(' ') : null;
    },
    'missing middle name': (name) => {
      const words = name.split(' ');
      if (words.length < 3) return null;
      const drop = 1 + Math.floor(random() * (words.length - 2));
      return words.filter((_, i) => i !== drop).join(' ');
    },
    initial: (name, entity) => {
      const words = name.split(' ');
      return isPerson(entity) && words.length >= 3 ? [`${words[0]![0]}.`, ...words.slice(1)].join(' ') : null;
    },
    title: (name, entity) => {
      if (!isPerson(entity)) return null;
      const words = name.split(' ');
      const at = pick([0, 0, words.length, Math.min(1, words.length)]);
      return [...words.slice(0, at), pick(TITLES), ...words.slice(at)].join(' ');
    },
    transliteration: (name) => {
      const applicable = TRANSLITERATIONS.filter(([pattern]) => pattern.test(name));
      if (!applicable.length) return null;
      const [pattern, replacement] = pick(applicable);
      return name.replace(pattern, replacement);
    },
    alias: (_name, entity) => {
      const aliases = entity.names.filter((n) => n.strength === 'STRONG' && plainWords(n.full).length >= 2);
      return aliases.length ? pick(aliases).full : null;
    },
    diacritics: (name) => name.replace(/[aeiounc]/g, (c) => (random() < 0.3 ? ACCENTS[c] ?? c : c)),
    'lower case, no punctuation': (name) => (/[^\p{L}\p{N}\s]/u.test(name) ? name.toLowerCase().replace(/[^\p{L}\p{N}\s]+/gu, '') : null),
    'one-word organization': (name, entity) => (!isPerson(entity) && coreWords(name).length === 1 && plainWords(name).length >= 2 ? name.toLowerCase() : null),
    'loose legal form': (name, entity) => {
      if (isPerson(entity)) return null;
      const form = LOOSE_FORMS.find(([pattern]) => pattern.test(name));
      return form ? name.replace(form[0], pick(form[1])) : null;
    },
    'title word in organization': (name, entity) => (!isPerson(entity) && plainWords(name).some((w) => TITLE_WORDS.has(w)) ? name.toLowerCase() : null),
    'Arabic name family': (name) => {
      if (/\babd[ -]?(?:u?llah?|allah|-allah)\b/i.test(name)) return name.replace(/\babd[ -]?(?:u?llah?|allah|-allah)\b/i, pick(ABD_ALLAH));
      const family = /\babd(?:ul|el|al)?(?:[ -]al)?[ -](?=\p{L})/iu;
      return family.test(name) ? name.replace(family, pick(ABD_FAMILY)) : null;
    },
    'run together or split': (name) => {
      if (name.includes('-')) return name.replace('-', '');
      const words = name.split(' ');
      const joinable = words.map((_, i) => i).filter((i) => i + 1 < words.length && words[i]!.length >= 3 && words[i + 1]!.length >= 3);
      if (!joinable.length) return null;
      const at = pick(joinable);
      return [...words.slice(0, at), words[at]! + words[at + 1]!.toLowerCase(), ...words.slice(at + 2)].join(' ');
    },
    'spelling family': (name) => changeWord(name, (w) => {
      const vowels = [...w].map((c, i) => [c, i] as const).filter(([c]) => 'aeiouAEIOU'.includes(c) && c.length);
      if (vowels.length < 2) return null;
      const swap: Record<string, string> = { a: 'o', o: 'a', e: 'i', i: 'e', u: 'o', A: 'O', O: 'A', E: 'I', I: 'E', U: 'O' };
      const chars = [...w];
      for (const [c, i] of [pick(vowels), pick(vowels)]) chars[i] = swap[c]!;
      return chars.join('');
    }),
    'birth date approximate': (name, entity) => {
      const date = fullDate(entity);
      if (!isPerson(entity) || !date) return null;
      const [year, month, day] = date.split('-');
      return { name, birthDate: Number(day) <= 12 && day !== month ? `${year}-${day}-${month}` : year! };
    },
    'birth date differs': (name, entity) => {
      const date = entity.birthDates[0];
      return isPerson(entity) && date ? { name, birthDate: `${Number(date.slice(0, 4)) + 6}-06-15` } : null;
    },
  };
  const names = Object.keys(variants);
  const queries: LabelledQuery[] = [];
  for (let attempts = 0; queries.length < count && attempts < count * 40; attempts++) {
    const variant = pick(names);
    // Entries until one the variant applies to (one-word organizations and Abd names are rare).
    let entity = pick(candidates).entity;
    let changed = variants[variant]!(entity.names[0]!.full, entity);
    for (let tries = 0; !changed && tries < 300; tries++) {
      entity = pick(candidates).entity;
      changed = variants[variant]!(entity.names[0]!.full, entity);
    }
    const original = entity.names[0]!.full;
    if (!changed) continue;
    const query = typeof changed === 'string' ? { name: changed } : changed;
    if (query.name === original && !('birthDate' in query) && !['one-word organization', 'title word in organization'].includes(variant)) continue;
    const sourceName = variant === 'alias' ? query.name : original;
    queries.push({
      ...query,
      kind: isPerson(entity) ? 'PERSON' : 'ORGANIZATION',
      variant,
      expected: carriers.get(nameKey(sourceName)) ?? new Set(),
    });
  }
  return queries;
}

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'Emma', 'Lukas', 'Sofia', 'Mateo', 'Chloe', 'Noah', 'Aiko', 'Wei', 'Priya', 'Arjun', 'Olga', 'Pierre', 'Ingrid', 'Tomasz', 'Ana', 'Kwame', 'Fatima', 'Lars', 'Giulia', 'Hannah', 'Diego', 'Yuki', 'Elif', 'Nia', 'Oscar', 'Freya'];
const LAST = ['Thornbury', 'Kowalczyk', 'Lindqvist', 'Okonkwo', 'Bergmann', 'Castellano', 'Nakamura', 'Fairweather', 'Haugland', 'Delacroix', 'Vasquez', 'Brennan', 'Oyelaran', 'Marchetti', 'Sorensen', 'Takahashi', 'Whitcombe', 'Dubois', 'Novak', 'Achterberg', 'Pemberton', 'Rasmussen', 'Eriksen', 'Villanueva', 'Halvorsen', 'Mbeki', 'Lindgren', 'Quintero', 'Ashworth', 'Kuznetsova'];

/** Plausible names made of common given names and surnames, none of them listed as such (`listed`: nameKey of every listed name). */
export function unlistedNames(count: number, listed: Set<string>, seed = 11): string[] {
  return composeUnlisted(FIRST, LAST, count, listed, seed);
}

function composeUnlisted(first: string[], last: string[], count: number, listed: Set<string>, seed: number): string[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const names = new Set<string>();
  for (let attempts = 0; names.size < count && attempts < count * 10; attempts++) {
    const name = random() < 0.3 ? `${pick(first)} ${pick(first)} ${pick(last)}` : `${pick(first)} ${pick(last)}`;
    if (!listed.has(nameKey(name))) names.add(name);
  }
  return [...names];
}

// Wider pools for a second false-positive figure: given names and surnames common in Europe, the
// Americas, Africa, the Middle East, South and East Asia, many of them close to listed names' words
// (Haddad, Nassar, Saleh, Kang, Jung), as a bank's customers are.
const WIDER_FIRST = 'Oliver Amelia George Isla Harry Ava Jack Mia Charlie Grace Thomas Lily William Ella Henry Evie Leo Ruby Alfie Sophie Max Anna Felix Clara Jonas Lena Paul Marie Ben Laura Luca Elena Marco Chiara Pablo Lucia Javier Carmen Hugo Ines Rafael Beatriz Joao Mariana Pedro Camila Sebastian Valentina Andres Daniela Rahul Ananya Vikram Kavya Rohan Isha Sanjay Meera Hiroshi Sakura Kenji Haruka Minho Jiwoo Seojun Hana Chen Li Ming Xiu Tuan Linh Somchai Malee Adebayo Chiamaka Tunde Ngozi Kofi Ama Thabo Lerato Omar Layla Karim Yasmin Tariq Nadia Emre Zeynep Dmitri Irina Pavel Natalia Andrzej Agnieszka Mikko Aino Bjorn Astrid Sven Karin'.split(' ');
const WIDER_LAST = 'Whitfield Hargreaves Pennington Ellsworth Blackwood Fairbanks Cromwell Ashford Kingsley Winslow Hoffmann Schreiber Zimmermann Krause Lehmann Dupont Moreau Lefebvre Fontaine Girard Rossi Bianchi Ferraro Galli Conti Fernandez Gutierrez Navarro Morales Ortega Almeida Carvalho Ribeiro Teixeira Barbosa Sharma Iyer Banerjee Deshpande Kulkarni Tanaka Suzuki Watanabe Yamamoto Kobayashi Park Choi Jung Kang Yoon Wang Zhang Liu Nguyen Tran Pham Okafor Adeyemi Mensah Owusu Nkosi Dlamini Mwangi Otieno Haddad Khoury Nassar Saleh Yilmaz Demir Kaya Sahin Ivanova Petrov Smirnov Sokolov Wojcik Kaminski Lewandowski Virtanen Korhonen Nieminen Johansson Andersson Nilsson Larsen Hansen Jensen Murphy Kelly Walsh Byrne OBrien Fitzgerald MacLeod Campbell Stewart Robertson'.split(' ');

/** Like unlistedNames, from the wider pools. */
export function widerUnlistedNames(count: number, listed: Set<string>, seed = 99): string[] {
  return composeUnlisted(WIDER_FIRST, WIDER_LAST, count, listed, seed);
}
