import { SERVANT } from './arabic-names.ts';
import { romanSkeletons, skeletonSimilarity } from './arabic-script.ts';
import { skeleton, spelling } from './phonetic.ts';
import { articleJoined, MIN_PAIR, type Token, tokenSimilarity, vowelFrame } from './similarity.ts';

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
  /** Token ids of five letters or more by their spelling's vowel frame (Momado and Mamadu, Hezbollah and Hizballah). */
  private readonly frames = new Map<string, number[]>();
  /** Token ids by their consonant skeleton (arabic-script.ts): what a word in Arabic script meets. */
  private readonly skeletons = new Map<string, number[]>();
  /** Tokens as optional parts of names (titles, legal forms), by id, made on first use. */
  private readonly optionalTokens: Array<Token | undefined> = [];
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
    const frame = vowelFrame(text, spelled);
    this.tokens.push({ text, key, weight: 1, spelling: spelled, frame });
    this.ids.set(text, id);
    append(this.spellings, spelled, id);
    if (frame) append(this.frames, frame, id);
    // Each word by its skeleton, and with an article run onto it by the skeleton of the rest (Elsseid: sd).
    for (const word of /^[ae]l.{3}/.test(text) ? [text, text.slice(2)] : [text]) {
      for (const consonants of romanSkeletons(word)) if (consonants && consonants !== '*') append(this.skeletons, consonants, id);
    }
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

  /** The id of a token when some name carries it. */
  idOf(text: string): number | undefined {
    return this.ids.get(text);
  }

  /** A listed token as an optional part of a name: a title or legal form, weighing at most OPTIONAL_WEIGHT. */
  optional(id: number): Token {
    return (this.optionalTokens[id] ??= asOptional(this.tokens[id]!));
  }

  /** Counts one name carrying these tokens (each key once): its required tokens, so that legal forms and titles leave other words' rarity alone. */
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

  /** 0.5 for the most common keys (and single letters, and the Abd of Arabic names) up to 1.5 for unseen ones. */
  weight(text: string, key: string): number {
    if (text.length === 1 || text === SERVANT) return MAX_WEIGHT - 1;
    const keyId = this.keyIds.get(key);
    const names = keyId === undefined ? 0 : this.keyNames[keyId]!;
    return MAX_WEIGHT - 1 + Math.log((this.names + 1) / (names + 1)) / this.maxIdf;
  }

  /** A query token with its weight in this vocabulary. */
  queryToken(text: string, optional = false, arabic?: string): Token {
    const key = skeleton(text);
    const spelled = spelling(text);
    const token: Token = { text, key, weight: this.weight(text, key), spelling: spelled, frame: vowelFrame(text, spelled), ...(arabic ? { skeleton: arabic } : {}) };
    return optional ? asOptional(token) : token;
  }

  /**
   * Listed tokens resembling the query token: the same spelling or vowel
   * frame, the same consonant key when it has three consonants or more
   * (shorter keys say too little), the article run on or off, or one edit
   * apart (Sxring / Spring); scored with
   * tokenSimilarity and kept from MIN_PAIR. Initials only meet themselves
   * (the shortlist compares them with first letters); optional words (a
   * title, a legal form) themselves and their vowel variants only (Sheikh /
   * Shaykh, not Co / Ko).
   */
  similar(query: Token): SimilarTokens {
    const ids = new Set<number>();
    const exact = this.ids.get(query.text);
    if (exact !== undefined) ids.add(exact);
    if (query.optional) {
      for (const id of query.frame ? this.frames.get(query.frame) ?? [] : []) ids.add(id);
    } else if (query.text.length > 1) {
      const spelled = query.spelling ?? spelling(query.text);
      for (const id of this.spellings.get(spelled) ?? []) ids.add(id);
      // Vowel variants share the consonant key, looked up below, unless consonants doubled across vowels shorten it (Momado / Mamadu: md).
      const longKey = query.key.length - Number(query.key[0] === '*') >= 3;
      const frame = longKey ? '' : query.frame ?? vowelFrame(query.text, spelled);
      if (frame) for (const id of this.frames.get(frame) ?? []) ids.add(id);
      // The article run on or not (Alharamain / Haramain).
      for (const text of [query.text.slice(2), `al${query.text}`, `el${query.text}`]) {
        const id = this.ids.get(text);
        if (id !== undefined && (articleJoined(text, query.text) || articleJoined(query.text, text))) ids.add(id);
      }
      const keyId = this.keyIds.get(query.key);
      if (keyId !== undefined && longKey) for (const id of this.keyTokens[keyId]!) ids.add(id);
    }
    if (query.text.length >= MIN_TYPO_LOOKUP && !query.optional) {
      for (const id of this.textNeighbours.get(query.text) ?? []) ids.add(id);
      for (const variant of letterDeletions(query.text)) {
        const shorter = this.ids.get(variant);
        if (shorter !== undefined) ids.add(shorter);
        for (const id of this.textNeighbours.get(variant) ?? []) ids.add(id);
      }
    }
    const found: Array<[number, number]> = [];
    for (const id of ids) {
      const similarity = query.text.length === 1 ? 1 : tokenSimilarity(query, this.tokens[id]!);
      if (similarity >= MIN_PAIR) found.push([id, similarity]);
    }
    // A word in Arabic script: the romanized words with its skeleton, at the skeleton's similarity (its letters say nothing more).
    if (query.skeleton) {
      const reading = skeletonSimilarity(query.skeleton);
      const at = new Map(found.map(([id], k) => [id, k]));
      for (const id of this.skeletons.get(query.skeleton) ?? []) {
        const k = at.get(id);
        if (k === undefined) found.push([id, reading]);
        else found[k]![1] = Math.max(found[k]![1], reading);
      }
    }
    found.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return { ids: found.map(([id]) => id), similarities: found.map(([, s]) => s) };
  }
}

/** The weight of a token no name carries; every other weighs less. */
export const MAX_WEIGHT = 1.5;
/** The most a title or legal form weighs: as much as the commonest word. */
const OPTIONAL_WEIGHT = MAX_WEIGHT - 1;

const asOptional = (token: Token): Token => ({ ...token, weight: Math.min(OPTIONAL_WEIGHT, token.weight), optional: true });

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
