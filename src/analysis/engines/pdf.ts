import { createCanvas } from '@napi-rs/canvas';
import { AppError } from '../../errors.ts';
import { getDocument } from './pdfjs.ts';
import type { RecognizedPage, RecognizedWord } from '../blocks.ts';

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

/** Opens a PDF; images over `maxMegapixels` are left out of rendering (checkPdfStreams refuses those it can see first). */
export async function openPdf(data: Buffer, maxMegapixels = 40) {
  const maxImageSize = Math.floor(maxMegapixels * 1e6);
  return getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false, verbosity: 0, maxImageSize }).promise;
}

export type PdfDocument = Awaited<ReturnType<typeof openPdf>>;

/** Words of a text item, with widths shared out by character count. */
function itemWords(item: TextItem, pageHeight: number): RecognizedWord[] {
  const [, , , , x = 0, y = 0] = item.transform;
  const height = item.height || Math.abs(item.transform[3] ?? 0);
  const top = pageHeight - y - height;
  const perChar = item.str.length ? item.width / item.str.length : 0;
  const words: RecognizedWord[] = [];
  for (const match of item.str.matchAll(/\S+/g)) {
    const offset = match.index ?? 0;
    words.push({
      text: match[0],
      confidence: 99,
      box: { left: x + offset * perChar, top, width: match[0].length * perChar, height },
    });
  }
  return words;
}

/**
 * The text layer of a PDF page as lines of words (PDF points, origin top
 * left): items on the same baseline form a line. Null when the page has no
 * text layer (a scan).
 */
export async function pageText(pdf: PdfDocument, pageNumber: number): Promise<RecognizedPage | null> {
  const page = await pdf.getPage(pageNumber);
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const words = (content.items as TextItem[]).filter((item) => 'str' in item).flatMap((item) => itemWords(item, viewport.height));
  if (words.length === 0) return null;
  words.sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
  const lines: RecognizedWord[][] = [];
  for (const word of words) {
    const line = lines.at(-1);
    const anchor = line?.[0];
    // Same line when the vertical centres are within half a word height.
    if (anchor && Math.abs(anchor.box.top + anchor.box.height / 2 - (word.box.top + word.box.height / 2)) < anchor.box.height / 2) {
      line.push(word);
    } else {
      lines.push([word]);
    }
  }
  for (const line of lines) line.sort((a, b) => a.box.left - b.box.left);
  return { width: viewport.width, height: viewport.height, lines };
}

/** The lowest resolution a page is rendered at for OCR: below it, body text is too small to read. */
export const MIN_OCR_DPI = 100;

/**
 * The resolution a page is rendered at: `dpi`, or less for a page so large
 * that it would exceed `maxMegapixels` (a poster-sized page at 300 dpi is
 * hundreds of megapixels). A page that would exceed the limit even at
 * MIN_OCR_DPI is refused.
 */
export function renderDpi(widthPt: number, heightPt: number, dpi: number, maxMegapixels: number): number {
  const megapixelsAt = (at: number) => (widthPt * at / 72) * (heightPt * at / 72) / 1e6;
  if (megapixelsAt(dpi) <= maxMegapixels) return dpi;
  const fitting = Math.floor(dpi * Math.sqrt(maxMegapixels / megapixelsAt(dpi)));
  if (fitting < MIN_OCR_DPI) {
    throw new AppError(
      'UNPROCESSABLE',
      `file: a page of ${Math.round(widthPt)} x ${Math.round(heightPt)} pt is ${megapixelsAt(MIN_OCR_DPI).toFixed(1)} megapixels even at ${MIN_OCR_DPI} dpi; the limit is ${maxMegapixels} megapixels`,
    );
  }
  return fitting;
}

/** A page rendered to PNG at `dpi`, or lower to stay within `maxMegapixels` (see renderDpi), for OCR of scanned pages. */
export async function renderPage(pdf: PdfDocument, pageNumber: number, dpi: number, maxMegapixels: number): Promise<Buffer> {
  const page = await pdf.getPage(pageNumber);
  const size = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: renderDpi(size.width, size.height, dpi, maxMegapixels) / 72 });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: context as never, viewport, canvas: canvas as never }).promise;
  return canvas.toBuffer('image/png');
}
