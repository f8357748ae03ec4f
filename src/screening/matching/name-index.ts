import type { ListedEntity, NameStrength } from '../lists/listed-entity.ts';
import { applyFeatures, type Effect } from './entity-features.ts';
import { NameTable, STRENGTHS } from './name-table.ts';
import { servantOf } from './arabic-names.ts';
import { legalForm, type NameKind, type NamePart, nameRenderings } from './normalize.ts';
import { type QueryPosition, Shortlister } from './shortlist.ts';
import { type Alignment, alignNames, joinedSimilarity, type Token, tokenSimilarity } from './similarity.ts';
import { TokenVocabulary } from './token-vocabulary.ts';

/** Changes whenever scoring changes, so that stored hits say how they were scored. */
export const ALGORITHM_VERSION = 'names-3.1';

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
/** The query with words joined or split as the index writes them (Velamarine / Vela-Marine): the listed writing ranks first among equals. */
const WRITTEN_APART = 0.99;
/** Shortest halves a query word is split into. */
const MIN_SPLIT = 3;
/** Words this long that no name carries are tried in two even when a listed word resembles them. */
const LONG_WORD = 10;

interface BestName {
  name: number;
  alignment: Alignment;
  score: number;
}

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
        for (const parts of nameRenderings(name.full, kindOf(entity))) {
          const signature = partsSignature(parts);
          if (!parts.length || seen.has(signature)) continue;
          seen.add(signature);
          const ids = parts.map((part) => vocabulary.intern(part.text));
          vocabulary.countName(ids.filter((_, k) => !parts[k]!.optional));
          table.add(entityIndex, slot, name.strength, ids, parts.map((part) => part.optional));
        }
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
    // Date of birth, countries and identifiers can lift a name from FEATURE_CUT of the threshold.
    const brings = Boolean(subject.birthDate || subject.countries?.length || subject.identifiers?.length);
    const nameThreshold = brings ? threshold * FEATURE_CUT : threshold;
    const best = new Map<number, BestName>();
    const kind = subject.kind ?? 'OTHER';
    const searched = new Set<string>();
    const searchOnce = (parts: NamePart[] | null, factor: number) => {
      const signature = parts && partsSignature(parts);
      if (!parts?.some((p) => !p.optional) || searched.has(signature!)) return null;
      searched.add(signature!);
      return this.alignShortlist(parts, factor, nameThreshold, best);
    };
    // Each reading of the name (金正恩 is read as Chinese and as Korean), then its words joined or split as the index writes them.
    for (const parts of nameRenderings(subject.name, kind)) {
      const positions = searchOnce(parts, 1);
      searchOnce(this.joined(parts), WRITTEN_APART);
      if (positions) searchOnce(this.split(parts, kind, positions), WRITTEN_APART);
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

  /** Neighbouring words the index carries as one (Vela Marine → velamarine, Jong Un → jongun); null when none. */
  private joined(parts: NamePart[]): NamePart[] | null {
    const out: NamePart[] = [];
    let changed = false;
    for (let k = 0; k < parts.length; k++) {
      const [a, b] = [parts[k]!, parts[k + 1]];
      if (b && a.text.length > 1 && b.text.length > 1 && this.vocabulary.idOf(a.text + b.text) !== undefined) {
        out.push({ text: a.text + b.text, optional: false });
        changed = true;
        k++;
      } else out.push(a);
    }
    return changed ? out : null;
  }

  /**
   * Words no listed word resembles, made of two the index carries
   * (Velamarine → vela marine, Shippingcompany → shipping co) or with an
   * article run onto one (alZeydi); null when none.
   */
  private split(parts: NamePart[], kind: NameKind, positions: QueryPosition[]): NamePart[] | null {
    const out: NamePart[] = [];
    let changed = false;
    for (const [k, part] of parts.entries()) {
      // Long words no name carries are tried even when some listed word resembles them (Mohammadbagheri: Mohammadbagher, Mohammad Bagheri).
      const unlisted = part.text.length >= LONG_WORD && this.vocabulary.idOf(part.text) === undefined;
      const tried = !part.optional && !part.skeleton && (!positions[k]!.similar.ids.length || unlisted);
      const pieces = tried ? this.pieces(part.text, kind) : null;
      if (pieces) changed = true;
      out.push(...(pieces ?? [part]));
    }
    return changed ? out : null;
  }

  private pieces(text: string, kind: NameKind): NamePart[] | null {
    const listed = (word: string): NamePart | null => (word.length >= MIN_SPLIT && this.vocabulary.idOf(word) !== undefined ? { text: word, optional: false } : null);
    const piece = (word: string): NamePart[] | null => {
      const form = kind === 'PERSON' ? undefined : legalForm(word);
      if (form) return [{ text: form, optional: true }];
      const found = listed(word);
      if (found) return [found];
      // An Abd name as the index writes it (Hamidabdallah: hamid, abd lah).
      const servant = servantOf([word]);
      return servant.length === 2 && servant.every((w) => this.vocabulary.idOf(w) !== undefined) ? servant.map((w) => ({ text: w, optional: false })) : null;
    };
    // Al-Zeydi written alzeydi, Jihad-al-Din written jihadal din, 'Ala'-al-Din written alaal din, Bin Ladin written binladin.
    const article = (/^(?:[ae]l)/.test(text) && listed(text.slice(2))) || (/^(?:bin|ibn|ben)/.test(text) && listed(text.slice(3))) || (/al$/.test(text) && text.length >= 5 && listed(text.slice(0, -2)));
    if (article) return [article];
    for (let at = MIN_SPLIT; at <= text.length - MIN_SPLIT; at++) {
      const [left, right] = [piece(text.slice(0, at)), piece(text.slice(at))];
      // Two short pieces are mostly chance (Jensen: jen sen), and costly to search.
      if (left && right && Math.max(text.slice(0, at).length, text.length - at) > MIN_SPLIT) return [...left, ...right];
    }
    return null;
  }

  /** Shortlists the names resembling one reading of the query, aligns them in full, and keeps each entity's best name in `best`; returns the query's words with the listed words resembling each. */
  private alignShortlist(parts: NamePart[], factor: number, nameThreshold: number, best: Map<number, BestName>): QueryPosition[] {
    const query: QueryPosition[] = parts.map(({ text, optional, skeleton }) => {
      const token = this.vocabulary.queryToken(text, optional, skeleton);
      return { token, similar: this.vocabulary.similar(token) };
    });
    const queryTokens = query.map((p) => p.token);
    const known = query.map(({ similar }) => new Map(similar.ids.map((id, c) => [id, similar.similarities[c]!])));
    const computed = new Map<number, number>();
    // Optional words of the query go to the shortlist too: a title may be a listed surname (AL-SHAYKH Muhammad).
    for (const name of this.shortlister.shortlist(query, SHORTLIST, nameThreshold / factor)) {
      const start = this.names.tokenStart[name]!;
      const ids = this.names.tokenIds.subarray(start, this.names.tokenStart[name + 1]!);
      const listed: Token[] = Array.from(ids, (id, k) => (this.names.tokenOptional[start + k] ? this.vocabulary.optional(id) : this.vocabulary.tokens[id]!));
      const alignment = alignNames(queryTokens, listed, (i, j) => {
        const id = ids[j]!;
        const found = known[i]!.get(id);
        if (found !== undefined) return found;
        // Pairs the vocabulary lookup did not reach (initials, distant keys, optional words): computed once per search.
        const cacheKey = id * 32 + Math.min(i, 31);
        let similarity = computed.get(cacheKey);
        if (similarity === undefined) computed.set(cacheKey, (similarity = tokenSimilarity(queryTokens[i]!, listed[j]!)));
        return similarity;
      }, { organization: this.entries[this.names.entity[name]!]!.entity.kind !== 'PERSON' });
      const joined = queryTokens.length !== listed.length ? joinedSimilarity(queryTokens, listed) * 0.97 : 0;
      const score = Math.max(alignment.score, joined) * factor * STRENGTH_FACTOR[STRENGTHS[this.names.strength[name]!]!];
      const entity = this.names.entity[name]!;
      const current = best.get(entity);
      if (!current || score > current.score) best.set(entity, { name, alignment: { ...alignment, score }, score });
    }
    return query;
  }
}

const partsSignature = (parts: NamePart[]) => parts.map((p) => (p.optional ? `?${p.text}` : p.text)).join(' ');
