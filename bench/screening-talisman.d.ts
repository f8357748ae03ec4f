// talisman ships no type declarations; the phonetic function the screening evaluation uses (the matcher's are in src/types).
declare module 'talisman/phonetics/double-metaphone.js' {
  /** The primary and alternate Double Metaphone codes of a word. */
  export default function doubleMetaphone(word: string): [string, string];
}
