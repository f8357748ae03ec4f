// A transliteration-tolerant key of one name token: the same for the usual
// romanisations of a name (Mohammed, Muhammad, Mohamad; Qaddafi, Gaddafi,
// Kadhafi; Aleksandr, Alexander, Oleksandr; Husain, Hussein, Hossein).
// Vowels after the first letter go, an initial vowel becomes one class,
// consonants that transliterations swap become one letter, doubles collapse.

const DIGRAPHS: Array<[RegExp, string]> = [
  [/ph/g, 'f'], [/kh/g, 'h'], [/gh/g, 'g'], [/ch/g, 'h'], [/sh/g, 's'], [/zh/g, 'j'], [/dh/g, 'd'], [/th/g, 't'], [/ck/g, 'k'], [/x/g, 'ks'], [/dj/g, 'j'],
];

const LETTERS: Record<string, string> = { q: 'k', c: 'k', g: 'k', z: 's', w: 'f', v: 'f', y: 'i' };
const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

export function skeleton(token: string): string {
  let text = token;
  for (const [pattern, replacement] of DIGRAPHS) text = text.replace(pattern, replacement);
  // A final h after a vowel is silent (Abdallah / Abdulla).
  text = text.replace(/([aeiou])h$/, '$1');
  let key = '';
  for (let i = 0; i < text.length; i++) {
    const letter = LETTERS[text[i]!] ?? text[i]!;
    if (VOWELS.has(letter)) {
      if (i === 0) key += '*';
      continue;
    }
    if (key.at(-1) !== letter) key += letter;
  }
  return key || '*';
}

/** The key with each one character removed: a typo in a consonant still meets its name. */
export function deletions(key: string): string[] {
  if (key.length < 3) return [];
  const variants = new Set<string>();
  for (let i = 0; i < key.length; i++) variants.add(key.slice(0, i) + key.slice(i + 1));
  return [...variants];
}

// Spellings of one sound in the usual romanisations (Russian, Arabic, Persian,
// German, English): written one way, vowels kept.
const SPELLINGS: Array<[RegExp, string]> = [
  [/dzh|dj|zh/g, 'j'], [/tch|tsch|sch/g, 'sh'], [/ph/g, 'f'], [/kh/g, 'h'], [/ck|q|c(?!h)/g, 'k'], [/x/g, 'ks'],
  [/ou|oo/g, 'u'], [/ee|ie|ey|y/g, 'i'], [/w/g, 'v'], [/([aeiou])h$/g, '$1'], [/(.)\1+/g, '$1'],
];

/**
 * The token written as it sounds in a plain romanisation, vowels kept
 * (Dzhamal / Jamal, Yousef / Yusef, Qaddafi / Kadafi): spellings of one
 * name meet here while names that merely share consonants (Brennan /
 * Bourne) stay apart.
 */
export function spelling(token: string): string {
  let text = token;
  for (const [pattern, replacement] of SPELLINGS) text = text.replace(pattern, replacement);
  return text;
}
