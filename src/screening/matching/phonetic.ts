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
