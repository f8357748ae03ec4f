import anyAscii from 'any-ascii';
import { withinOneEdit } from './similarity.ts';

// Names as screening compares them: ASCII (any script transliterated,
// diacritics gone), lower case, punctuation out, titles and legal-form
// suffixes dropped, name particles (al, bin, van, de ...) dropped, and for
// organizations joining words (of, and) too.

// Titles are dropped unless last: Sheikh, Haji, Khan-like titles are also surnames (Umair Naeem SHEIKH).
const TITLES = new Set([
  'mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'professor', 'sir', 'dame', 'lord', 'lady', 'sheikh', 'shaikh', 'shaykh', 'sheik', 'haji',
  'hajji', 'hadji', 'alhaji', 'mullah', 'mulla', 'maulana', 'maulvi', 'mawlawi', 'ayatollah', 'hojatoleslam', 'gen', 'general', 'lt', 'col',
  'colonel', 'maj', 'capt', 'captain', 'brig', 'brigadier', 'adm', 'admiral', 'sgt', 'rev', 'reverend', 'fr', 'hon', 'honorable',
  'honourable', 'excellency',
]);

const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'esq', 'phd']);

// "y" joins Spanish surnames and "ben" means son of; first, they are an initial (Y. Chol JO) and a given name (Ben Kaya).
const PARTICLES = new Set(['al', 'el', 'ul', 'bin', 'ibn', 'bint', 'binti', 'ben', 'van', 'von', 'der', 'den', 'de', 'del', 'della', 'da', 'di', 'du', 'la', 'le', 'dos', 'das', 'y']);

const LEGAL_FORMS = new Set([
  'ltd', 'limited', 'llc', 'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'plc', 'llp', 'lp', 'gmbh', 'ag', 'sa', 'sas',
  'sarl', 'srl', 'spa', 'bv', 'nv', 'oy', 'ab', 'as', 'asa', 'kg', 'jsc', 'ojsc', 'cjsc', 'pjsc', 'pao', 'oao', 'zao', 'ooo', 'fze', 'fzco',
  'fzc', 'pte', 'pty', 'bhd', 'sdn', 'group', 'holding', 'holdings', 'ltda', 'cia', 'cv', 'sl', 'slu', 'sae', 'kft', 'doo', 'ood', 'tov', 'pt', 'tbk',
  // Spelled-out forms: limited liability / joint stock company; Russian OOO, AO, ZAO, OAO, PAO; Turkish A.S.
  'liability', 'joint', 'stock', 'obshchestvo', 'ogranichennoi', 'ogranichennoy', 'otvetstvennostyu', 'aktsionernoe', 'zakrytoe', 'otkrytoe',
  'publichnoe', 'anonim', 'sirketi',
]);

/** Words that only join an organization's name (Bank of Cuba, Trading and Shipping). */
const JOINING_WORDS = new Set(['of', 'the', 'and', 'for', 'in', 'on', 'at', 'to', 'et', 'und', 've']);

export type NameKind = 'PERSON' | 'ORGANIZATION' | 'OTHER';

/** Lower-case ASCII words of a name, without punctuation ("Qa'ida" → "qaida", "al-Zawahiri" → "al", "zawahiri"). */
export function words(name: string): string[] {
  return anyAscii(name)
    .toLowerCase()
    .replace(/['`´’‘]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * The tokens screening compares. Titles, particles and (for organizations)
 * legal forms are dropped, unless dropping would leave nothing.
 */
export function nameTokens(name: string, kind: NameKind = 'OTHER'): string[] {
  // Dotted abbreviations of organizations are one word ("S.A." is the legal form SA, not the letters s and a); persons' initials stay apart.
  const all = words(kind === 'PERSON' ? name : name.replace(/\b(?:\p{L}\.){2,}/gu, (abbreviation) => abbreviation.replaceAll('.', '')));
  const kept = all.filter((word, i) => !dropped(word, i === 0, i === all.length - 1, kind));
  return kept.length ? kept : all;
}

function dropped(word: string, first: boolean, last: boolean, kind: NameKind): boolean {
  if (TITLES.has(word)) return !last;
  if (word === 'y' || word === 'ben') return !first;
  return SUFFIXES.has(word) || PARTICLES.has(word) || (kind !== 'PERSON' && (JOINING_WORDS.has(word) || isLegalForm(word)));
}

const LONG_LEGAL_FORMS = [...LEGAL_FORMS].filter((form) => form.length >= 6);

/** A legal form, or a long one misspelt (Limted, Corporaton). */
function isLegalForm(word: string): boolean {
  return LEGAL_FORMS.has(word) || (word.length >= 6 && LONG_LEGAL_FORMS.some((form) => withinOneEdit(word, form)));
}
