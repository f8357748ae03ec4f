import type { ListedEntity, NameStrength } from '../lists/listed-entity.ts';
import { nameTokens, type NameKind } from './normalize.ts';
import { deletions, skeleton } from './phonetic.ts';
import { type Alignment, alignNames, joinedSimilarity, type Token } from './similarity.ts';

/** Changes whenever scoring changes, so that stored hits say how they were scored. */
export const ALGORITHM_VERSION = 'names-1.0';

export interface ScreeningSubject {
  name: string;
  kind?: 'PERSON' | 'ORGANIZATION';
  /** YYYY, YYYY-MM or YYYY-MM-DD */
  birthDate?: string;
  /** ISO 3166-1 alpha-2 codes linked to the subject (nationality, residence, incorporation). */
  countries?: string[];
  /** Passport, national id, registration numbers ... */
  identifiers?: string[];
}

export interface IndexedEntity {
  /** Where the entity is stored (watchlist_entities.id), or any stable id. */
  id: string;
  sourceId: string;
  /** The list version (watchlist load) the entity belongs to. */
  listVersion: string;
  entity: ListedEntity;
}

type Effect = 'MATCH' | 'PARTIAL' | 'MISMATCH' | 'NOT_COMPARED';

export interface ScreeningHit {
  entityId: string;
  sourceId: string;
  listVersion: string;
  externalId: string;
  kind: ListedEntity['kind'];
  primaryName: string;
  score: number;
  algorithmVersion: string;
  explanation: {
    name: { matched: string; strength: NameStrength; similarity: number } & Omit<Alignment, 'score'>;
    kind: Effect;
    birthDate: { effect: Effect; listed: string[] };
    country: { effect: Effect; listed: string[] };
    identifier: { effect: Effect; matched?: string };
  };
}

interface NameRecord {
  entity: number;
  strength: NameStrength;
  full: string;
  tokens: Token[];
}

const STRENGTH_FACTOR: Record<NameStrength, number> = { PRIMARY: 1, STRONG: 0.99, WEAK: 0.9 };
/** Posting lists longer than this (very common names) are only intersected, never scanned. */
const MAX_SCAN = 4000;
/** Names scored in full per search: the best by a cheap count of shared token keys. */
const SHORTLIST = 24;

const kindOf = (entity: ListedEntity): NameKind => (entity.kind === 'PERSON' ? 'PERSON' : 'ORGANIZATION');
const round = (value: number) => Math.round(value * 10_000) / 10_000;
const normalizedId = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * An in-memory index over every name of the current list versions: token
 * keys (transliteration-tolerant, plus one-deletion variants for typos) point
 * to names; candidates are scored by token alignment weighted by how rare
 * each token is, then by date of birth, country and identifiers.
 */
export class NameIndex {
  private readonly names: NameRecord[] = [];
  private readonly postings = new Map<string, number[]>();
  private readonly frequency = new Map<string, number>();
  private maxIdf = 1;
  private gatheredWeight = new Float32Array(0);
  private gatheredTokens = new Int32Array(0);

  private constructor(readonly entries: IndexedEntity[]) {}

  static build(entries: IndexedEntity[]): NameIndex {
    const index = new NameIndex(entries);
    entries.forEach(({ entity }, entityIndex) => {
      const seen = new Set<string>();
      for (const name of entity.names) {
        const texts = nameTokens(name.full, kindOf(entity));
        const signature = texts.join(' ');
        if (!texts.length || seen.has(signature)) continue;
        seen.add(signature);
        const id = index.names.length;
        const keys = texts.map(skeleton);
        // Weights are set once every name is in (they depend on how common each key is).
        index.names.push({ entity: entityIndex, strength: name.strength, full: name.full, tokens: texts.map((text, i) => ({ text, key: keys[i]!, weight: 1 })) });
        const nameKeys = new Set<string>();
        for (const key of keys) {
          if (!nameKeys.has(key)) index.frequency.set(key, (index.frequency.get(key) ?? 0) + 1);
          nameKeys.add(key);
          for (const variant of deletions(key)) nameKeys.add(`~${variant}`);
        }
        for (const key of nameKeys) {
          const list = index.postings.get(key);
          if (list) list.push(id);
          else index.postings.set(key, [id]);
        }
      }
    });
    index.maxIdf = Math.log((index.names.length + 1) / 1);
    for (const record of index.names) for (const token of record.tokens) token.weight = index.weight(token.key);
    return index;
  }

