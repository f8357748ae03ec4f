import type { NameTable } from './name-table.ts';
import { INITIAL, type Token } from './similarity.ts';
import type { SimilarTokens, TokenVocabulary } from './token-vocabulary.ts';

/** A query token and the listed tokens resembling it. */
export interface QueryPosition {
  token: Token;
  similar: SimilarTokens;
}

/** Token postings longer than this in total (very common names) are not walked when rarer tokens of the query can find the name. */
const MAX_SCAN = 6000;
/** `requires` of a scan adding only to names found already, by any position. */
const FOUND = -1;
/** Unmatched tokens' share in the estimate: the most the alignment discounts them. */
const LEFTOVER = 0.5;

/**
 * Picks the names worth a full alignment: those carrying tokens that resemble
 * the query's, ranked by an estimate of the alignment score (similarity of
 * each query token's best listed token, weighted by rarity, over both names'
 * weights). Scratch arrays sized to the index are reused between searches,
 * so one shortlister serves one search at a time.
 */
export class Shortlister {
  private readonly similaritySum: Float32Array;
  private readonly weightSum: Float32Array;
  /** Bit i set: query position i already counted for the name. */
  private readonly seen: Int32Array;
  /** Similarity to the current query position, by token id (0: not similar). */
  private readonly tokenSimilarity: Float32Array;
  private estimates = new Float64Array(1024);
  private selection = new Float64Array(1024);
  private readonly touched = new NameList();
  private readonly pending = new NameList();

  constructor(
    private readonly table: NameTable,
    private readonly vocabulary: TokenVocabulary,
  ) {
    this.similaritySum = new Float32Array(table.count);
    this.weightSum = new Float32Array(table.count);
    this.seen = new Int32Array(table.count);
    this.tokenSimilarity = new Float32Array(vocabulary.tokens.length);
  }

