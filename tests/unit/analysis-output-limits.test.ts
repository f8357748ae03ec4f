// How much an analysis may produce: a tiny PDF can draw a huge page of tiny
// words (979 bytes made 100,000 words, 38 MB of blocks). The local engine
// refuses the page that passes a limit as it reads it, and every engine's
// result (Textract's too) is checked before it is kept: 422 naming the limit.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { type Block, textBlocks } from '../../src/analysis/blocks.ts';
import { analyzeLocally } from '../../src/analysis/engines/local.ts';
import { checkOutput } from '../../src/analysis/output-limits.ts';

const LIMITS = { maxPages: 5, maxMegapixels: 40, maxDecompressedBytes: 64 * 1024 * 1024, ocr: 'tesseract.js', maxWordsPerPage: 100, maxWords: 150 } as const;

/** A PDF whose pages hold `wordsPerPage[i]` words in size-1 type, in lines of 50. */
async function wordsPdf(wordsPerPage: number[]): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const words of wordsPerPage) {
    const page = document.addPage([595, 842]);
    for (let line = 0; line * 50 < words; line++) {
      const text = Array.from({ length: Math.min(50, words - line * 50) }, () => 'a').join(' ');
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

  it('checks any engine\'s blocks (Textract\'s) by words per page, per document and blocks in all', () => {
    const page = (count: number) => ({ width: 100, height: 100, lines: [Array.from({ length: count }, () => ({ text: 'a', confidence: 99, box: { left: 1, top: 1, width: 1, height: 1 } }))] });
    const limits = { maxWordsPerPage: 100, maxWords: 150 };
    expect(() => checkOutput(textBlocks([page(100), page(50)]), limits)).not.toThrow();
    expect(() => checkOutput(textBlocks([page(101)]), limits)).toThrow(expect.objectContaining({ status: 422, message: expect.stringContaining('words per page') }));
    expect(() => checkOutput(textBlocks([page(80), page(80)]), limits)).toThrow(expect.objectContaining({ status: 422, message: expect.stringContaining('words per document') }));
    // Blocks without words (cells, key-value sets) count too: at most 4 per word of the document limit.
    const empty = Array.from({ length: 601 }, (_, i) => ({ BlockType: 'CELL', Id: String(i), Page: 1, Geometry: textBlocks([page(1)])[0]!.Geometry }) as Block);
    expect(() => checkOutput(empty, limits)).toThrow(expect.objectContaining({ status: 422, message: 'file: the analysis has 601 blocks; the limit is 600 blocks per document (4 per word of ANALYSIS_MAX_WORDS)' }));
  });
});
