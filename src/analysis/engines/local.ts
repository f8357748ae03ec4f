import { imageSize } from 'image-size';
import { AppError } from '../../errors.ts';
import { type Block, type RecognizedPage, textBlocks } from '../blocks.ts';
import { identityFromBlocks, identityFromLines, type IdentityResult, mrzZone } from '../identity.ts';
import { addLayoutBlocks, type PageRules } from '../layout.ts';
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits, WordCount } from '../output-limits.ts';
import type { OcrBackendName } from './ocr/backend.ts';
import { ocrBackend, type ReadImage, recognizeImage } from './ocr/recognize.ts';
import { DecompressionBudget, DEFAULT_MAX_DECOMPRESSED_BYTES } from './decompression.ts';
import { openPdf, pageText, renderPage } from './pdf.ts';
import { checkPdfStreams } from './pdf-streams.ts';
import { pageRules, type Rule } from './pdf-rules.ts';
import { imagePages, type RasterLimits } from './raster.ts';

export interface LocalEngineOptions extends RasterLimits, Partial<OutputLimits> {
  ocr: OcrBackendName;
}

const wordCount = (options: LocalEngineOptions) =>
  new WordCount({
    maxWordsPerPage: options.maxWordsPerPage ?? DEFAULT_OUTPUT_LIMITS.maxWordsPerPage,
    maxWords: options.maxWords ?? DEFAULT_OUTPUT_LIMITS.maxWords,
    maxTextChars: options.maxTextChars ?? DEFAULT_OUTPUT_LIMITS.maxTextChars,
  });
/** Adds a page's words and their characters to the count (which refuses past a limit). */
const count = (words: WordCount, number: number, page: RecognizedPage) =>
  words.add(
    number,
    page.lines.reduce((sum, line) => sum + line.length, 0),
    page.lines.reduce((sum, line) => line.reduce((chars, word) => chars + word.text.length, sum), 0),
  );

const unprocessable = (message: string) => new AppError('UNPROCESSABLE', message);
const OCR_DPI = 300;

/** A page as analysed: its words, the image OCR read (none for a PDF text layer), ruling lines of a PDF. */
interface AnalysedPage {
  page: RecognizedPage;
  image?: Buffer;
  rules?: Rule[];
}

function layout(pages: AnalysedPage[]): Block[] {
  const rulesByPage = new Map<number, PageRules>();
  pages.forEach(({ page, rules }, i) => rules && rulesByPage.set(i + 1, { width: page.width, height: page.height, rules }));
  return addLayoutBlocks(textBlocks(pages.map((p) => p.page)), rulesByPage);
}

/**
 * The default, offline engine: the text layer of PDFs (pdf.js), OCR
 * (Debian's tesseract when installed, else tesseract.js) for images and
 * scanned pages; identity fields from the MRZ.
 */
export async function analyzeLocally(data: Buffer, contentType: string, options: LocalEngineOptions): Promise<Block[]> {
  return layout(await readPages(data, contentType, options));
}

/** Identity fields from the MRZ of the first page; on images the MRZ is read a second time with MRZ-only OCR. */
export async function identifyLocally(data: Buffer, contentType: string, options: LocalEngineOptions) {
  const pages = await readPages(data, contentType, options);
  const blocks = layout(pages);
  const first = pages[0];
  const zone = first?.image ? mrzZone(blocks.filter((b) => b.Page === 1)) : null;
  if (first?.image && zone) {
    const { width = 0, height = 0 } = imageSize(first.image);
    const margin = zone.Height * height * 0.5;
    const left = Math.max(0, Math.floor(zone.Left * width - margin));
    const top = Math.max(0, Math.floor(zone.Top * height - margin));
    const rectangle = {
      left,
      top,
      width: Math.min(width - left, Math.ceil(zone.Width * width + 2 * margin)),
      height: Math.min(height - top, Math.ceil(zone.Height * height + 2 * margin)),
    };
    const reread = await ocrBackend(options.ocr).readMrz(first.image, rectangle);
    const confidence = Math.min(...blocks.filter((b) => b.BlockType === 'LINE' && b.Page === 1).map((b) => b.Confidence ?? 0));
    let focused: IdentityResult | null = null;
    try {
      focused = identityFromLines(reread.map((text) => ({ text, confidence })));
    } catch {
      // The focused read found no MRZ: the page's own lines decide.
    }
    if (focused?.mrz.valid) return focused;
    // Two reads of the zone rarely fail at the same character: keep the one whose check digits hold best.
    let page: IdentityResult;
    try {
      page = identityFromBlocks(blocks);
    } catch (error) {
      if (focused) return focused;
      throw error;
    }
    return focused && heldCheckDigits(focused) >= heldCheckDigits(page) ? focused : page;
  }
  return identityFromBlocks(blocks);
}

const heldCheckDigits = (identity: IdentityResult) => Object.values(identity.mrz.checkDigits).filter((held) => held === true).length;

async function readPages(data: Buffer, contentType: string, options: LocalEngineOptions): Promise<AnalysedPage[]> {
  if (contentType === 'application/pdf') return pdfPages(data, options);
  if (contentType === 'image/heic' || contentType === 'image/heif') {
    throw unprocessable('file: HEIC/HEIF images cannot be analyzed by the local engine; convert to JPEG or PNG');
  }
  const pages: ReadImage[] = [];
  const words = wordCount(options);
  for (const image of await imagePages(data, contentType, options)) {
    try {
      pages.push(await recognizeImage(image, ocrBackend(options.ocr)));
    } catch (error) {
      throw unprocessable(`file: the image could not be read (${(error as Error).message})`);
    }
    count(words, pages.length, pages.at(-1)!.page);
  }
  return pages;
}

async function pdfPages(data: Buffer, options: LocalEngineOptions): Promise<AnalysedPage[]> {
  await checkPdfStreams(data, new DecompressionBudget(options.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES, 'PDF'), options.maxMegapixels);
  let pdf: Awaited<ReturnType<typeof openPdf>>;
  try {
    pdf = await openPdf(data, options.maxMegapixels);
  } catch (error) {
    throw unprocessable(`file: the PDF could not be read (${(error as Error).message})`);
  }
  try {
    if (pdf.numPages > options.maxPages) {
      throw unprocessable(`file: the PDF has ${pdf.numPages} pages; the limit is ${options.maxPages}`);
    }
    const pages: AnalysedPage[] = [];
    const words = wordCount(options);
    for (let number = 1; number <= pdf.numPages; number++) {
      const text = await pageText(pdf, number);
      // Refused as soon as the text layer shows too many words, before its rules or layout.
      if (text) count(words, number, text);
      // No text layer: a scanned page, rendered and read by OCR.
      const page = text ? { page: text, rules: await pageRules(pdf, number) } : await recognizeImage(await renderPage(pdf, number, OCR_DPI, options.maxMegapixels), ocrBackend(options.ocr));
      if (!text) count(words, number, page.page);
      pages.push(page);
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}
