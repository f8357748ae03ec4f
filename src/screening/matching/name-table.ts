import type { NameStrength } from '../lists/listed-entity.ts';
import type { TokenVocabulary } from './token-vocabulary.ts';

export const STRENGTHS: NameStrength[] = ['PRIMARY', 'STRONG', 'WEAK'];

/**
 * Every indexed name in typed arrays (a million names take tens of
 * megabytes, not a gigabyte of objects): its entity, which of the entity's
 * names it is, its tokens as vocabulary ids, and for each token the names
 * carrying it (postings).
 */
export class NameTable {
  private constructor(
    readonly count: number,
    readonly entity: Int32Array,
    /** Position of the name in its entity's names. */
    readonly slot: Uint16Array,
    /** Index in STRENGTHS. */
    readonly strength: Uint8Array,
    /** Tokens of name n: tokenIds[tokenStart[n] .. tokenStart[n + 1]). */
    readonly tokenStart: Int32Array,
    readonly tokenIds: Int32Array,
    /** 1 where the token is an optional part of its name (a title, a legal form). */
    readonly tokenOptional: Uint8Array,
    /** Sum of the name's required token weights. */
    readonly weight: Float32Array,
    /** Names carrying token t: postings[postingStart[t] .. postingStart[t + 1]). */
    readonly postingStart: Int32Array,
    readonly postings: Int32Array,
  ) {}

  static builder() {
    const entity: number[] = [];
    const slot: number[] = [];
    const strength: number[] = [];
    const tokenStart: number[] = [0];
    const tokenIds: number[] = [];
    const tokenOptional: number[] = [];
    return {
      add(entityIndex: number, nameSlot: number, nameStrength: NameStrength, ids: number[], optional: boolean[]) {
        entity.push(entityIndex);
        slot.push(nameSlot);
        strength.push(STRENGTHS.indexOf(nameStrength));
        ids.forEach((id, k) => {
          tokenIds.push(id);
          tokenOptional.push(Number(optional[k]));
        });
        tokenStart.push(tokenIds.length);
      },
      /** Call once the vocabulary is sealed (weights known). */
      build(vocabulary: TokenVocabulary): NameTable {
        const count = entity.length;
        const tokens = vocabulary.tokens;
        const starts = Int32Array.from(tokenStart);
        const ids = Int32Array.from(tokenIds);
        const optional = Uint8Array.from(tokenOptional);
        const weight = new Float32Array(count);
        const postingStart = new Int32Array(tokens.length + 1);
        // Optional tokens are neither weighed nor posted: a search finds names by their required tokens.
        const posted = (n: number, k: number) => !optional[k] && !repeats(ids, optional, starts[n]!, k);
        for (let n = 0; n < count; n++) {
          for (let k = starts[n]!; k < starts[n + 1]!; k++) {
            if (!optional[k]) weight[n]! += tokens[ids[k]!]!.weight;
            // A token twice in one name is posted once.
            if (posted(n, k)) postingStart[ids[k]! + 1]!++;
          }
        }
        for (let t = 0; t < tokens.length; t++) postingStart[t + 1]! += postingStart[t]!;
        const postings = new Int32Array(postingStart[tokens.length]!);
        const fill = postingStart.slice(0, tokens.length);
        for (let n = 0; n < count; n++) {
          for (let k = starts[n]!; k < starts[n + 1]!; k++) if (posted(n, k)) postings[fill[ids[k]!]!++] = n;
        }
        return new NameTable(count, Int32Array.from(entity), Uint16Array.from(slot), Uint8Array.from(strength), starts, ids, optional, weight, postingStart, postings);
      },
    };
  }

  postingLength(token: number): number {
    return this.postingStart[token + 1]! - this.postingStart[token]!;
  }
}

/** Whether the token at `at` was posted earlier in its name. */
function repeats(ids: Int32Array, optional: Uint8Array, from: number, at: number): boolean {
  for (let k = from; k < at; k++) if (ids[k] === ids[at] && !optional[k]) return true;
  return false;
}
