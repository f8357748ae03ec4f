import anyAscii from 'any-ascii';

// Names as screening compares them: ASCII (any script transliterated,
// diacritics gone), lower case, punctuation out, titles and legal-form
// suffixes dropped, name particles (al, bin, van, de ...) dropped.

const HONORIFICS = new Set([
  'mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'professor', 'sir', 'dame', 'lord', 'lady', 'sheikh', 'shaikh', 'shaykh', 'sheik', 'haji',
  'hajji', 'hadji', 'alhaji', 'mullah', 'mulla', 'maulana', 'maulvi', 'mawlawi', 'ayatollah', 'hojatoleslam', 'gen', 'general', 'lt', 'col',
  'colonel', 'maj', 'capt', 'captain', 'brig', 'brigadier', 'adm', 'admiral', 'sgt', 'rev', 'reverend', 'fr', 'hon', 'honorable',
  'honourable', 'excellency', 'jr', 'sr', 'ii', 'iii', 'iv', 'esq', 'phd',
]);

const PARTICLES = new Set(['al', 'el', 'ul', 'bin', 'ibn', 'bint', 'binti', 'ben', 'van', 'von', 'der', 'den', 'de', 'del', 'della', 'da', 'di', 'du', 'la', 'le', 'dos', 'das', 'y']);

const LEGAL_FORMS = new Set([
  'ltd', 'limited', 'llc', 'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'plc', 'llp', 'lp', 'gmbh', 'ag', 'sa', 'sas',
  'sarl', 'srl', 'spa', 'bv', 'nv', 'oy', 'ab', 'as', 'asa', 'kg', 'jsc', 'ojsc', 'cjsc', 'pjsc', 'pao', 'oao', 'zao', 'ooo', 'fze', 'fzco',
  'fzc', 'pte', 'pty', 'bhd', 'sdn', 'group', 'holding', 'holdings',
]);

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
  const all = words(name);
  const kept = all.filter((word) => !HONORIFICS.has(word) && !PARTICLES.has(word) && !(kind !== 'PERSON' && LEGAL_FORMS.has(word)));
  return kept.length ? kept : all;
}
