import { createRequire } from 'node:module';

// Chinese characters and Hangul in Latin letters, the ways lists write
// them: Hangul in the North Korean style of McCune-Reischauer (Kim Jong Un,
// Pak Pong Ju, Choe Ryong Hae) and in Revised Romanization (Kim Jeong Eun);
// Chinese characters in pinyin (Li Wei) and, read as Korean Hanja, as
// Hangul (金正恩 → 김정은 → Kim Jong Un). Each syllable is a word: how
// names group syllables (Jong Un, Jong-un, Jongun) is left to matching.
// The packages load on the first such name.

const HANGUL = /[\uAC00-\uD7A3]/;
const HAN = /\p{Script=Han}/u;
const HANGUL_SYLLABLES = /[\uAC00-\uD7A3]+/g;

const load = createRequire(import.meta.url);
type Romanize = (text: string, options?: { system?: 'RR' | 'MR' }) => string;
let korean: Romanize | undefined;
let hanja: ((text: string, mode: 'SUBSTITUTION') => string) | undefined;
let pinyin: ((text: string, options: { toneType: 'none'; type: 'array'; surname: 'head'; nonZh: 'consecutive' }) => string[]) | undefined;

const romanize: Romanize = (text, options) => (korean ??= (load('@romanize/korean') as { romanize: Romanize }).romanize)(text, options);

/** Whether a name has letters that anyAscii alone reads wrongly for names (Chinese characters, Hangul). */
export function hasCjk(name: string): boolean {
  return HANGUL.test(name) || HAN.test(name);
}

/** The name in each Latin reading of its Chinese characters and Hangul (one or more); names without them come back unchanged. */
export function cjkReadings(name: string): string[] {
  if (!hasCjk(name)) return [name];
  const readings = new Set<string>();
  let hangul = name;
  if (HAN.test(name)) {
    readings.add(chineseReading(name));
    hangul = hanjaReading(name);
  }
  if (HANGUL.test(hangul)) {
    readings.add(hangul.replace(HANGUL_SYLLABLES, (run) => [...run].map(northKorean).join(' ')));
    readings.add(hangul.replace(HANGUL_SYLLABLES, (run) => [...run].map((syllable, i) => (i === 0 ? northKorean(syllable) : romanize(syllable))).join(' ')));
  }
  return [...readings];
}

/**
 * One syllable in McCune-Reischauer as North Korea writes names: ㅈ as j
 * (Jong, Ju), apostrophes and breves dropped (Choe, Un). Syllables are
 * romanized alone, so the package's word-initial forms are the ones used.
 */
function northKorean(syllable: string): string {
  return romanize(syllable, { system: 'MR' })
    .replace(/^ch?(?!h|')/, 'j')
    .replace(/'/g, '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

function chineseReading(name: string): string {
  pinyin ??= (load('pinyin-pro') as { pinyin: typeof pinyin }).pinyin!;
  return pinyin(name, { toneType: 'none', type: 'array', surname: 'head', nonZh: 'consecutive' }).join(' ');
}

function hanjaReading(name: string): string {
  hanja ??= (load('hanja') as { default: { translate: typeof hanja } }).default.translate!;
  // 金 reads 김 as a surname (Kim), 금 (gold) otherwise: a name's first character is its surname.
  const first = [...name.trim()][0];
  return hanja(first === '金' ? `김${name.trim().slice(1)}` : name, 'SUBSTITUTION');
}
