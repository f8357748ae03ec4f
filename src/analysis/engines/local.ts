import { imageSize } from 'image-size';
import { AppError } from '../../errors.ts';
import { type Block, type RecognizedPage, textBlocks } from '../blocks.ts';
import { identityFromBlocks, identityFromLines, mrzZone } from '../identity.ts';
import { addLayoutBlocks } from '../layout.ts';
import type { AnalysisEngine } from './engine.ts';
import { recognizeImage, recognizeMrz } from './ocr.ts';
import { openPdf, pageText, renderPage } from './pdf.ts';

export interface AnalysisLimits {
  maxPages: number;
  maxMegapixels: number;
}


const unprocessable = (message: string) => new AppError('UNPROCESSABLE', message);
const OCR_DPI = 300;

/**
 * The default, offline engine: the text layer of PDFs (pdf.js), OCR
 * (tesseract.js with bundled English data) for images and scanned pages;
 * identity fields from the MRZ.
 */
export function localEngine(limits: AnalysisLimits): AnalysisEngine {
  return {
    name: 'local',
    analyze: ({ data, contentType }) => analyzeLocally(data, contentType, limits),
    identify: async ({ data, contentType }) => identifyLocally(data, contentType, limits),
  };
}

/** Identity fields from the MRZ; on images the MRZ is read a second time with MRZ-only OCR. */
export async function identifyLocally(data: Buffer, contentType: string, limits: AnalysisLimits) {
  const blocks = await analyzeLocally(data, contentType, limits);
  const zone = contentType.startsWith('image/') ? mrzZone(blocks) : null;
  if (zone) {
    const { width = 0, height = 0 } = imageSize(data);
    const margin = zone.Height * height * 0.5;
    const rectangle = {
      left: Math.max(0, Math.floor(zone.Left * width - margin)),
      top: Math.max(0, Math.floor(zone.Top * height - margin)),
      width: Math.min(width, Math.ceil(zone.Width * width + 2 * margin)),
      height: Math.min(height, Math.ceil(zone.Height * height + 2 * margin)),
    };
    const reread = await recognizeMrz(data, rectangle);
    const confidence = Math.min(...blocks.filter((b) => b.BlockType === 'LINE').map((b) => b.Confidence ?? 0));
    try {
      return identityFromLines(reread.map((text) => ({ text, confidence })));
    } catch {
      // The focused read found no MRZ: fall back to the page's own lines.
    }
  }
  return identityFromBlocks(blocks);
}

export async function analyzeLocally(data: Buffer, contentType: string, limits: AnalysisLimits): Promise<Block[]> {
  if (contentType === 'application/pdf') return addLayoutBlocks(textBlocks(await pdfPages(data, limits)));
  if (contentType === 'image/heic' || contentType === 'image/heif') {
    throw unprocessable('file: HEIC/HEIF images cannot be analyzed by the local engine; convert to JPEG or PNG');
  }
  checkPixels(data, limits);
  try {
    return addLayoutBlocks(textBlocks([await recognizeImage(data)]));
  } catch (error) {
    throw unprocessable(`file: the image could not be read (${(error as Error).message})`);
  }
}

function checkPixels(image: Buffer, limits: AnalysisLimits) {
  let width = 0;
  let height = 0;
  try {
    ({ width = 0, height = 0 } = imageSize(image));
  } catch {
    throw unprocessable('file: the image is corrupt or truncated');
  }
  const megapixels = (width * height) / 1e6;
  if (megapixels > limits.maxMegapixels) {
    throw unprocessable(`file: the image has ${megapixels.toFixed(1)} megapixels; the limit is ${limits.maxMegapixels}`);
  }
}

async function pdfPages(data: Buffer, limits: AnalysisLimits): Promise<RecognizedPage[]> {
  let pdf: Awaited<ReturnType<typeof openPdf>>;
  try {
    pdf = await openPdf(data);
  } catch (error) {
    throw unprocessable(`file: the PDF could not be read (${(error as Error).message})`);
  }
  try {
    if (pdf.numPages > limits.maxPages) {
      throw unprocessable(`file: the PDF has ${pdf.numPages} pages; the limit is ${limits.maxPages}`);
    }
    const pages: RecognizedPage[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const text = await pageText(pdf, number);
      // No text layer: a scanned page, rendered and read by OCR.
      pages.push(text ?? (await recognizeImage(await renderPage(pdf, number, OCR_DPI))));
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}
