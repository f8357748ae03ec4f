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
    else if (effect === 'MISMATCH') score *= 0.8;
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

/** Same day (or the listed date at the listed precision): MATCH; same year: PARTIAL; a year apart: not held against; else MISMATCH. */
function birthDateEffect(subject: string, listed: string[]): Effect {
  if (listed.some((date) => subject.startsWith(date) || date.startsWith(subject))) return listed.some((d) => d.length >= 7 && subject.startsWith(d)) ? 'MATCH' : 'PARTIAL';
  const year = Number(subject.slice(0, 4));
  if (listed.some((date) => Math.abs(Number(date.slice(0, 4)) - year) <= 1)) return 'NOT_COMPARED';
  return 'MISMATCH';
}
