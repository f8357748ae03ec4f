// The local engine's limits, below the service: the resolution a large page is
// rendered at, and the measuring of compressed PDF streams that pdf.js would
// otherwise inflate in full (through every filter a bomb can hide behind).
import { imageSize } from 'image-size';
import { PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeLocally } from '../../src/analysis/engines/local.ts';
import { stopOcr } from '../../src/analysis/engines/ocr/recognize.ts';
import { openPdf, renderPage } from '../../src/analysis/engines/pdf.ts';
import { lzwSize } from '../../src/analysis/engines/pdf-filters.ts';
import { DecompressionBudget } from '../../src/analysis/engines/decompression.ts';
import { checkPdfStreams } from '../../src/analysis/engines/pdf-streams.ts';
import {
  ascii85FlateBombPdf, doubleFlateBombPdf, flateBombPdf, flateRunLengthBombPdf, hugeImagePdf, indirectFilterBombPdf, largePagePdf, lzwBombPdf, lzwZeros,
  padStreamKeywords, rewritePdf, wrongIndirectLengths,
} from '../helpers/bombs.ts';

afterAll(() => stopOcr());

const LIMITS = { maxPages: 5, maxMegapixels: 40, maxDecompressedBytes: 64 * 1024 * 1024, ocr: 'tesseract.js' } as const;

describe('page rendering', () => {
  it('renders a 3000 x 3000 pt page within the megapixel limit (151 dpi), not at 300 dpi (156 megapixels)', async () => {
    const pdf = await openPdf(await largePagePdf(3000, 3000));
    try {
      const { width = 0, height = 0 } = imageSize(await renderPage(pdf, 1, 300, 40));
      expect(width * height).toBeLessThanOrEqual(40e6);
      expect(width).toBe(Math.ceil((3000 * 151) / 72));
    } finally {
      await pdf.destroy();
    }
  }, 60_000);
});

