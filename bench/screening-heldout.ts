// The HELD-OUT split of the screening evaluation. Written apart from the
// development split (bench/screening-queries.ts): its own code for every
// variant, its own seed and mix, names drawn from every reliable name of an
// entry (not only the primary one), and variants taken from real resources
// where one exists: spellings the publishers themselves use for a word in
// other entries, and names in original script romanized by packages
// (cyrillic-to-translit-js, pinyin-pro). Nothing in tests/ or src/ may
// import this file (tests/unit/screening-evaluation.test.ts checks), so
// nobody tunes the matcher to it by accident.
import cyrillicModule from 'cyrillic-to-translit-js';
import { pinyin } from 'pinyin-pro';
import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import type { ListedEntity, ListedName } from '../src/screening/lists/listed-entity.ts';
import { carriersByName, type LabelledQuery, nameKey, plainWords, scriptOf, seededRandom } from './screening-names.ts';

const SEED = 20_191_119;
// The package's types declare an ES default export; at run time the CommonJS module is the function itself.
const cyrillicToTranslit = cyrillicModule as unknown as typeof cyrillicModule.default;

/** Relative frequency of each variant in the split (the development split draws them uniformly). */
const MIX: Record<string, number> = {
  'lower case, punctuation as spaces': 1.2,
  'middle names dropped': 1.5,
  'one-word organization': 0.8,
  'legal form loose or dropped': 1.2,
  'title in any position': 1.2,
  'Arabic name family': 1,
  'run together or split': 1,
  'spelling family': 1,
  'publisher spelling': 1.2,
  'keyboard typo': 0.7,
  'family name first': 0.6,
  'middle initial': 0.5,
  'birth date approximate': 0.8,
  'birth date differs': 0.4,
};

type Source = { id: string; entity: ListedEntity; name: ListedName };
type Made = { name: string; birthDate?: string } | null;

interface Word {
  text: string;
  /** Letters and digits only, lower case. */
  plain: string;
}

const toWords = (name: string): Word[] => name.split(/\s+/).filter(Boolean).map((text) => ({ text, plain: plainWords(text).join('') }));
const joinWords = (words: Word[]) => words.map((w) => w.text).join(' ');

// Legal forms by their letters, with ways they are written (the last words of a listed name, compared letters only).
const FORMS: Record<string, string[]> = {
  sa: ['S A', 'SA', 'sa', 'Sociedad Anonima'],
  sas: ['S A S', 'sas'],
  ltd: ['Limited', 'Ltd', 'ltd'],
  limited: ['Ltd', 'LTD.', 'ltd'],
  coltd: ['Co Ltd', 'Company Limited', 'co. ltd'],
  llc: ['llc', 'L.L.C', 'L L C', 'Limited Liability Company'],
  ltda: ['Limitada', 'ltda'],
  inc: ['Inc', 'Incorporated'],
  corp: ['Corporation', 'corp'],
  corporation: ['Corp.', 'corp'],
  company: ['Co', 'Co.', 'Comp.'],
  co: ['Company', 'co'],
  gmbh: ['G.m.b.H.', 'Gmbh'],
  ca: ['C A', 'CA'],
  sarl: ['S.A.R.L', 's a r l'],
  srl: ['S.R.L', 'srl'],
  fze: ['F.Z.E.', 'FZE'],
  jsc: ['J.S.C.', 'Joint Stock Company'],
  pjsc: ['P.J.S.C.', 'Public Joint Stock Company'],
  ooo: ['O.O.O.', 'OOO'],
  pte: ['Pte.', 'Private'],
  plc: ['P.L.C.', 'Public Limited Company'],
};
const ARTICLES = new Set(['the', 'of', 'and', 'for', 'de', 'la', 'el']);

/** How many of the name's last words are a legal form, and which (by letters). */
function legalTail(words: Word[]): { length: number; form: string } | null {
  for (const length of [2, 1]) {
    if (words.length <= length) continue;
    const form = words.slice(-length).map((w) => w.plain).join('');
    if (FORMS[form]) return { length, form };
  }
  return null;
}

const HONORIFICS = ['Dr.', 'Prof.', 'Col.', 'Maj. Gen.', 'Hajji', 'Sayyid', 'Mawlawi', 'Eng.', 'H.E.', 'Sheikh', 'Al-Shaykh', 'Mullah', 'Mr.', 'Mrs.'];
const TITLE_LIKE = new Set(['general', 'sheikh', 'shaikh', 'shaykh', 'doctor', 'emir', 'amir', 'sultan', 'imam', 'colonel', 'captain', 'haji', 'hajji', 'sayed', 'sayyid', 'mullah', 'king', 'prince', 'lord', 'major']);

