import jaroWinkler from 'talisman/metrics/jaro-winkler.js';

/** One token of a name, with what matching needs precomputed. */
export interface Token {
  text: string;
  key: string;
  /** 0.5 (very common token) .. 1.5 (rare): rare tokens decide a match. */
  weight: number;
}

/**
 * Similarity of two tokens in 0..1: Jaro-Winkler on the spellings, at least
 * 0.93 for transliteration variants (same key), 0.8 for an initial against
 * a name it starts.
 */
export function tokenSimilarity(a: Token, b: Token): number {
  if (a.text === b.text) return 1;
  if (a.text.length === 1 || b.text.length === 1) return a.text[0] === b.text[0] ? 0.8 : 0;
  const spelling = jaroWinkler(a.text, b.text);
  // Keys of one or two consonants say too little (Giulia / Ghul) to lift a score.
  return a.key === b.key && a.key.replace('*', '').length >= 3 ? Math.max(spelling, 0.93) : spelling;
}

export interface Alignment {
  score: number;
  pairs: Array<{ query: string; listed: string; similarity: number }>;
  unmatchedQuery: string[];
  unmatchedListed: string[];
}

const MIN_PAIR = 0.75;

/**
 * Pairs tokens of the two names greedily by similarity (order does not
 * matter), then scores the weighted share of matched tokens. Tokens left
 * over count half when at least two strong pairs match (a missing middle
 * name), fully otherwise.
 */
export function alignNames(query: Token[], listed: Token[], cache?: Map<string, number>): Alignment {
  const candidates: Array<{ i: number; j: number; similarity: number }> = [];
  for (let i = 0; i < query.length; i++) {
    for (let j = 0; j < listed.length; j++) {
      // Names of one search share many tokens: each pair is compared once.
      const cacheKey = cache && `${i}\u0000${listed[j]!.text}`;
      let similarity = cacheKey ? cache.get(cacheKey) : undefined;
      if (similarity === undefined) {
        similarity = tokenSimilarity(query[i]!, listed[j]!);
        if (cacheKey) cache!.set(cacheKey, similarity);
      }
      if (similarity >= MIN_PAIR) candidates.push({ i, j, similarity });
    }
  }
  candidates.sort((x, y) => y.similarity - x.similarity || x.i - y.i || x.j - y.j);
  const usedQuery = new Set<number>();
  const usedListed = new Set<number>();
  const pairs: Array<{ i: number; j: number; similarity: number }> = [];
  for (const candidate of candidates) {
    if (usedQuery.has(candidate.i) || usedListed.has(candidate.j)) continue;
    usedQuery.add(candidate.i);
    usedListed.add(candidate.j);
    pairs.push(candidate);
  }
  const strongPairs = pairs.filter((p) => p.similarity >= 0.9).length;
  const leftoverFactor = strongPairs >= 2 ? 0.5 : 1;
  let matched = 0;
  let total = 0;
  for (const pair of pairs) {
    const weight = (query[pair.i]!.weight + listed[pair.j]!.weight) / 2;
    matched += pair.similarity * weight * 2;
    total += weight * 2;
  }
  query.forEach((t, i) => usedQuery.has(i) || (total += t.weight * leftoverFactor));
  listed.forEach((t, j) => usedListed.has(j) || (total += t.weight * leftoverFactor));
  // Reordered tokens cost a little, so that the listed order ranks first among equals.
  pairs.sort((x, y) => x.i - y.i);
  const inOrder = pairs.every((p, k) => k === 0 || p.j > pairs[k - 1]!.j);
  const score = total ? (matched / total) * (inOrder ? 1 : 0.99) : 0;
  return {
    score,
    pairs: pairs.map((p) => ({ query: query[p.i]!.text, listed: listed[p.j]!.text, similarity: Math.round(p.similarity * 1000) / 1000 })),
    unmatchedQuery: query.filter((_, i) => !usedQuery.has(i)).map((t) => t.text),
    unmatchedListed: listed.filter((_, j) => !usedListed.has(j)).map((t) => t.text),
  };
}

/**
 * Names written together or apart (Abdulrahman / Abdul Rahman): the tokens
 * joined and compared as one, counted only when nearly identical (a loose
 * comparison of joined names matches unrelated people by their first names).
 */
export function joinedSimilarity(query: Token[], listed: Token[]): number {
  const a = query.map((t) => t.text).join('');
  const b = listed.map((t) => t.text).join('');
  if (a === b) return 1;
  const similarity = jaroWinkler(a, b);
  return similarity >= 0.97 ? similarity : 0;
}
