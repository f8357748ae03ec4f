import { AppError } from '../errors.ts';
import type { Block } from './blocks.ts';

/**
 * How much an analysis may produce. A tiny PDF can draw a huge page of tiny
 * words (979 bytes gave 100,000 words, 38 MB of blocks): its result is held in
 * memory, stored, audited and read back whole, so it is refused (422) instead.
 */
export interface OutputLimits {
  /** Words on one page; a dense page of small print has about 1,200. */
  maxWordsPerPage: number;
  /** Words in the whole document. */
  maxWords: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { maxWordsPerPage: 3_000, maxWords: 30_000 };

/** Blocks per word at most: its LINE, and the CELL, TABLE and key-value blocks layout adds around it. */
const BLOCKS_PER_WORD = 4;

const refuse = (message: string) => new AppError('UNPROCESSABLE', `file: ${message}`);

/** Counts words page by page as an engine reads them, refusing the page that passes a limit before the rest is read. */
export class WordCount {
  #total = 0;

  constructor(private readonly limits: OutputLimits = DEFAULT_OUTPUT_LIMITS) {}

  add(pageNumber: number, words: number) {
    if (words > this.limits.maxWordsPerPage) {
      throw refuse(`page ${pageNumber} has ${words} words; the limit is ${this.limits.maxWordsPerPage} words per page (ANALYSIS_MAX_WORDS_PER_PAGE)`);
    }
    this.#total += words;
    if (this.#total > this.limits.maxWords) {
      throw refuse(`the document has more than ${this.limits.maxWords} words; the limit is ${this.limits.maxWords} words per document (ANALYSIS_MAX_WORDS)`);
    }
  }
}

/** Checks an engine's result (any engine's, Textract's too) against the limits before it is kept. */
export function checkOutput(blocks: Block[], limits: OutputLimits = DEFAULT_OUTPUT_LIMITS) {
  const wordsByPage = new Map<number, number>();
  for (const block of blocks) if (block.BlockType === 'WORD') wordsByPage.set(block.Page, (wordsByPage.get(block.Page) ?? 0) + 1);
  const count = new WordCount(limits);
  for (const [page, words] of [...wordsByPage].sort(([a], [b]) => a - b)) count.add(page, words);
  const maxBlocks = BLOCKS_PER_WORD * limits.maxWords;
  if (blocks.length > maxBlocks) {
    throw refuse(`the analysis has ${blocks.length} blocks; the limit is ${maxBlocks} blocks per document (${BLOCKS_PER_WORD} per word of ANALYSIS_MAX_WORDS)`);
  }
}