  shortlist(query: QueryPosition[], size: number, threshold: number): number[] {
    const bit = (position: number) => 1 << Math.min(position, 30);
    const totals = query.map(({ similar }) => similar.ids.reduce((sum, id) => sum + this.table.postingLength(id), 0));
    const required = query.map((_, i) => i).filter((i) => !query[i]!.token.optional);
    // Optional words (titles, legal forms) are never missed: they only raise names already found that carry them as listed words
    // (AL-SHAYKH Muhammad among the many Muhammads).
    const optional = query.map((_, i) => i).filter((i) => query[i]!.token.optional && totals[i]! > 0 && totals[i]! <= MAX_SCAN);
    // Initials are looked up in the names found by whole tokens (every name has some token starting with a letter).
    const initials = required.filter((i) => query[i]!.token.text.length === 1);
    const whole = required.filter((i) => query[i]!.token.text.length > 1);
    const positions = (whole.length ? whole : initials).filter((i) => totals[i]! > 0);
    // Rarest first. A position is walked while a name lacking every position walked so far could still reach
    // the threshold; after that it only adds to names already found.
    const order = [...positions].sort((a, b) => totals[a]! - totals[b]!);
    const queryWeight = required.reduce((sum, i) => sum + query[i]!.token.weight, 0);
    // What the positions not walked yet could still bring: their weight, and the most their best pair can add
    // (pairs add similarity × both tokens' weights; an initial's pair, twice the initial's weight).
    const weightOf = (i: number) => query[i]!.token.weight;
    const bestPair = (i: number) => query[i]!.similar.ids.reduce((best, id, c) => Math.max(best, query[i]!.similar.similarities[c]! * (weightOf(i) + this.vocabulary.tokens[id]!.weight)), 0);
    let remaining = [...order, ...initials].reduce((sum, i) => sum + weightOf(i), 0);
    let remainingPairs = order.reduce((sum, i) => sum + bestPair(i), 0) + initials.reduce((sum, i) => sum + 2 * weightOf(i), 0);
    let remainingWhole = order.length;
    // A name lacking every position walked so far scores at most this: its pairs over themselves and the query's unmatched
    // weight, discounted only when two strong pairs, or one and an initial, could anchor it.
    const reachableWith = (pairs: number) => {
      const leftover = remainingWhole >= 2 || (remainingWhole === 1 && initials.length > 0) ? LEFTOVER : 1;
      return pairs / (pairs + leftover * (queryWeight - remaining)) >= threshold;
    };
    const reachable = () => reachableWith(remainingPairs);
    const { touched, pending } = this;
    touched.clear();
    const done = new Set<number>();
    // After the first position, only the listed tokens whose pair could lift a name lacking every position walked so far
    // to the threshold (rare spellings, not the common Mohammed): names with the others are found already or cannot reach it,
    // and those found get this position by lookup below.
    const worthScanning = (i: number): QueryPosition => {
      const { token, similar } = query[i]!;
      if (touched.length === 0) return query[i]!;
      const others = remainingPairs - bestPair(i);
      const ids: number[] = [];
      const similarities: number[] = [];
      similar.ids.forEach((id, c) => {
        if (reachableWith(others + similar.similarities[c]! * (weightOf(i) + this.vocabulary.tokens[id]!.weight))) {
          ids.push(id);
          similarities.push(similar.similarities[c]!);
        }
      });
      return ids.length === similar.ids.length ? query[i]! : { token, similar: { ids, similarities } };
    };
    for (let k = 0; k < order.length && (touched.length === 0 || reachable()); k++) {
      const i = order[k]!;
      if (totals[i]! <= MAX_SCAN) {
        const scanned = worthScanning(i);
        this.scan(scanned, bit(i), touched, 0);
        if (scanned === query[i]) done.add(i);
        remaining -= weightOf(i);
        remainingPairs -= bestPair(i);
        remainingWhole--;
        continue;
      }
      // Only very common tokens left: names holding two of them (two positions for the same name, Mohamud ... Mohamed,
      // would meet in every name with one of them: that is no intersection).
      const second = order.slice(k + 1).find((j) => query[j]!.similar.ids[0] !== query[i]!.similar.ids[0]);
      if (second === undefined) {
        const scanned = worthScanning(i);
        this.scan(scanned, bit(i), touched, 0);
        if (scanned !== query[i]) {
          done.add(i);
          this.addByLookup(query[i]!, bit(i), touched);
        }
      } else {
        pending.clear();
        this.scan(query[i]!, bit(i), pending, 0);
        this.scan(query[second]!, bit(second), pending, bit(i));
        for (let p = 0; p < pending.length; p++) {
          const name = pending.items[p]!;
          if (this.seen[name]! & bit(second)) touched.push(name);
          else if (this.seen[name] === bit(i)) this.clear(name);
        }
        done.add(second);
      }
      done.add(i);
      break;
    }
    // Positions not walked: their best token among each shortlisted name's tokens.
    for (const i of positions) if (!done.has(i)) this.addByLookup(query[i]!, bit(i), touched);
    for (const i of optional) this.scan(query[i]!, bit(i), touched, FOUND);
    if (whole.length) for (const i of initials) this.addInitial(query[i]!.token, bit(i), touched);
    const ranked = this.best(size, queryWeight);
    for (let t = 0; t < touched.length; t++) this.clear(touched.items[t]!);
    return ranked;
  }

  /** Adds a position's contribution to every name carrying one of its tokens (best similarity first); with `requires`, only to names already holding those bits (FOUND: any). */
  private scan({ token, similar }: QueryPosition, positionBit: number, touched: NameList, requires: number) {
    const { postingStart, postings } = this.table;
    const tokens = this.vocabulary.tokens;
    for (let c = 0; c < similar.ids.length; c++) {
      const id = similar.ids[c]!;
      const weight = token.weight + tokens[id]!.weight;
      const gain = similar.similarities[c]! * weight;
      const end = postingStart[id + 1]!;
      for (let p = postingStart[id]!; p < end; p++) {
        const name = postings[p]!;
        const seen = this.seen[name]!;
        if (seen & positionBit || (requires && (requires === FOUND ? seen === 0 : (seen & requires) !== requires))) continue;
        if (seen === 0) touched.push(name);
        this.seen[name] = seen | positionBit;
        this.similaritySum[name]! += gain;
        this.weightSum[name]! += weight;
      }
    }
  }

