import { AppError } from '../errors.ts';
import type { Block } from './blocks.ts';

/**
 * How much an analysis may produce. A tiny PDF can draw a huge page of tiny
 * words (979 bytes gave 100,000 words, 38 MB of blocks): its result is held in
 * memory, stored, audited and read back whole, so it is refused (422) instead.
 * Words are bounded in length too: 30,000 words of 1,000 characters each
 * made 102 MB of blocks, so the text is counted in characters as well.
 */
export interface OutputLimits {
  /** Words on one page; a dense page of small print has about 1,200. */
  maxWordsPerPage: number;
  /** Words in the whole document. */
  maxWords: number;
  /** Characters of all the words in the document; 30 dense pages hold about 220,000. */
  maxTextChars: number;
  /** Bytes of the blocks as JSON: table cells add geometry the word and character limits do not bound. */
  maxBlocksBytes: number;
}

/** Blocks take ~400 bytes of geometry per word and ~2 bytes per character (WORD and LINE): 30,000 sixteen-letter words made 12.7 MB. */
export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { maxWordsPerPage: 3_000, maxWords: 30_000, maxTextChars: 500_000, maxBlocksBytes: 14 * 1024 * 1024 };

/** Blocks per word at most: its LINE, and the CELL, TABLE and key-value blocks layout adds around it. */
const BLOCKS_PER_WORD = 4;

const refuse = (message: string) => new AppError('UNPROCESSABLE', `file: ${message}`);

/** Counts words and their characters page by page as an engine reads them, refusing the page that passes a limit before the rest is read. */
export class WordCount {
  #total = 0;
  #chars = 0;

  constructor(private readonly limits: Omit<OutputLimits, 'maxBlocksBytes'> = DEFAULT_OUTPUT_LIMITS) {}

  add(pageNumber: number, words: number, chars: number) {
    if (words > this.limits.maxWordsPerPage) {
      throw refuse(`page ${pageNumber} has ${words} words; the limit is ${this.limits.maxWordsPerPage} words per page (ANALYSIS_MAX_WORDS_PER_PAGE)`);
    }
    this.#total += words;
    if (this.#total > this.limits.maxWords) {
      throw refuse(`the document has more than ${this.limits.maxWords} words; the limit is ${this.limits.maxWords} words per document (ANALYSIS_MAX_WORDS)`);
    }
    this.#chars += chars;
    if (this.#chars > this.limits.maxTextChars) {
      throw refuse(
        `the text of the document reaches ${this.#chars} characters by page ${pageNumber}; the limit is ${this.limits.maxTextChars} characters per document (ANALYSIS_MAX_TEXT_CHARS)`,
      );
    }
  }
}

/** Checks an engine's result (any engine's, Textract's too) against the limits before it is kept. */
export function checkOutput(blocks: Block[], limits: OutputLimits = DEFAULT_OUTPUT_LIMITS) {
  const byPage = new Map<number, { words: number; chars: number }>();
  for (const block of blocks) {
    if (block.BlockType !== 'WORD') continue;
    const page = byPage.get(block.Page) ?? { words: 0, chars: 0 };
    page.words += 1;
    page.chars += block.Text?.length ?? 0;
    byPage.set(block.Page, page);
  }
  const count = new WordCount(limits);
  for (const [number, { words, chars }] of [...byPage].sort(([a], [b]) => a - b)) count.add(number, words, chars);
  const maxBlocks = BLOCKS_PER_WORD * limits.maxWords;
  if (blocks.length > maxBlocks) {
    throw refuse(`the analysis has ${blocks.length} blocks; the limit is ${maxBlocks} blocks per document (${BLOCKS_PER_WORD} per word of ANALYSIS_MAX_WORDS)`);
  }
  // A 10-page grid of 30,000 16-letter words made 15.8 MB within the limits above.
  const bytes = Buffer.byteLength(JSON.stringify(blocks));
  if (bytes > limits.maxBlocksBytes) {
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    throw refuse(`the analysis' blocks take ${mb(bytes)} MB; the limit is ${mb(limits.maxBlocksBytes)} MB (ANALYSIS_MAX_BLOCKS_MB)`);
  }
}
