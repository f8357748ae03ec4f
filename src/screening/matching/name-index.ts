import type { ListedEntity, NameStrength } from '../lists/listed-entity.ts';
import { applyFeatures, type Effect } from './entity-features.ts';
import { NameTable, STRENGTHS } from './name-table.ts';
import { nameTokens, type NameKind } from './normalize.ts';
import { type QueryPosition, Shortlister } from './shortlist.ts';
import { type Alignment, alignNames, joinedSimilarity, type Token, tokenSimilarity } from './similarity.ts';
import { TokenVocabulary } from './token-vocabulary.ts';

/** Changes whenever scoring changes, so that stored hits say how they were scored. */
export const ALGORITHM_VERSION = 'names-2.0';

/** The score from which a hit is reported; the benchmark measures recall and false positives at it. */
export const DEFAULT_THRESHOLD = 0.8;

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

const STRENGTH_FACTOR: Record<NameStrength, number> = { PRIMARY: 1, STRONG: 0.99, WEAK: 0.9 };
/** Names scoring below this share of the threshold are not hits even with matching date of birth, countries or identifiers. */
const FEATURE_CUT = 0.6;
/** Names aligned in full per search: the best by the shortlist's estimate. */
const SHORTLIST = 24;

const kindOf = (entity: ListedEntity): NameKind => (entity.kind === 'PERSON' ? 'PERSON' : 'ORGANIZATION');
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * An in-memory index over every name of the current list versions. Each
 * distinct token is held once (spelling, transliteration-tolerant key,
 * rarity); names are token ids in typed arrays with postings per token. A
 * search finds the listed tokens resembling each query token (same
 * spelling, same consonant key, one edit away), ranks the names carrying
 * them by an estimate, aligns the best few token by token, weighted by
 * rarity, then applies date of birth, country and identifiers.
 */
export class NameIndex {
  private constructor(
    readonly entries: IndexedEntity[],
    private readonly vocabulary: TokenVocabulary,
    private readonly names: NameTable,
    private readonly shortlister: Shortlister,
  ) {}

  static build(entries: IndexedEntity[]): NameIndex {
    const vocabulary = new TokenVocabulary();
    const table = NameTable.builder();
    entries.forEach(({ entity }, entityIndex) => {
      const seen = new Set<string>();
      entity.names.forEach((name, slot) => {
        const texts = nameTokens(name.full, kindOf(entity));
        const signature = texts.join(' ');
        if (!texts.length || seen.has(signature)) return;
        seen.add(signature);
        const ids = texts.map((text) => vocabulary.intern(text));
        vocabulary.countName(ids);
        table.add(entityIndex, slot, name.strength, ids);
      });
    });
    vocabulary.seal();
    const names = table.build(vocabulary);
    return new NameIndex(entries, vocabulary, names, new Shortlister(names, vocabulary));
  }

  get size() {
    return { entities: this.entries.length, names: this.names.count, keys: this.vocabulary.size.keys, tokens: this.vocabulary.size.tokens };
  }

  search(subject: ScreeningSubject, options: { limit?: number; threshold?: number } = {}): ScreeningHit[] {
    const limit = options.limit ?? 10;
    const threshold = options.threshold ?? DEFAULT_THRESHOLD;
    const texts = nameTokens(subject.name, subject.kind ?? 'OTHER');
    if (texts.length === 0) return [];
    const query: QueryPosition[] = texts.map((text) => {
      const token = this.vocabulary.queryToken(text);
      return { token, similar: this.vocabulary.similar(token) };
    });
    const queryTokens = query.map((p) => p.token);
    const known = query.map(({ similar }) => new Map(similar.ids.map((id, c) => [id, similar.similarities[c]!])));
    const computed = new Map<number, number>();
    const best = new Map<number, { name: number; alignment: Alignment; score: number }>();
    // Date of birth, countries and identifiers can lift a name from FEATURE_CUT of the threshold.
    const brings = Boolean(subject.birthDate || subject.countries?.length || subject.identifiers?.length);
    const nameThreshold = brings ? threshold * FEATURE_CUT : threshold;
    for (const name of this.shortlister.shortlist(query, SHORTLIST, nameThreshold)) {
      const ids = this.names.tokenIds.subarray(this.names.tokenStart[name]!, this.names.tokenStart[name + 1]!);
      const listed: Token[] = Array.from(ids, (id) => this.vocabulary.tokens[id]!);
      const alignment = alignNames(queryTokens, listed, (i, j) => {
        const id = ids[j]!;
        const found = known[i]!.get(id);
        if (found !== undefined) return found;
        // Pairs the vocabulary lookup did not reach (initials, distant keys): computed once per search.
        const cacheKey = id * 32 + Math.min(i, 31);
        let similarity = computed.get(cacheKey);
        if (similarity === undefined) computed.set(cacheKey, (similarity = tokenSimilarity(queryTokens[i]!, listed[j]!)));
        return similarity;
      });
      const joined = queryTokens.length !== listed.length ? joinedSimilarity(queryTokens, listed) * 0.97 : 0;
      const score = Math.max(alignment.score, joined) * STRENGTH_FACTOR[STRENGTHS[this.names.strength[name]!]!];
      const entity = this.names.entity[name]!;
      const current = best.get(entity);
      if (!current || score > current.score) best.set(entity, { name, alignment: { ...alignment, score }, score });
    }
    const hits: ScreeningHit[] = [];
    for (const [entityIndex, { name, alignment, score: nameScore }] of best) {
      if (nameScore < nameThreshold) continue;
      const { id, sourceId, listVersion, entity } = this.entries[entityIndex]!;
      const { score, effects } = applyFeatures(nameScore, subject, entity);
      if (score < threshold) continue;
      const listedName = entity.names[this.names.slot[name]!]!;
      hits.push({
        entityId: id, sourceId, listVersion, externalId: entity.externalId, kind: entity.kind,
        primaryName: entity.names[0]?.full ?? listedName.full, score: round(score), algorithmVersion: ALGORITHM_VERSION,
        explanation: {
          name: { matched: listedName.full, strength: listedName.strength, similarity: round(nameScore), pairs: alignment.pairs, unmatchedQuery: alignment.unmatchedQuery, unmatchedListed: alignment.unmatchedListed },
          ...effects,
        },
      });
    }
    return hits.sort((a, b) => b.score - a.score || a.primaryName.localeCompare(b.primaryName)).slice(0, limit);
  }
}
