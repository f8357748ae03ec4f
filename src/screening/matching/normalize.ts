import anyAscii from 'any-ascii';
import { servantOf } from './arabic-names.ts';
import { arabicReadings, hasArabic } from './arabic-script.ts';
import { cjkReadings } from './cjk-readings.ts';
import { withinOneEdit } from './similarity.ts';

// Names as screening compares them: ASCII (any script transliterated,
// diacritics gone; Chinese characters and Hangul read as names are read),
// lower case, punctuation out, name particles (al, bin, van, de ...)
// dropped, and for organizations joining words (of, and) too. Titles of
// persons and legal forms of organizations are optional parts: they confirm
// a name when both names carry them and cost nothing when one lacks them.

const TITLES = new Set([
  'mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'professor', 'sir', 'dame', 'lord', 'lady', 'sheikh', 'shaikh', 'shaykh', 'sheik', 'haji',
  'hajji', 'hadji', 'alhaji', 'mullah', 'mulla', 'maulana', 'maulvi', 'mawlawi', 'ayatollah', 'hojatoleslam', 'gen', 'general', 'lt', 'col',
  'colonel', 'maj', 'capt', 'captain', 'brig', 'brigadier', 'adm', 'admiral', 'sgt', 'rev', 'reverend', 'fr', 'hon', 'honorable',
  'honourable', 'excellency', 'doctor', 'engineer', 'eng', 'mufti', 'qari', 'hafiz', 'ustad', 'ustadh', 'ustaz', 'mawlana', 'major', 'senator',
  'judge', 'minister', 'president', 'commander', 'lieutenant', 'mister', 'madam',
]);
/** Titles that are also surnames (Umair Naeem SHEIKH): last in a person's name, such a title is the surname. */
const SURNAME_TITLES = new Set(['sheikh', 'shaikh', 'shaykh', 'sheik', 'haji', 'hajji', 'hadji', 'alhaji', 'mullah', 'mulla', 'maulana', 'lord', 'major', 'judge', 'hafiz']);

/** Generational and degree suffixes of persons; in an organization's name they tell companies apart (Investments II / III). */
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'esq', 'phd']);

// "y" joins Spanish surnames and "ben" means son of; first, they are an initial (Y. Chol JO) and a given name (Ben Kaya).
const PARTICLES = new Set(['al', 'el', 'ul', 'bin', 'ibn', 'bint', 'binti', 'ben', 'van', 'von', 'der', 'den', 'de', 'del', 'della', 'da', 'di', 'du', 'la', 'le', 'dos', 'das', 'y']);

/** Legal forms, each spelling to one form so that Limited meets Ltd and Company meets Co. */
const LEGAL_FORMS = new Map<string, string>([
  ...['ltd', 'llc', 'inc', 'corp', 'co', 'plc', 'llp', 'lp', 'gmbh', 'ag', 'sa', 'sas', 'sarl', 'srl', 'spa', 'bv', 'nv', 'oy', 'ab', 'as', 'asa', 'kg',
    'jsc', 'ojsc', 'cjsc', 'pjsc', 'pao', 'oao', 'zao', 'ooo', 'fze', 'fzco', 'fzc', 'pte', 'pty', 'bhd', 'sdn', 'group', 'holding', 'ltda', 'cia', 'cv',
    'sl', 'slu', 'sae', 'kft', 'doo', 'ood', 'tov', 'pt', 'tbk',
    // Spelled-out forms: limited liability / joint stock company; Russian OOO, AO, ZAO, OAO, PAO; Turkish A.S.
    'liability', 'joint', 'stock', 'obshchestvo', 'ogranichennoi', 'ogranichennoy', 'otvetstvennostyu', 'aktsionernoe', 'zakrytoe', 'otkrytoe',
    'publichnoe', 'anonim', 'sirketi'].map((form) => [form, form] as const),
  ['limited', 'ltd'], ['company', 'co'], ['corporation', 'corp'], ['incorporated', 'inc'], ['holdings', 'holding'], ['limitada', 'ltda'],
]);

/** Words that only join an organization's name (Bank of Cuba, Trading and Shipping). */
const JOINING_WORDS = new Set(['of', 'the', 'and', 'for', 'in', 'on', 'at', 'to', 'et', 'und', 've']);

export type NameKind = 'PERSON' | 'ORGANIZATION' | 'OTHER';

