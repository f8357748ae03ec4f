import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from './pdfjs.ts';
import type { RecognizedPage, RecognizedWord } from '../blocks.ts';

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

export async function openPdf(data: Buffer) {
  return getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
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

/** A page rendered to PNG at `dpi`, for OCR of scanned pages. */
export async function renderPage(pdf: PdfDocument, pageNumber: number, dpi: number): Promise<Buffer> {
  const page = await pdf.getPage(pageNumber);
  const viewport = page.getViewport({ scale: dpi / 72 });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: context as never, viewport, canvas: canvas as never }).promise;
  return canvas.toBuffer('image/png');
}