// Arabic theophoric names: "servant of" (abd) with the article joined or not, written in every way publishers and passports do.
const ABD_RENDERINGS = [(r: string) => `Abd al-${r}`, (r: string) => `Abdul ${r}`, (r: string) => `Abdel ${r}`, (r: string) => `Abdul${r.toLowerCase()}`, (r: string) => `Abd-al-${r}`, (r: string) => `'Abd al ${r}`, (r: string) => `Abd Al ${r}`];
const ABD_ALLAH_RENDERINGS = ['Abdallah', 'Abdullah', 'Abd Allah', 'Abd-Allah', 'Abdullahi', "'Abd Allah"];

// Vowels and consonants that romanizations of the same name swap (Hezbollah / Hizballah, Mohammad / Muhammed, Yusuf / Yousef).
const SPELLING_RULES: Array<[RegExp, string]> = [[/e/, 'i'], [/i/, 'e'], [/o/, 'a'], [/a/, 'o'], [/ou/, 'u'], [/u(?!o)/, 'ou'], [/y/, 'i'], [/([lmnrst])\1/, '$1'], [/([aeiou])([lmnrs])(?=[aeiou])/, '$1$2$2'], [/dh/, 'd'], [/aa/, 'a'], [/ee/, 'i']];

const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
function keyboardNeighbour(letter: string, random: () => number): string {
  const lower = letter.toLowerCase();
  const row = KEYBOARD_ROWS.find((r) => r.includes(lower));
  if (!row) return letter;
  const at = row.indexOf(lower);
  const options = [row[at - 1], row[at + 1]].filter((c): c is string => Boolean(c));
  const chosen = options[Math.floor(random() * options.length)]!;
  return letter === lower ? chosen : chosen.toUpperCase();
}

/** Word spellings the publishers use for the same word in one entry's names (Ismail / Ismaeel, HANIYA / HANIYYA): real variants, not ours. */
export function publisherSpellings(entries: Array<{ entity: ListedEntity }>): Map<string, string[]> {
  const variants = new Map<string, Set<string>>();
  for (const { entity } of entries) {
    const names = entity.names.filter((n) => n.strength !== 'WEAK' && scriptOf(n.full) === 'Latin').map((n) => plainWords(n.full));
    for (let a = 0; a < names.length; a++) {
      for (let b = a + 1; b < names.length; b++) {
        for (const x of names[a]!) {
          if (x.length < 4) continue;
          for (const y of names[b]!) {
            if (y.length < 4 || x === y || x[0] !== y[0] || jaroWinkler(x, y) < 0.88) continue;
            for (const [from, to] of [[x, y], [y, x]] as const) {
              const set = variants.get(from) ?? new Set<string>();
              set.add(to);
              variants.set(from, set);
            }
          }
        }
      }
    }
  }
  return new Map([...variants].map(([word, set]) => [word, [...set].sort()]));
}

const capitalize = (word: string) => (word ? word[0]!.toUpperCase() + word.slice(1) : word);

/** Names in original script romanized by a package where one is kept for that script (Arabic: none that knows names). */
function romanizedByPackage(name: string): string | null {
  const script = scriptOf(name);
  if (script === 'Cyrillic') return cyrillicToTranslit({ preset: 'ru' }).transform(name);
  if (script === 'Han') return pinyin(name, { toneType: 'none', surname: 'head', type: 'array' }).map(capitalize).join(' ');
  return null;
}

/** The part of a name in original script ("Amir Khazmat (original script: Амир Хазмат)" → "Амир Хазмат"). */
function originalScriptPart(name: string): string | null {
  const script = scriptOf(name);
  if (script === 'Latin' || script === 'other') return null;
  if (!/\p{Script=Latin}/u.test(name)) return name.trim();
  // A romanized name with the original after it, in brackets.
  const inside = /\(([^()]*)\)/.exec(name)?.[1]?.replace(/^original script:\s*/i, '');
  return inside && scriptOf(inside) === script ? inside.trim() : null;
}

export interface HeldOutOptions {
  count: number;
  /** At most this many queries in original script and their romanizations (all there are, when fewer). */
  originalScript: number;
}