/** One word of a name as compared; optional words (a person's title, an organization's legal form) confirm but are never missed. */
export interface NamePart {
  text: string;
  optional: boolean;
  /** A word written in Arabic script: its consonant skeleton (arabic-script.ts), compared with romanized words'. */
  skeleton?: string;
}

/** Lower-case ASCII words of a name, without punctuation ("Qa'ida" → "qaida", "al-Zawahiri" → "al", "zawahiri"). */
export function words(name: string): string[] {
  return anyAscii(name)
    .toLowerCase()
    .replace(/['`´’‘]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * The words screening compares, each marked optional or not. Particles and
 * joining words of organizations are dropped; titles and suffixes (Jr, III)
 * are optional except in organizations' names (General Petroleum,
 * Investments III), and a surname-like title last in a person's name;
 * legal forms of organizations and a leading The are optional, legal forms
 * written in one form. Abd names are written one way (arabic-names.ts).
 * When nothing but optional words is left, they count as the name.
 */
export function nameParts(name: string, kind: NameKind = 'OTHER'): NamePart[] {
  // Dotted abbreviations of organizations are one word ("S.A." is the legal form SA, not the letters s and a); persons' initials stay apart.
  let all = servantOf(words(kind === 'PERSON' ? name : name.replace(/\b(?:\p{L}\.){2,}/gu, (abbreviation) => abbreviation.replaceAll('.', ''))));
  if (kind !== 'PERSON') all = spacedLegalForms(all);
  const parts: NamePart[] = [];
  all.forEach((word, i) => {
    const last = i === all.length - 1;
    if (word === 'y' || word === 'ben' ? i > 0 : PARTICLES.has(word)) return;
    // A leading The is part of an organization's name (The Business Centre): it confirms when both names have it.
    if (kind !== 'PERSON' && word === 'the' && i === 0) parts.push({ text: word, optional: true });
    if (kind !== 'PERSON' && JOINING_WORDS.has(word)) return;
    const form = kind === 'PERSON' ? undefined : legalForm(word);
    if (form) parts.push({ text: form, optional: true });
    else if (kind === 'ORGANIZATION') parts.push({ text: word, optional: false });
    else parts.push({ text: word, optional: SUFFIXES.has(word) || (TITLES.has(word) && !(last && kind === 'PERSON' && SURNAME_TITLES.has(word))) });
  });
  if (parts.some((p) => !p.optional)) return parts;
  return parts.length ? parts.map((p) => ({ ...p, optional: false })) : all.map((text) => ({ text, optional: false }));
}

/** The parts of each Latin reading of a name: one, or several for Chinese characters and Hangul (see cjk-readings.ts); Arabic script read as consonants (arabic-script.ts). */
export function nameRenderings(name: string, kind: NameKind = 'OTHER'): NamePart[][] {
  // A name in Arabic script with its romanization beside it (Akrin Saleh Akrin (أقرين صالح أقرين)): each read as it is written.
  if (hasArabic(name)) {
    const latin = name.replace(/\p{Script=Arabic}+/gu, ' ');
    return [...arabicReadings(name.replace(/[\p{Script=Latin}\d]+/gu, ' ')), ...(/\p{L}/u.test(latin) ? cjkReadings(latin).map((reading) => nameParts(reading, kind)) : [])];
  }
  return cjkReadings(name).map((reading) => nameParts(reading, kind));
}

/** The words a name must match: its parts less the optional ones. */
export function nameTokens(name: string, kind: NameKind = 'OTHER'): string[] {
  return nameParts(name, kind)
    .filter((p) => !p.optional)
    .map((p) => p.text);
}

const LONG_LEGAL_FORMS = [...LEGAL_FORMS.keys()].filter((form) => form.length >= 6);

/** The legal form a word spells, a long one misspelt too (Limted, Corporaton); undefined for other words. */
export function legalForm(word: string): string | undefined {
  const form = LEGAL_FORMS.get(word);
  if (form || word.length < 6) return form;
  const near = LONG_LEGAL_FORMS.find((f) => withinOneEdit(word, f));
  return near && LEGAL_FORMS.get(near);
}

/** Single letters spelling a legal form once joined ("gad s a" → "gad", "sa"); other runs of letters are initials and stay. */
function spacedLegalForms(all: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < all.length; ) {
    let end = i;
    while (end < all.length && all[end]!.length === 1) end++;
    if (end - i >= 2 && LEGAL_FORMS.has(all.slice(i, end).join(''))) {
      out.push(all.slice(i, end).join(''));
      i = end;
    } else {
      out.push(all[i]!);
      i++;
    }
  }
  return out;
}