  get size() {
    return { entities: this.entries.length, names: this.names.length, keys: this.postings.size };
  }

  /** 0.5 for the most common token keys up to 1.5 for unseen ones. */
  private weight(key: string): number {
    const idf = Math.log((this.names.length + 1) / ((this.frequency.get(key) ?? 0) + 1));
    return 0.5 + idf / this.maxIdf;
  }

  /**
   * The names worth scoring: those sharing token keys with the query (exact
   * keys count fully, one-edit keys 0.7), weighted by rarity, best first.
   */
  private shortlist(query: Token[]): number[] {
    // Scratch arrays sized to the index, reused between searches (one search runs at a time per process).
    if (this.gatheredWeight.length !== this.names.length) {
      this.gatheredWeight = new Float32Array(this.names.length);
      this.gatheredTokens = new Int32Array(this.names.length);
    }
    const weight = this.gatheredWeight;
    const tokens = this.gatheredTokens;
    const touched: number[] = [];
    const common: number[][] = [];
    query.forEach((token, position) => {
      const bit = 1 << Math.min(position, 30);
      const lookups: Array<[string, number]> = [[token.key, 1]];
      if (token.key.length >= 3) {
        lookups.push([`~${token.key}`, 0.7]);
        for (const variant of deletions(token.key)) lookups.push([variant, 0.7], [`~${variant}`, 0.7]);
      }
      for (const [key, factor] of lookups) {
        const list = this.postings.get(key);
        if (!list) continue;
        if (list.length > MAX_SCAN) {
          if (factor === 1) common.push(list);
          continue;
        }
        const gain = token.weight * factor;
        for (let k = 0; k < list.length; k++) {
          const id = list[k]!;
          if (tokens[id] === 0) touched.push(id);
          if (!(tokens[id]! & bit)) {
            weight[id]! += gain;
            tokens[id]! |= bit;
          }
        }
      }
    });
    // Only very common tokens (e.g. "Mohammed Ali"): names holding two of them.
    if (touched.length === 0 && common.length) {
      common.sort((a, b) => a.length - b.length);
      const [smallest, next] = common;
      const other = new Set(next ?? []);
      for (const id of smallest!) {
        if (next && !other.has(id)) continue;
        touched.push(id);
        weight[id] = 1;
        tokens[id] = 1;
      }
    }
    const ranked = touched.length > SHORTLIST
      ? touched.sort((a, b) => weight[b]! - weight[a]! || this.names[a]!.tokens.length - this.names[b]!.tokens.length).slice(0, SHORTLIST)
      : touched.slice();
    for (const id of touched) {
      weight[id] = 0;
      tokens[id] = 0;
    }
    return ranked;
  }

