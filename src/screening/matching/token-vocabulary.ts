import { skeleton, spelling } from './phonetic.ts';
import { MIN_PAIR, type Token, tokenSimilarity } from './similarity.ts';

/** Tokens of the index resembling one query token, most similar first. */
export interface SimilarTokens {
  ids: number[];
  similarities: number[];
}

/**
 * Every distinct token of an index, once: its spelling, its consonant key,
 * and how many names carry that key (its rarity). Lookups go from a query
 * token to the listed tokens worth comparing with it (same spelling, same
 * key, one edit away), so that a search compares a few hundred distinct
 * tokens rather than every name.
 */
export class TokenVocabulary {
  readonly tokens: Token[] = [];
  private readonly ids = new Map<string, number>();
  private readonly keyIds = new Map<string, number>();
  /** Token ids by key id. */
  private readonly keyTokens: number[][] = [];
  /** Names carrying each key, by key id. */
  private readonly keyNames: number[] = [];
  /** Token ids by each one-letter deletion of their text: any typo one edit away, whatever it does to the key. */
  private readonly textNeighbours = new Map<string, number[]>();
  /** Token ids by their spelling (Aly and Ali, Yusef and Yousef). */
  private readonly spellings = new Map<string, number[]>();
  private names = 0;
  private maxIdf = 1;

  get size() {
    return { tokens: this.tokens.length, keys: this.keyTokens.length };
  }

  /** The id of a token, added when new (weights are set by seal). */
  intern(text: string): number {
    let id = this.ids.get(text);
    if (id !== undefined) return id;
    id = this.tokens.length;
    const key = skeleton(text);
    const spelled = spelling(text);
    this.tokens.push({ text, key, weight: 1, spelling: spelled });
    this.ids.set(text, id);
    append(this.spellings, spelled, id);
    if (text.length >= MIN_TYPO_LOOKUP) for (const variant of letterDeletions(text)) append(this.textNeighbours, variant, id);
    let keyId = this.keyIds.get(key);
    if (keyId === undefined) {
      keyId = this.keyTokens.length;
      this.keyIds.set(key, keyId);
      this.keyTokens.push([]);
      this.keyNames.push(0);
    }
    this.keyTokens[keyId]!.push(id);
    return id;
  }

  /** Counts one name carrying these tokens (each key once). */
  countName(tokenIds: ArrayLike<number>): void {
    this.names++;
    const keys = new Set<number>();
    for (let k = 0; k < tokenIds.length; k++) keys.add(this.keyIds.get(this.tokens[tokenIds[k]!]!.key)!);
    for (const key of keys) this.keyNames[key]!++;
  }

  /** Sets every token's weight once all names are counted. */
  seal(): void {
    this.maxIdf = Math.log(this.names + 1);
    for (const token of this.tokens) token.weight = this.weight(token.text, token.key);
  }

  /** 0.5 for the most common keys (and single letters) up to 1.5 for unseen ones. */
  weight(text: string, key: string): number {
    if (text.length === 1) return 0.5;
    const keyId = this.keyIds.get(key);
    const names = keyId === undefined ? 0 : this.keyNames[keyId]!;
    return MAX_WEIGHT - 1 + Math.log((this.names + 1) / (names + 1)) / this.maxIdf;
  }

  /** A query token with its weight in this vocabulary. */
  queryToken(text: string): Token {
    const key = skeleton(text);
    return { text, key, weight: this.weight(text, key), spelling: spelling(text) };
  }

  /**
   * Listed tokens resembling the query token: the same spelling, the same
   * consonant key when it has three consonants or more (shorter keys say
   * too little), or one edit apart (Sxring / Spring); scored with
   * tokenSimilarity and kept from MIN_PAIR. Initials only meet themselves
   * (the shortlist compares them with first letters).
   */
  similar(query: Token): SimilarTokens {
    const ids = new Set<number>();
    const exact = this.ids.get(query.text);
    if (exact !== undefined) ids.add(exact);
    if (query.text.length > 1) {
      for (const id of this.spellings.get(query.spelling ?? spelling(query.text)) ?? []) ids.add(id);
      const keyId = this.keyIds.get(query.key);
      if (keyId !== undefined && query.key.length - Number(query.key[0] === '*') >= 3) for (const id of this.keyTokens[keyId]!) ids.add(id);
    }
    if (query.text.length >= MIN_TYPO_LOOKUP) {
      for (const id of this.textNeighbours.get(query.text) ?? []) ids.add(id);
      for (const variant of letterDeletions(query.text)) {
        const shorter = this.ids.get(variant);
        if (shorter !== undefined) ids.add(shorter);
        for (const id of this.textNeighbours.get(variant) ?? []) ids.add(id);
      }
    }
    const found: Array<[number, number]> = [];
    for (const id of ids) {
      const token = this.tokens[id]!;
      const similarity = query.text.length === 1 ? 1 : tokenSimilarity(query, token);
      if (similarity >= MIN_PAIR) found.push([id, similarity]);
    }
    found.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return { ids: found.map(([id]) => id), similarities: found.map(([, s]) => s) };
  }
}

/** The weight of a token no name carries; every other weighs less. */
export const MAX_WEIGHT = 1.5;

/** Tokens shorter than this are not looked up by their one-edit neighbours (too many short names are one edit apart). */
const MIN_TYPO_LOOKUP = 2;

function letterDeletions(text: string): Set<string> {
  const variants = new Set<string>();
  for (let i = 0; i < text.length; i++) variants.add(text.slice(0, i) + text.slice(i + 1));
  return variants;
}

function append<K>(map: Map<K, number[]>, key: K, value: number) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
