import eng from '@tesseract.js-data/eng';
import { imageSize } from 'image-size';
import { createWorker, type Worker } from 'tesseract.js';
import type { RecognizedPage, RecognizedWord } from '../blocks.ts';
import { removeSpeckles } from './denoise.ts';

let worker: Promise<Worker> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** One tesseract.js worker per process, English data from the npm package (no download). */
function getWorker(): Promise<Worker> {
  worker ??= createWorker('eng', 1, { langPath: eng.langPath, gzip: true, cacheMethod: 'none' });
  return worker;
}

/** OCR of one image (PNG, JPEG, TIFF, WebP) into lines of words with pixel boxes. */
export async function recognizeImage(original: Buffer): Promise<RecognizedPage> {
  const { width, height } = imageSize(original);
  const image = await removeSpeckles(original);
  // The worker handles one image at a time; queue callers instead of failing.
  const run = queue.then(async () => (await getWorker()).recognize(image, {}, { blocks: true }));
  queue = run.catch(() => {});
  const { data } = await run;
  const lines: RecognizedWord[][] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        lines.push(
          line.words.map((word) => ({
            text: word.text,
            confidence: word.confidence,
            box: { left: word.bbox.x0, top: word.bbox.y0, width: word.bbox.x1 - word.bbox.x0, height: word.bbox.y1 - word.bbox.y0 },
          })),
        );
      }
    }
  }
  return { width: width ?? 1, height: height ?? 1, lines };
}

const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/**
 * Re-reads a machine-readable zone (pixel rectangle) with OCR limited to the
 * MRZ alphabet, which removes most letter/digit confusions of a general read.
 */
export async function recognizeMrz(image: Buffer, rectangle: { left: number; top: number; width: number; height: number }): Promise<string[]> {
  const run = queue.then(async () => {
    const ocr = await getWorker();
    await ocr.setParameters({ tessedit_char_whitelist: MRZ_ALPHABET });
    try {
      return await ocr.recognize(image, { rectangle });
    } finally {
      await ocr.setParameters({ tessedit_char_whitelist: '' });
    }
  });
  queue = run.catch(() => {});
  const { data } = await run;
  return data.text.split('\n').map((line) => line.trim()).filter(Boolean);
}

export async function stopOcr() {
  const current = worker;
  worker = undefined;
  if (current) await (await current).terminate();
}
