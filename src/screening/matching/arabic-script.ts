import anyAscii from 'any-ascii';
import { SERVANT } from './arabic-names.ts';
import type { NamePart } from './normalize.ts';

// Names written in Arabic script against names the lists romanize. Arabic
// writes consonants and long vowels, not short vowels (محمد is m-h-m-d,
// Muhammad, Mohammed, Mehmet), so any transliteration of the script lacks
// the vowels a romanized name has. Both sides are brought to a consonant
// skeleton in one alphabet: letters romanizations swap (q / k / g, th / s,
// dh / z / d) in one class, vowels and the letters that also write vowels
// (alif, ain, hamza, waw, ya) left out, a leading vowel (or w, y: Ould,
// Walid) as '*'. Equal skeletons are the same name read two ways.

const ARABIC = /\p{Script=Arabic}/u;
/** Short vowel marks, shadda, sukun, tatweel: not letters. */
const MARKS = /[\u064B-\u065F\u0670\u0640]/g;

const LETTER_CLASS: Record<string, string> = {
  ب: 'b', پ: 'b', ت: 't', ط: 't', ث: 's', س: 's', ص: 's', ج: 'j', ژ: 'j', چ: 'S', ح: 'h', ه: 'h', خ: 'k', ق: 'k', ك: 'k', ک: 'k', گ: 'k',
  // Dal, dad, dhal, za and zay: romanized d, dh, z alike (Kazim, Kadhim; Faiz, Fayd).
  غ: 'k', د: 'd', ض: 'd', ذ: 'd', ظ: 'd', ز: 'd', ر: 'r', ش: 'S', ف: 'f', ڤ: 'f', ل: 'l', م: 'm', ن: 'n',
};
/** Letters that write a vowel or a glottal stop: alif in its forms, alif maqsura, hamza, ain, waw and ya (also long u and i). */
const VOWEL_LETTERS = new Set(['ا', 'أ', 'إ', 'آ', 'ٱ', 'ى', 'ء', 'ئ', 'ؤ', 'ع', 'و', 'ي', 'ی', 'ۍ', 'ې']);
/** Son of, daughter of: dropped as the Latin bin / ibn are. */
const PARTICLES = new Set(['بن', 'ابن', 'بنت', 'إبن']);
/** Words that only join a name (in, and, of, on): dropped as the Latin ones are from organizations' names. */
const JOINING = new Set(['في', 'و', 'من', 'على', 'عن', 'فی']);
const ABD = 'عبد';
const ALLAH = new Set(['الله', 'لله', 'اللہ']);

/** Whether the name has letters in Arabic script. */
export function hasArabic(name: string): boolean {
  return ARABIC.test(name);
}

/** The skeleton of one word in Arabic script. */
export function arabicSkeleton(word: string): string {
  const letters = [...word.normalize('NFKC').replace(MARKS, '')];
  let out = '';
  letters.forEach((letter, i) => {
    // Ta marbuta and a final ha are the ending -a / -ah of romanized names.
    if (letter === 'ة' || (letter === 'ه' && i === letters.length - 1 && i > 1)) return;
    const cls = VOWEL_LETTERS.has(letter) ? '*' : LETTER_CLASS[letter];
    if (!cls) return;
    if (cls === '*') {
      if (i === 0) out += '*';
      return;
    }
    if (out.at(-1) !== cls) out += cls;
  });
  return out;
}

const ROMAN_DIGRAPHS: Array<[RegExp, string]> = [
  [/dzh|zh|dj/g, 'j'], [/kh|gh/g, 'k'], [/sch|sh|ch/g, 'S'], [/th|ts/g, 's'], [/dh/g, 'd'], [/ph/g, 'f'], [/c(?=[eiy])/g, 's'],
];
const ROMAN_CLASS: Record<string, string> = { q: 'k', c: 'k', g: 'k', x: 'k', p: 'b', v: 'f', z: 'd' };

/** The skeletons a romanized word (lower-case ASCII) may have, in the alphabet of arabicSkeleton: a final h after a vowel is a consonant (Salih) or the ending -ah (Fatimah); zh, sh, kh ... one letter or two. */
export function romanSkeletons(word: string): string[] {
  const out = new Set<string>();
  // A consonant and h may be two letters (Mazhar, Ishaq, Adham) rather than one (Zhukov, Shah, Khalid).
  for (const digraphs of /[zsktdgc]h/.test(word) ? [true, false] : [true]) {
    const full = romanSkeleton(word, digraphs);
    out.add(full);
    if (/[aeiou]h$/.test(word)) out.add(full.slice(0, -1));
  }
  return [...out];
}