  search(subject: ScreeningSubject, options: { limit?: number; threshold?: number } = {}): ScreeningHit[] {
    const limit = options.limit ?? 10;
    const threshold = options.threshold ?? 0.8;
    const texts = nameTokens(subject.name, subject.kind ?? 'OTHER');
    if (texts.length === 0) return [];
    const query: Token[] = texts.map((text) => {
      const key = skeleton(text);
      return { text, key, weight: this.weight(key) };
    });
    const best = new Map<number, { record: NameRecord; alignment: Alignment; score: number }>();
    const similarities = new Map<string, number>();
    for (const id of this.shortlist(query)) {
      const record = this.names[id]!;
      const listed = record.tokens;
      const alignment = alignNames(query, listed, similarities);
      const joined = query.length !== listed.length ? joinedSimilarity(query, listed) * 0.97 : 0;
      const score = Math.max(alignment.score, joined) * STRENGTH_FACTOR[record.strength];
      const current = best.get(record.entity);
      if (!current || score > current.score) best.set(record.entity, { record, alignment: { ...alignment, score }, score });
    }
    const hits: ScreeningHit[] = [];
    for (const [entityIndex, { record, alignment, score: nameScore }] of best) {
      // Cheap cut before the entity features: they raise a score by at most this much.
      if (nameScore < threshold * 0.6) continue;
      const { id, sourceId, listVersion, entity } = this.entries[entityIndex]!;
      let score = nameScore;
      const explanation: ScreeningHit['explanation'] = {
        name: { matched: record.full, strength: record.strength, similarity: round(nameScore), pairs: alignment.pairs, unmatchedQuery: alignment.unmatchedQuery, unmatchedListed: alignment.unmatchedListed },
        kind: 'NOT_COMPARED',
        birthDate: { effect: 'NOT_COMPARED', listed: entity.birthDates },
        country: { effect: 'NOT_COMPARED', listed: [...new Set([...entity.nationalities, ...entity.countries])] },
        identifier: { effect: 'NOT_COMPARED' },
      };
      if (subject.kind) {
        const same = (subject.kind === 'PERSON') === (entity.kind === 'PERSON');
        explanation.kind = same ? 'MATCH' : 'MISMATCH';
        if (!same) score *= 0.8;
      }
      if (subject.birthDate && entity.birthDates.length) {
        const effect = birthDateEffect(subject.birthDate, entity.birthDates);
        explanation.birthDate.effect = effect;
        if (effect === 'MATCH') score += (1 - score) * 0.3;
        else if (effect === 'PARTIAL') score += (1 - score) * 0.1;
        else if (effect === 'MISMATCH') score *= 0.8;
      }
      if (subject.countries?.length && explanation.country.listed.length) {
        const shared = subject.countries.some((c) => explanation.country.listed.includes(c.toUpperCase()));
        explanation.country.effect = shared ? 'MATCH' : 'MISMATCH';
        score = shared ? score + (1 - score) * 0.1 : score * 0.97;
      }
      if (subject.identifiers?.length && entity.identifiers.length) {
        const wanted = new Set(subject.identifiers.map(normalizedId).filter(Boolean));
        const matched = entity.identifiers.find((i) => wanted.has(normalizedId(i.number)));
        explanation.identifier = matched ? { effect: 'MATCH', matched: `${matched.type} ${matched.number}` } : { effect: 'MISMATCH' };
        if (matched) score += (1 - score) * 0.8;
      }
      if (score < threshold) continue;
      hits.push({
        entityId: id, sourceId, listVersion, externalId: entity.externalId, kind: entity.kind,
        primaryName: entity.names[0]?.full ?? record.full, score: round(score), algorithmVersion: ALGORITHM_VERSION, explanation,
      });
    }
    return hits.sort((a, b) => b.score - a.score || a.primaryName.localeCompare(b.primaryName)).slice(0, limit);
  }
}

/** Same day (or the listed date at the listed precision): MATCH; same year: PARTIAL; a year apart: not held against; else MISMATCH. */
function birthDateEffect(subject: string, listed: string[]): Effect {
  if (listed.some((date) => subject.startsWith(date) || date.startsWith(subject))) return listed.some((d) => d.length >= 7 && subject.startsWith(d)) ? 'MATCH' : 'PARTIAL';
  const year = Number(subject.slice(0, 4));
  if (listed.some((date) => Math.abs(Number(date.slice(0, 4)) - year) <= 1)) return 'NOT_COMPARED';
  return 'MISMATCH';
}