  private addByLookup({ token, similar }: QueryPosition, positionBit: number, touched: NameList) {
    const { tokenStart, tokenIds, tokenOptional } = this.table;
    const tokens = this.vocabulary.tokens;
    for (let c = 0; c < similar.ids.length; c++) this.tokenSimilarity[similar.ids[c]!] = similar.similarities[c]!;
    for (let t = 0; t < touched.length; t++) {
      const name = touched.items[t]!;
      // Names a scan of this position reached already.
      if (this.seen[name]! & positionBit) continue;
      let best = 0;
      let bestWeight = 0;
      for (let k = tokenStart[name]!; k < tokenStart[name + 1]!; k++) {
        const s = tokenOptional[k] ? 0 : this.tokenSimilarity[tokenIds[k]!]!;
        if (s > best) {
          best = s;
          bestWeight = token.weight + tokens[tokenIds[k]!]!.weight;
        }
      }
      if (best > 0) {
        this.seen[name]! |= positionBit;
        this.similaritySum[name]! += best * bestWeight;
        this.weightSum[name]! += bestWeight;
      }
    }
    for (const id of similar.ids) this.tokenSimilarity[id] = 0;
  }

  private addInitial(initial: Token, positionBit: number, touched: NameList) {
    const { tokenStart, tokenIds, tokenOptional } = this.table;
    const tokens = this.vocabulary.tokens;
    for (let t = 0; t < touched.length; t++) {
      const name = touched.items[t]!;
      for (let k = tokenStart[name]!; k < tokenStart[name + 1]!; k++) {
        const listed = tokens[tokenIds[k]!]!;
        if (tokenOptional[k] || listed.text[0] !== initial.text) continue;
        const weight = 2 * Math.min(initial.weight, listed.weight);
        this.seen[name]! |= positionBit;
        this.similaritySum[name]! += (listed.text.length === 1 ? 1 : INITIAL) * weight;
        this.weightSum[name]! += weight;
        break;
      }
    }
  }

  /** The `size` touched names with the best estimate (fewer tokens first among equals, then the first found). */
  private best(size: number, queryWeight: number): number[] {
    const { items, length } = this.touched;
    if (this.estimates.length < length) {
      this.estimates = new Float64Array(length * 2);
      this.selection = new Float64Array(length * 2);
    }
    const estimates = this.estimates;
    const { tokenStart, weight } = this.table;
    for (let t = 0; t < length; t++) {
      const name = items[t]!;
      const unmatched = Math.max(0, queryWeight + weight[name]! - this.weightSum[name]!);
      // Fewer tokens first among equals: a hair per token, far below any real difference.
      estimates[t] = this.similaritySum[name]! / (this.weightSum[name]! + LEFTOVER * unmatched) - (tokenStart[name + 1]! - tokenStart[name]!) * 1e-9;
    }
    let cut = -Infinity;
    if (length > size) {
      this.selection.set(estimates.subarray(0, length));
      cut = kthLargest(this.selection.subarray(0, length), size);
    }
    const chosen: number[] = [];
    for (let t = 0; t < length; t++) if (estimates[t]! > cut) chosen.push(t);
    for (let t = 0; t < length && chosen.length < size; t++) if (estimates[t] === cut) chosen.push(t);
    return chosen.sort((a, b) => estimates[b]! - estimates[a]! || a - b).map((t) => items[t]!);
  }

  private clear(name: number) {
    this.seen[name] = 0;
    this.similaritySum[name] = 0;
    this.weightSum[name] = 0;
  }
}

/** The k-th largest value (1-based), by quickselect; reorders `values`. */
function kthLargest(values: Float64Array, k: number): number {
  let low = 0;
  let high = values.length - 1;
  const target = k - 1;
  while (low < high) {
    const pivot = values[(low + high) >>> 1]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        [values[i], values[j]] = [values[j]!, values[i]!];
        i++;
        j--;
      }
    }
    if (target <= j) high = j;
    else if (target >= i) low = i;
    else break;
  }
  return values[target]!;
}

/** Name ids in a typed array kept between searches: a search can touch tens of thousands of names, without leaving garbage. */
class NameList {
  items = new Int32Array(1024);
  length = 0;

  push(name: number) {
    if (this.length === this.items.length) {
      const grown = new Int32Array(this.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = name;
  }

  clear() {
    this.length = 0;
  }
}