function romanSkeleton(word: string, digraphs: boolean): string {
  let text = word;
  for (const [pattern, replacement] of ROMAN_DIGRAPHS) if (digraphs || !pattern.source.includes('h')) text = text.replace(pattern, replacement);
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const letter = text[i]!;
    if ('aeiouwy'.includes(letter)) {
      if (i === 0) out += '*';
      continue;
    }
    if (!/[a-zS]/.test(letter)) continue;
    const cls = ROMAN_CLASS[letter] ?? letter;
    if (out.at(-1) !== cls) out += cls;
  }
  return out;
}

/** A skeleton of one consonant (Rawi: r) pairs words, but only as a resemblance: enough to count, not to anchor a name. */
const ONE_LETTER = 0.85;

/** A word in Arabic script against a romanized word with its skeleton: the same consonants, the vowels unknown, so below an exact match; less for skeletons of two letters (Ali / Ala / Eli). */
export function skeletonSimilarity(skeleton: string): number {
  return skeleton.length >= 3 ? 0.95 : skeleton.length === 2 ? 0.93 : ONE_LETTER;
}

const ascii = (word: string) => anyAscii(word).toLowerCase().replace(/[^a-z0-9]/g, '');

/** A part of a name in Arabic script: its transliteration, and its skeleton for comparison with romanized names. */
const part = (word: string): NamePart => {
  const skeleton = arabicSkeleton(word);
  return { text: ascii(word) || skeleton.toLowerCase(), optional: false, skeleton };
};

/** Words that end compound names, written apart in Arabic and often run together in Latin letters (Habib Allah / Habibullah, Shams al-Din / Shamsuddin, Akhund Zada / Akhundzada). */
const COMPOUND_ENDINGS = new Set(['الله', 'الدين', 'الدین', 'زاده', 'زاد']);

/**
 * The parts of a name written in Arabic script: particles out, the article
 * off each word, Abd and the name after it as the Latin names are written
 * (abd, and the name; Abd Allah as abd lah), Abu as abu, Allah as allah.
 * A second reading runs compound names together (Habibullah) when the name
 * has one.
 */
export function arabicReadings(name: string): NamePart[][] {
  const all = name.normalize('NFKC').replace(MARKS, '').split(/[^\p{Script=Arabic}\p{L}]+/u).filter(Boolean);
  const apart: NamePart[] = [];
  const joined: NamePart[] = [];
  let compound = false;
  const push = (p: NamePart) => {
    apart.push(p);
    joined.push(p);
  };
  for (let i = 0; i < all.length; i++) {
    const word = all[i]!;
    if (!ARABIC.test(word)) {
      push({ text: ascii(word), optional: false });
      continue;
    }
    if ((PARTICLES.has(word) && i > 0) || JOINING.has(word)) continue;
    // Abd written apart (عبد الله) or run together with its name (عبدالرحمن).
    const rest = word === ABD && i + 1 < all.length ? all[++i] : word.startsWith(ABD) && [...word].length > 4 ? word.slice(ABD.length) : undefined;
    if (rest !== undefined) {
      push({ text: SERVANT, optional: false });
      push(ALLAH.has(rest) || ALLAH.has(`ا${rest}`) ? { text: 'lah', optional: false } : part(article(rest)));
      continue;
    }
    if (word === 'أبو' || word === 'ابو') push({ text: 'abu', optional: false });
    else if (ALLAH.has(word)) apart.push({ text: 'allah', optional: false });
    else apart.push(part(article(word)));
    const next = all[i + 1];
    if (next && COMPOUND_ENDINGS.has(next) && apart.at(-1)!.skeleton) {
      const ending = part(article(next));
      const first = apart.at(-1)!;
      joined.push({ text: first.text + (ALLAH.has(next) ? 'ullah' : ending.text), optional: false, skeleton: collapse(first.skeleton! + (ALLAH.has(next) ? 'l' : ending.skeleton!)) });
      apart.push(ALLAH.has(next) ? { text: 'allah', optional: false } : ending);
      compound = true;
      i++;
    } else if (apart.at(-1) !== joined.at(-1)) joined.push(apart.at(-1)!);
  }
  const keep = (parts: NamePart[]) => parts.filter((p) => p.text);
  return compound ? [keep(apart), keep(joined)] : [keep(apart)];
}

/** The article off a word, with a conjunction or preposition written onto it (wa-al-, bi-al-, li-l-: والجهاد, بالعراق, للدعوة). */
const article = (word: string) => {
  const bare = word.replace(/^(?:[وفبك]?ال|لل)(?=.{2})/u, '');
  return [...bare].length >= 2 ? bare : word;
};
const collapse = (skeleton: string) => skeleton.replace(/(.)\1+/g, '$1');