describe('compressed streams', () => {
  it('measures LZW data as pdf.js decodes it, without decoding it', async () => {
    const data = lzwZeros(3_000_000);
    // pdf-lib's LZW decoder (a port of pdf.js's) produces the bytes; the count must match.
    const document = await PDFDocument.create();
    const stream = PDFRawStream.of(document.context.obj({ Filter: 'LZWDecode' }), data);
    const decoded = decodePDFRawStream(stream).decode();
    expect(decoded.length).toBeGreaterThanOrEqual(3_000_000);
    expect(decoded.every((byte) => byte === 0)).toBe(true);
    expect(lzwSize(data)).toBe(decoded.length);
  });

  it.each([
    ['LZW', () => lzwBombPdf(200)],
    ['ASCII85 over Flate', () => ascii85FlateBombPdf(200)],
    // pdf.js skips the whole rest of the keyword's line, however long, before the data.
    ['Flate after 300 spaces on the stream line', async () => padStreamKeywords(await flateBombPdf(200), 300)],
    ['Flate after 100,000 spaces on the stream line', async () => padStreamKeywords(await flateBombPdf(200), 100_000)],
    // Every layer of a chain is decoded within the budget and the next measured.
    ['Flate over Flate', () => doubleFlateBombPdf(200)],
    ['RunLength under Flate', () => flateRunLengthBombPdf(200)],
    ['Flate over Flate with a wrong, indirect /Length', async () => wrongIndirectLengths(await doubleFlateBombPdf(200))],
    // A long dictionary must not push /Filter out of sight.
    ['Flate over Flate, its /Filter 10,000 characters before the data', () => doubleFlateBombPdf(200, { Padding: 'x'.repeat(10_000) })],
    // Dictionaries read as pdf.js reads them: #xx escapes in names and keys, strings, keys only where keys stand.
    ['Flate named /Fl#61teDecode', async () => rewritePdf(await flateBombPdf(200), '/FlateDecode', '/Fl#61teDecode')],
    ['Flate named /F#6cateDecode (lower-case escape)', async () => rewritePdf(await flateBombPdf(200), '/FlateDecode', '/F#6cateDecode')],
    ['ASCII85 over Flate named [/A85 /Fl#61teDecode]', async () => rewritePdf(await ascii85FlateBombPdf(200), '[ /ASCII85Decode /FlateDecode ]', '[/A85 /Fl#61teDecode]')],
    ['LZW named /LZW#44ecode', async () => rewritePdf(await lzwBombPdf(200), '/LZWDecode', '/LZW#44ecode')],
    ['Flate over Flate under the key /Filt#65r', async () => rewritePdf(await doubleFlateBombPdf(200), '/Filter', '/Filt#65r')],
    ['Flate after /N /F (a value, not the key /F)', async () => rewritePdf(await flateBombPdf(200), '/Filter', '/N /F /Filter')],
    ['Flate over Flate after /Foo (stream) in its dictionary', async () => rewritePdf(await doubleFlateBombPdf(200), '/Filter', '/Foo (stream)\n/Filter')],
    ['Flate over Flate before /Foo (stream) in its dictionary', async () => rewritePdf(await doubleFlateBombPdf(200), '/Length', '/Foo (stream)\n/Length')],
    ['Flate over Flate, /Filter after a comment holding a fake one', async () => rewritePdf(await doubleFlateBombPdf(200), '/Filter', '% /Filter /Foo\n/Filter')],
  ])('refuses a PDF whose %s content stream inflates to 200 MB (422 naming the limit)', async (_filter, build) => {
    const bomb = await build();
    expect(bomb.length).toBeLessThan(400_000);
    const refusal = { status: 422, message: 'file: the PDF decompresses to more than 64 MB; the limit is 64 MB' };
    // The check made before pdf.js opens the file refuses it...
    const budget = new DecompressionBudget(LIMITS.maxDecompressedBytes, 'PDF');
    await expect(checkPdfStreams(bomb, budget, LIMITS.maxMegapixels)).rejects.toMatchObject(refusal);
    // ...and so does the analysis.
    await expect(analyzeLocally(bomb, 'application/pdf', LIMITS)).rejects.toMatchObject(refusal);
  }, 60_000);

  it('measures a chain given by reference to an object defined once: [/AHx /Fl] as 7 0 R', async () => {
    const bomb = await indirectFilterBombPdf(100, 'once');
    const budget = new DecompressionBudget(LIMITS.maxDecompressedBytes, 'PDF');
    await expect(checkPdfStreams(bomb, budget, LIMITS.maxMegapixels)).rejects.toMatchObject({
      status: 422, message: 'file: the PDF decompresses to more than 64 MB; the limit is 64 MB',
    });
  }, 60_000);

  // pdf.js finds the object through the cross-reference stream, which the check does not decode.
  it.each([
    ['stored in an object stream (numbered 99 in its header, found by index)', 'object stream', 'object 7 0, which may be stored in an object stream'],
    ['defined twice, the cross-reference pointing at the first', 'twice', 'object 7 0, which is defined 2 times'],
  ] as const)('refuses a [/AHx /Fl] bomb whose /Filter is a reference to an object %s', async (_where, where, reason) => {
    const bomb = await indirectFilterBombPdf(100, where);
    const refusal = { status: 422, message: `file: the PDF could not be checked (a stream's /Filter or /DecodeParms refers to ${reason})` };
    const budget = new DecompressionBudget(LIMITS.maxDecompressedBytes, 'PDF');
    await expect(checkPdfStreams(bomb, budget, LIMITS.maxMegapixels)).rejects.toMatchObject(refusal);
    await expect(analyzeLocally(bomb, 'application/pdf', LIMITS)).rejects.toMatchObject(refusal);
  }, 60_000);

  it('passes an ordinary PDF saved with object streams (its filters direct)', async () => {
    const document = await PDFDocument.create();
    document.addPage([595, 842]).drawText('Object streams hold this page');
    const pdf = Buffer.from(await document.save({ useObjectStreams: true }));
    expect(pdf.toString('latin1')).toContain('/ObjStm');
    await checkPdfStreams(pdf, new DecompressionBudget(LIMITS.maxDecompressedBytes, 'PDF'), LIMITS.maxMegapixels);
  });

  it('refuses an image whose declared size is written /Subtype /Im#61ge /W#69dth', async () => {
    const image = rewritePdf(rewritePdf(await hugeImagePdf(10_000, 10_000), '/Image', '/Im#61ge'), '/Width', '/W#69dth');
    const budget = new DecompressionBudget(LIMITS.maxDecompressedBytes, 'PDF');
    await expect(checkPdfStreams(image, budget, LIMITS.maxMegapixels)).rejects.toMatchObject({
      status: 422, message: 'file: an image in the PDF has 100.0 megapixels; the limit is 40',
    });
  });

  it('refuses, in bounded time, a file whose objects are read over each other (each header opening a dictionary to the end)', async () => {
    const overlapping = Buffer.from(`%PDF-1.7\n${'1 0 obj << /A '.repeat(100_000)}`, 'latin1');
    const budget = new DecompressionBudget(LIMITS.maxDecompressedBytes, 'PDF');
    await expect(checkPdfStreams(overlapping, budget, LIMITS.maxMegapixels)).rejects.toMatchObject({
      status: 422, message: expect.stringMatching(/^file: the PDF could not be checked/),
    });
  }, 30_000);

  it('passes an ordinary PDF whose streams use such chains, counting each layer', async () => {
    const small = wrongIndirectLengths(padStreamKeywords(await doubleFlateBombPdf(8), 300));
    const budget = new DecompressionBudget(LIMITS.maxDecompressedBytes, 'PDF');
    await checkPdfStreams(small, budget, LIMITS.maxMegapixels);
    // 8 MB of zeros, plus the outer layer's output (the inner deflated data).
    expect(budget.used).toBeGreaterThan(8 * 1024 * 1024);
    expect(budget.used).toBeLessThan(9 * 1024 * 1024);
  });
});
