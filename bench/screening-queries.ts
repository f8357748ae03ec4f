// The labelled query set for screening, generated from the real lists with a
// seeded random generator: each query is a listed name changed in one way a
// real subject's name differs from the list (typo, transposition, reordering,
// a missing middle name, an initial, a title, a transliteration, an alias,
// diacritics), plus names that are not listed for the false-positive rate.
import type { ListedEntity } from '../src/screening/lists/listed-entity.ts';
import { nameTokens } from '../src/screening/matching/normalize.ts';

export interface LabelledQuery {
  name: string;
  kind: 'PERSON' | 'ORGANIZATION';
  variant: string;
  /** Every entity carrying the original name (the same person on several lists counts as found). */
  expected: Set<string>;
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

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
// Common romanisation swaps, applied where they occur.
const TRANSLITERATIONS: Array<[RegExp, string]> = [
  [/mohammed|mohamed|muhammad/i, 'Mohamad'], [/ou/i, 'u'], [/ei/i, 'ey'], [/ph/i, 'f'], [/ks/i, 'x'], [/x/i, 'ks'], [/q/i, 'k'],
  [/kh/i, 'h'], [/y/i, 'i'], [/ee/i, 'i'], [/sh/i, 'sch'], [/j/i, 'dzh'], [/v/i, 'w'], [/c/i, 'k'],
];
const ACCENTS: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ö', u: 'ü', n: 'ñ', c: 'ç' };

export function buildQueries(entities: Array<{ id: string; entity: ListedEntity }>, count: number, seed = 7): LabelledQuery[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const byName = new Map<string, Set<string>>();
  for (const { id, entity } of entities) {
    for (const name of entity.names) {
      const key = nameTokens(name.full).sort().join(' ');
      if (!byName.has(key)) byName.set(key, new Set());
      byName.get(key)!.add(id);
    }
  }
  const candidates = entities.filter(({ entity }) => (entity.kind === 'PERSON' || entity.kind === 'ORGANIZATION') && nameTokens(entity.names[0]!.full).length >= 2);
  const changeWord = (name: string, change: (word: string) => string) => {
    const words = name.split(' ');
    const long = words.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 5);
    if (!long.length) return null;
    const [, i] = pick(long);
    words[i] = change(words[i]!);
    return words.join(' ');
  };
  const variants: Record<string, (name: string, entity: ListedEntity) => string | null> = {
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
    'missing middle name': (name, entity) => {
      const words = name.split(' ');
      return entity.kind === 'PERSON' && words.length >= 3 ? [words[0], ...words.slice(2)].join(' ') : null;
    },
    initial: (name, entity) => {
      const words = name.split(' ');
      return entity.kind === 'PERSON' && words.length >= 3 ? [`${words[0]![0]}.`, ...words.slice(1)].join(' ') : null;
    },
    title: (name, entity) => (entity.kind === 'PERSON' ? `${pick(['Mr', 'Dr', 'Sheikh', 'General', 'Haji'])} ${name}` : null),
    transliteration: (name) => {
      const applicable = TRANSLITERATIONS.filter(([pattern]) => pattern.test(name));
      if (!applicable.length) return null;
      const [pattern, replacement] = pick(applicable);
      return name.replace(pattern, replacement);
    },
    alias: (_name, entity) => {
      const aliases = entity.names.filter((n) => n.strength === 'STRONG' && nameTokens(n.full).length >= 2);
      return aliases.length ? pick(aliases).full : null;
    },
    diacritics: (name) => name.replace(/[aeiounc]/g, (c) => (random() < 0.3 ? ACCENTS[c] ?? c : c)),
  };
  const names = Object.keys(variants);
  const queries: LabelledQuery[] = [];
  for (let attempts = 0; queries.length < count && attempts < count * 20; attempts++) {
    const { entity } = pick(candidates);
    const variant = pick(names);
    const original = entity.names[0]!.full;
    const changed = variants[variant]!(original, entity);
    if (!changed || changed === original) continue;
    const sourceName = variant === 'alias' ? changed : original;
    queries.push({
      name: changed,
      kind: entity.kind === 'PERSON' ? 'PERSON' : 'ORGANIZATION',
      variant,
      expected: byName.get(nameTokens(sourceName).sort().join(' ')) ?? new Set(),
    });
  }
  return queries;
}

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'Emma', 'Lukas', 'Sofia', 'Mateo', 'Chloe', 'Noah', 'Aiko', 'Wei', 'Priya', 'Arjun', 'Olga', 'Pierre', 'Ingrid', 'Tomasz', 'Ana', 'Kwame', 'Fatima', 'Lars', 'Giulia', 'Hannah', 'Diego', 'Yuki', 'Elif', 'Nia', 'Oscar', 'Freya'];
const LAST = ['Thornbury', 'Kowalczyk', 'Lindqvist', 'Okonkwo', 'Bergmann', 'Castellano', 'Nakamura', 'Fairweather', 'Haugland', 'Delacroix', 'Vasquez', 'Brennan', 'Oyelaran', 'Marchetti', 'Sorensen', 'Takahashi', 'Whitcombe', 'Dubois', 'Novak', 'Achterberg', 'Pemberton', 'Rasmussen', 'Eriksen', 'Villanueva', 'Halvorsen', 'Mbeki', 'Lindgren', 'Quintero', 'Ashworth', 'Kuznetsova'];

/** Plausible names made of common given names and surnames, none of them listed as such. */
export function unlistedNames(count: number, listed: Set<string>, seed = 11): string[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const names = new Set<string>();
  for (let attempts = 0; names.size < count && attempts < count * 10; attempts++) {
    const name = random() < 0.3 ? `${pick(FIRST)} ${pick(FIRST)} ${pick(LAST)}` : `${pick(FIRST)} ${pick(LAST)}`;
    if (!listed.has(nameTokens(name).sort().join(' '))) names.add(name);
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
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const names = new Set<string>();
  for (let attempts = 0; names.size < count && attempts < count * 10; attempts++) {
    const name = random() < 0.3 ? `${pick(WIDER_FIRST)} ${pick(WIDER_FIRST)} ${pick(WIDER_LAST)}` : `${pick(WIDER_FIRST)} ${pick(WIDER_LAST)}`;
    if (!listed.has(nameTokens(name).sort().join(' '))) names.add(name);
  }
  return [...names];
}
