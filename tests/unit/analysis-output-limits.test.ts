// How much an analysis may produce: a tiny PDF can draw a huge page of tiny
// words (979 bytes made 100,000 words, 38 MB of blocks). The local engine
// refuses the page that passes a limit as it reads it, and every engine's
// result (Textract's too) is checked before it is kept: 422 naming the limit.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { type Block, textBlocks } from '../../src/analysis/blocks.ts';
import { analyzeLocally } from '../../src/analysis/engines/local.ts';
import { checkOutput } from '../../src/analysis/output-limits.ts';

const LIMITS = { maxPages: 5, maxMegapixels: 40, maxDecompressedBytes: 64 * 1024 * 1024, ocr: 'tesseract.js', maxWordsPerPage: 100, maxWords: 150, maxTextChars: 2_000 } as const;

/** A PDF whose pages hold `wordsPerPage[i]` words (each `word`) in size-1 type, in lines of 50. */
async function wordsPdf(wordsPerPage: number[], word = 'a'): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const words of wordsPerPage) {
    const page = document.addPage([595, 842]);
    for (let line = 0; line * 50 < words; line++) {
      const text = Array.from({ length: Math.min(50, words - line * 50) }, () => word).join(' ');
      page.drawText(text, { x: 10, y: 800 - line * 20, size: 1, font });
    }
  }
  return Buffer.from(await document.save());
}

const words = (blocks: Block[]) => blocks.filter((b) => b.BlockType === 'WORD').length;

describe('analysis output limits', () => {
  it('analyses a PDF within the limits', async () => {
    const blocks = await analyzeLocally(await wordsPdf([100, 50]), 'application/pdf', LIMITS);
    expect(words(blocks)).toBe(150);
  }, 60_000);

  it('refuses a page with more words than the per-page limit (422 naming it)', async () => {
    await expect(analyzeLocally(await wordsPdf([10, 101]), 'application/pdf', LIMITS)).rejects.toMatchObject({
      status: 422,
      message: 'file: page 2 has 101 words; the limit is 100 words per page (ANALYSIS_MAX_WORDS_PER_PAGE)',
    });
  }, 60_000);

  it('refuses a document with more words than the per-document limit (422 naming it)', async () => {
    await expect(analyzeLocally(await wordsPdf([100, 30, 30]), 'application/pdf', LIMITS)).rejects.toMatchObject({
      status: 422,
      message: 'file: the document has more than 150 words; the limit is 150 words per document (ANALYSIS_MAX_WORDS)',
    });
  }, 60_000);

  it('refuses a document whose words pass the characters limit, however few they are (422 naming it)', async () => {
    // 30 words of 100 characters: 3,000 characters, within the word limits (1,000-character words made 102 MB of blocks).
    await expect(analyzeLocally(await wordsPdf([10, 10, 10], 'x'.repeat(100)), 'application/pdf', LIMITS)).rejects.toMatchObject({
      status: 422,
      message: 'file: the text of the document reaches 3000 characters by page 3; the limit is 2000 characters per document (ANALYSIS_MAX_TEXT_CHARS)',
    });
    const within = await analyzeLocally(await wordsPdf([10, 10], 'x'.repeat(100)), 'application/pdf', LIMITS);
    expect(words(within)).toBe(20);
  }, 60_000);

  it('checks any engine\'s blocks (Textract\'s) by words per page, per document and blocks in all', () => {
    const page = (count: number) => ({ width: 100, height: 100, lines: [Array.from({ length: count }, () => ({ text: 'a', confidence: 99, box: { left: 1, top: 1, width: 1, height: 1 } }))] });
    const limits = { maxWordsPerPage: 100, maxWords: 150, maxTextChars: 2_000, maxBlocksBytes: 1024 * 1024 };
    expect(() => checkOutput(textBlocks([page(100), page(50)]), limits)).not.toThrow();
    expect(() => checkOutput(textBlocks([page(101)]), limits)).toThrow(expect.objectContaining({ status: 422, message: expect.stringContaining('words per page') }));
    expect(() => checkOutput(textBlocks([page(80), page(80)]), limits)).toThrow(expect.objectContaining({ status: 422, message: expect.stringContaining('words per document') }));
    const long = (count: number) => ({ ...page(count), lines: [page(count).lines[0]!.map((word) => ({ ...word, text: 'x'.repeat(100) }))] });
    expect(() => checkOutput(textBlocks([long(20)]), limits)).not.toThrow();
    expect(() => checkOutput(textBlocks([long(20), long(1)]), limits)).toThrow(
      expect.objectContaining({ status: 422, message: 'file: the text of the document reaches 2100 characters by page 2; the limit is 2000 characters per document (ANALYSIS_MAX_TEXT_CHARS)' }),
    );
    // However few words and characters, the blocks' JSON is bounded too (table cells add geometry).
    const small = textBlocks([page(10)]);
    expect(() => checkOutput(small, { ...limits, maxBlocksBytes: JSON.stringify(small).length })).not.toThrow();
    expect(() => checkOutput(small, { ...limits, maxBlocksBytes: JSON.stringify(small).length - 1 })).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringContaining('MB (ANALYSIS_MAX_BLOCKS_MB)') }),
    );
    // Blocks without words (cells, key-value sets) count too: at most 4 per word of the document limit.
    const empty = Array.from({ length: 601 }, (_, i) => ({ BlockType: 'CELL', Id: String(i), Page: 1, Geometry: textBlocks([page(1)])[0]!.Geometry }) as Block);
    expect(() => checkOutput(empty, limits)).toThrow(expect.objectContaining({ status: 422, message: 'file: the analysis has 601 blocks; the limit is 600 blocks per document (4 per word of ANALYSIS_MAX_WORDS)' }));
  });
});