/** The held-out queries: `count` drawn by MIX, then names in original script (searched in the lists without them). */
export function heldOutQueries(entries: Array<{ id: string; entity: ListedEntity }>, options: HeldOutOptions = { count: 2000, originalScript: 200 }): LabelledQuery[] {
  const random = seededRandom(SEED);
  const carriers = carriersByName(entries);
  const spellings = publisherSpellings(entries);
  const wordFrequency = new Map<string, number>();
  for (const { entity } of entries) for (const n of entity.names) for (const w of new Set(plainWords(n.full))) wordFrequency.set(w, (wordFrequency.get(w) ?? 0) + 1);
  const sources: Source[] = entries.flatMap(({ id, entity }) =>
    entity.kind === 'PERSON' || entity.kind === 'ORGANIZATION'
      ? entity.names.filter((n) => n.strength !== 'WEAK' && scriptOf(n.full) === 'Latin' && plainWords(n.full).length >= 1).map((name) => ({ id, entity, name }))
      : [],
  );
  const chance = (p: number) => random() < p;
  const oneOf = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const person = (s: Source) => s.entity.kind === 'PERSON';
  const coreOf = (words: Word[]) => {
    const tail = legalTail(words);
    return words.slice(0, words.length - (tail?.length ?? 0)).filter((w) => !ARTICLES.has(w.plain));
  };

  const make: Record<string, (s: Source) => Made> = {
    'lower case, punctuation as spaces': ({ name }) => (/[.,'’()/&-]/.test(name.full) ? { name: name.full.toLowerCase().replace(/[.,'’()/&-]+/g, ' ').replace(/\s+/g, ' ').trim() } : null),
    'middle names dropped': (s) => {
      const words = toWords(s.name.full);
      if (person(s)) return words.length >= 3 ? { name: joinWords([words[0]!, words.at(-1)!]) } : null;
      const tail = legalTail(words)?.length ?? 0;
      const inner = words.map((w, i) => ({ w, i })).filter(({ w, i }) => i > 0 && i < words.length - 1 - tail && !ARTICLES.has(w.plain));
      if (coreOf(words).length < 3 || !inner.length) return null;
      // The most common inner word: the generic one people leave out (Trading, International, Industrial).
      const generic = inner.reduce((a, b) => ((wordFrequency.get(b.w.plain) ?? 0) > (wordFrequency.get(a.w.plain) ?? 0) ? b : a));
      return { name: joinWords(words.filter((_, i) => i !== generic.i)) };
    },
    'one-word organization': (s) => {
      if (person(s)) return null;
      const words = toWords(s.name.full);
      const tail = legalTail(words);
      if (coreOf(words).length !== 1 || !tail) return null;
      return { name: `${coreOf(words)[0]!.text.toLowerCase()} ${oneOf(FORMS[tail.form]!)}` };
    },
    'legal form loose or dropped': (s) => {
      if (person(s)) return null;
      const words = toWords(s.name.full);
      const tail = legalTail(words);
      if (!tail || coreOf(words).length < 1) return null;
      const kept = joinWords(words.slice(0, words.length - tail.length));
      return { name: chance(0.3) && coreOf(words).length >= 2 ? kept : `${kept} ${oneOf(FORMS[tail.form]!)}` };
    },
    'title in any position': (s) => {
      const words = toWords(s.name.full);
      if (!person(s)) return words.some((w) => TITLE_LIKE.has(w.plain)) ? { name: words.map((w) => capitalize(w.plain)).join(' ') } : null;
      const at = Math.floor(random() * (words.length + 1));
      return { name: [...words.slice(0, at).map((w) => w.text), oneOf(HONORIFICS), ...words.slice(at).map((w) => w.text)].join(' ') };
    },
    'Arabic name family': ({ name }) => {
      const words = toWords(name.full);
      for (let i = 0; i < words.length; i++) {
        const plain = words[i]!.plain;
        if (/^abd(?:u|e|a)?l{1,2}ah?i?$|^abdallah$/.test(plain) || (plain === 'abd' && words[i + 1]?.plain === 'allah')) {
          const span = plain === 'abd' ? 2 : 1;
          const current = words.slice(i, i + span).map((w) => w.plain).join('');
          const other = ABD_ALLAH_RENDERINGS.filter((r) => plainWords(r).join('') !== current);
          return { name: [...words.slice(0, i).map((w) => w.text), oneOf(other), ...words.slice(i + span).map((w) => w.text)].join(' ') };
        }
        // ABD AL-RAHMAN, ABDUL RAHMAN, ABDEL RAHMAN, ABDULRAHMAN, ABD-AL-RAHMAN
        const joined = /^abd(?:ul|el|al|ol|u|ou)([a-z]{3,})$/.exec(plain);
        const split = /^(?:abd|abdul|abdel|abdal|abdu|abdou)$/.test(plain) ? words[i + 1] : undefined;
        let root: string | undefined;
        let span = 1;
        if (joined && !['lah', 'lahi', 'llah', 'lahi'].includes(joined[1]!)) root = joined[1];
        else if (split) {
          root = split.plain.replace(/^(?:al|el|ul)(?=[a-z]{3,})/, '');
          span = 2;
          if (['al', 'el', 'ul'].includes(split.plain) && words[i + 2]) {
            root = words[i + 2]!.plain;
            span = 3;
          }
        } else if (/^abd(?:al|el|ul)$/.test(plain) && words[i + 1]) {
          root = words[i + 1]!.plain;
          span = 2;
        }
        if (!root || root === 'allah') continue;
        const rendering = oneOf(ABD_RENDERINGS)(capitalize(root));
        const before = words.slice(i, i + span).map((w) => w.text).join(' ');
        if (plainWords(rendering).join('') === plainWords(before).join('') && rendering.replace(/\W/g, '') === before.replace(/\W/g, '')) continue;
        return { name: [...words.slice(0, i).map((w) => w.text), rendering, ...words.slice(i + span).map((w) => w.text)].join(' ') };
      }
      return null;
    },
    'run together or split': ({ name }) => {
      const words = toWords(name.full);
      const hyphenated = words.findIndex((w) => /\p{L}-\p{L}/u.test(w.text));
      if (hyphenated >= 0 && chance(0.6)) return { name: joinWords(words.map((w, i) => (i === hyphenated ? { ...w, text: w.text.replace(/-/g, '') } : w))) };
      // A word starting with a joined article or abd part (ALKHALIFA, ABDULRAHMAN): split it.
      const joined = words.findIndex((w) => /^(?:al|el|abdul|abdel|abu|bin|ibn)[a-z]{4,}$/.test(w.plain));
      if (joined >= 0 && chance(0.7)) {
        const m = /^(al|el|abdul|abdel|abu|bin|ibn)(.+)$/i.exec(words[joined]!.text.replace(/[^\p{L}]/gu, ''))!;
        return { name: [...words.slice(0, joined).map((w) => w.text), m[1], m[2], ...words.slice(joined + 1).map((w) => w.text)].join(' ') };
      }
      const pairs = words.map((_, i) => i).filter((i) => i + 1 < words.length && words[i]!.plain.length >= 2 && words[i + 1]!.plain.length >= 3 && !legalTail(words.slice(0, i + 2)));
      if (!pairs.length) return null;
      const at = oneOf(pairs);
      return { name: [...words.slice(0, at).map((w) => w.text), words[at]!.text.replace(/\W/g, '') + words[at + 1]!.text.replace(/\W/g, '').toLowerCase(), ...words.slice(at + 2).map((w) => w.text)].join(' ') };
    },
    'spelling family': ({ name }) => {
      const words = toWords(name.full);
      const long = words.map((w, i) => ({ w, i })).filter(({ w }) => w.plain.length >= 5 && /^[a-z]+$/.test(w.plain));
      if (!long.length) return null;
      const { w, i } = oneOf(long);
      let text = w.plain;
      // Two changes of the same kind publishers make (e→i and o→a turn Hezbollah into Hizballah).
      const rules = SPELLING_RULES.filter(([pattern]) => pattern.test(text.slice(1)));
      if (rules.length < 1) return null;
      const first = oneOf(rules);
      const second = oneOf(rules.filter((r) => r !== first).concat(rules.length === 1 ? [first] : []));
      for (const [pattern, replacement] of first === second ? [first] : [first, second]) text = text[0] + text.slice(1).replace(pattern, replacement);
      if (text === w.plain) return null;
      return { name: joinWords(words.map((x, j) => (j === i ? { ...x, text: w.text === w.text.toUpperCase() ? text.toUpperCase() : capitalize(text) } : x))) };
    },
    'publisher spelling': ({ name }) => {
      const words = toWords(name.full);
      const options = words.map((w, i) => ({ i, variants: spellings.get(w.plain) })).filter((o) => o.variants?.length);
      if (!options.length) return null;
      const { i, variants } = oneOf(options);
      return { name: joinWords(words.map((w, j) => (j === i ? { ...w, text: capitalize(oneOf(variants!)) } : w))) };
    },
    'keyboard typo': ({ name }) => {
      const words = toWords(name.full);
      const long = words.map((w, i) => ({ w, i })).filter(({ w }) => w.text.length >= 6);
      if (!long.length) return null;
      const { w, i } = oneOf(long);
      const at = 2 + Math.floor(random() * (w.text.length - 3));
      const text = chance(0.5) ? w.text.slice(0, at) + w.text[at] + w.text.slice(at) : w.text.slice(0, at) + keyboardNeighbour(w.text[at]!, random) + w.text.slice(at + 1);
      return text === w.text ? null : { name: joinWords(words.map((x, j) => (j === i ? { ...x, text } : x))) };
    },
    'family name first': (s) => {
      const words = toWords(s.name.full);
      return person(s) && words.length >= 2 ? { name: `${words.at(-1)!.text}, ${joinWords(words.slice(0, -1))}` } : null;
    },
    'middle initial': (s) => {
      const words = toWords(s.name.full);
      if (!person(s) || words.length < 3 || words[1]!.plain.length < 3) return null;
      return { name: joinWords(words.map((w, i) => (i === 1 ? { ...w, text: `${w.text[0]!.toUpperCase()}.` } : w))) };
    },
    'birth date approximate': (s) => {
      const dates = s.entity.birthDates;
      if (!person(s) || !dates.length) return null;
      const full = dates.find((d) => d.length === 10);
      const [year, month, day] = (full ?? dates[0]!).split('-');
      // A publisher's dates are approximate: day and month swapped when possible, else the year only, or a year off.
      if (full && Number(day) <= 12 && day !== month) return { name: s.name.full, birthDate: `${year}-${day}-${month}` };
      return { name: s.name.full, birthDate: chance(0.5) ? year! : String(Number(year) + (chance(0.5) ? 1 : -1)) };
    },
    'birth date differs': (s) => {
      const dates = s.entity.birthDates;
      if (!person(s) || !dates.length) return null;
      const year = Number(dates[0]!.slice(0, 4)) - 11;
      return { name: s.name.full, birthDate: `${year}-0${1 + Math.floor(random() * 9)}-2${Math.floor(random() * 8)}` };
    },
  };

  const kinds = Object.keys(MIX);
  const total = kinds.reduce((sum, k) => sum + MIX[k]!, 0);
  const drawKind = () => {
    let at = random() * total;
    for (const k of kinds) if ((at -= MIX[k]!) < 0) return k;
    return kinds.at(-1)!;
  };
  const label = (s: Source) => carriers.get(nameKey(s.name.full)) ?? new Set([s.id]);
  const kindOf = (s: Source): LabelledQuery['kind'] => (person(s) ? 'PERSON' : 'ORGANIZATION');
  const queries: LabelledQuery[] = [];
  for (let attempts = 0; queries.length < options.count && attempts < options.count * 2; attempts++) {
    const variant = drawKind();
    // Names until one the variant applies to, so that the mix is MIX whatever the lists hold.
    let source: Source;
    let made: Made = null;
    for (let tries = 0; !made && tries < 400; tries++) {
      source = sources[Math.floor(random() * sources.length)]!;
      made = make[variant]!(source);
    }
    if (!made) continue;
    source = source!;
    const unchanged = made.name === source.name.full && !made.birthDate;
    if (unchanged && variant !== 'title in any position') continue;
    queries.push({ ...made, kind: kindOf(source), variant, expected: label(source) });
  }

  // Names the lists carry in original script (Arabic, Cyrillic, Chinese; the lists carry no Hangul), searched in the lists without them.
  const native = entries.flatMap(({ id, entity }) =>
    entity.kind === 'PERSON' || entity.kind === 'ORGANIZATION'
      ? entity.names.map((n) => ({ id, entity, original: originalScriptPart(n.full) })).filter((n) => n.original && entity.names.some((m) => scriptOf(m.full) === 'Latin'))
      : [],
  );
  const nativeRandom = seededRandom(SEED + 1);
  const chosen = native.map((n) => ({ n, r: nativeRandom() })).sort((a, b) => a.r - b.r).slice(0, options.originalScript).map(({ n }) => n);
  for (const { id, entity, original } of chosen) {
    const kind: LabelledQuery['kind'] = entity.kind === 'PERSON' ? 'PERSON' : 'ORGANIZATION';
    const expected = new Set([id, ...(carriers.get(nameKey(original!)) ?? [])]);
    queries.push({ name: original!, kind, variant: `original script (${scriptOf(original!)})`, expected, withoutOriginalScript: true });
    const romanized = romanizedByPackage(original!);
    if (romanized) queries.push({ name: romanized, kind, variant: 'romanized by a package', expected, withoutOriginalScript: true });
  }
  return queries;
}
