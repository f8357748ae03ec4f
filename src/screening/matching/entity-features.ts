import type { ListedEntity } from '../lists/listed-entity.ts';

// What besides the name moves a hit's score: the kind of party, date of
// birth, countries and identifiers, each with its effect for the explanation.

export type Effect = 'MATCH' | 'PARTIAL' | 'MISMATCH' | 'NOT_COMPARED';

export interface FeatureSubject {
  kind?: 'PERSON' | 'ORGANIZATION';
  birthDate?: string;
  countries?: string[];
  identifiers?: string[];
}

export interface FeatureEffects {
  kind: Effect;
  birthDate: { effect: Effect; listed: string[] };
  country: { effect: Effect; listed: string[] };
  identifier: { effect: Effect; matched?: string };
}

/**
 * When the subject brings a date of birth, countries or identifiers, the top
 * of the name scale is pressed down by up to this much (an identical name
 * to 0.98, 0.9 to 0.892, 0.8 to 0.797): room for those features to move a
 * score in, so that namesakes are still ordered by them (no ties at 1.0
 * between different people), while lower scores keep their place.
 */
const HEADROOM = 0.02;
/**
 * A date of birth the list contradicts lowers the score by this factor, not
 * more: publishers' dates are often approximate or wrong, so an exact name
 * stays near 0.93 and a near-exact one (0.9) near 0.86, shown to the
 * reviewer below namesakes whose date agrees.
 */
const BIRTH_MISMATCH = 0.95;
/** How many years apart a date of birth may be and still not count against a name: one, or two when either date is a year only (circa). */
const YEARS_APART = 1;
const YEARS_APART_APPROXIMATE = 2;

const normalizedId = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The score of a name match once the entity's other features are compared with the subject's. */
export function applyFeatures(nameScore: number, subject: FeatureSubject, entity: ListedEntity): { score: number; effects: FeatureEffects } {
  const effects: FeatureEffects = {
    kind: 'NOT_COMPARED',
    birthDate: { effect: 'NOT_COMPARED', listed: entity.birthDates },
    country: { effect: 'NOT_COMPARED', listed: [...new Set([...entity.nationalities, ...entity.countries])] },
    identifier: { effect: 'NOT_COMPARED' },
  };
  const brought = Boolean(subject.birthDate || subject.countries?.length || subject.identifiers?.length);
  let score = brought ? nameScore - HEADROOM * nameScore ** 9 : nameScore;
  if (subject.kind) {
    const same = (subject.kind === 'PERSON') === (entity.kind === 'PERSON');
    effects.kind = same ? 'MATCH' : 'MISMATCH';
    if (!same) score *= 0.8;
  }
  if (subject.birthDate && entity.birthDates.length) {
    const effect = birthDateEffect(subject.birthDate, entity.birthDates);
    effects.birthDate.effect = effect;
    if (effect === 'MATCH') score += (1 - score) * 0.3;
    else if (effect === 'PARTIAL') score += (1 - score) * 0.1;
    else if (effect === 'MISMATCH') score *= BIRTH_MISMATCH;
  }
  if (subject.countries?.length && effects.country.listed.length) {
    const shared = subject.countries.some((c) => effects.country.listed.includes(c.toUpperCase()));
    effects.country.effect = shared ? 'MATCH' : 'MISMATCH';
    score = shared ? score + (1 - score) * 0.1 : score * 0.97;
  }
  if (subject.identifiers?.length && entity.identifiers.length) {
    const wanted = new Set(subject.identifiers.map(normalizedId).filter(Boolean));
    const matched = entity.identifiers.find((i) => wanted.has(normalizedId(i.number)));
    effects.identifier = matched ? { effect: 'MATCH', matched: `${matched.type} ${matched.number}` } : { effect: 'MISMATCH' };
    if (matched) score += (1 - score) * 0.8;
  }
  return { score, effects };
}

const EFFECT_ORDER: Effect[] = ['MATCH', 'PARTIAL', 'NOT_COMPARED', 'MISMATCH'];

/** The subject's date against each listed date (publishers give several), the closest agreement counting. */
function birthDateEffect(subject: string, listed: string[]): Effect {
  return listed.map((date) => dateEffect(subject, date)).sort((a, b) => EFFECT_ORDER.indexOf(a) - EFFECT_ORDER.indexOf(b))[0] ?? 'NOT_COMPARED';
}

/**
 * MATCH: the same day, or month, at the listed precision. PARTIAL: the
 * same year where one date is a year only, or day and month swapped
 * (1960-04-02 / 1960-02-04). NOT_COMPARED: close enough for an approximate
 * date (a year apart, two for a year-only date). MISMATCH otherwise.
 */
function dateEffect(subject: string, date: string): Effect {
  if (subject.startsWith(date)) return date.length >= 7 ? 'MATCH' : 'PARTIAL';
  if (date.startsWith(subject)) return 'PARTIAL';
  if (subject.length === 10 && date.length === 10 && subject.slice(0, 4) === date.slice(0, 4) && subject.slice(5, 7) === date.slice(8, 10) && subject.slice(8, 10) === date.slice(5, 7)) return 'PARTIAL';
  const apart = Math.abs(Number(subject.slice(0, 4)) - Number(date.slice(0, 4)));
  return apart <= (subject.length === 4 || date.length === 4 ? YEARS_APART_APPROXIMATE : YEARS_APART) ? 'NOT_COMPARED' : 'MISMATCH';
}
