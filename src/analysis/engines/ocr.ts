import eng from '@tesseract.js-data/eng';
import { imageSize } from 'image-size';
import { createCanvas, type Image, loadImage } from '@napi-rs/canvas';
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

/** OCR of one image (PNG, JPEG, TIFF, WebP) into lines of words with pixel boxes, upright. */
export async function recognizeImage(original: Buffer): Promise<RecognizedPage> {
  const image = await removeSpeckles(original);
  const upright = await recognizeOnce(image);
  if (wellRead(upright) >= ENOUGH_WORDS) return upright;
  // Hardly a word read well: the page may be turned. Try the other
  // orientations; a turn wins only when it reads clearly more, so sparse
  // upright pages (an MRZ, a stamp) stay as they are. Boxes then refer to
  // the turned page.
  let decoded: Image;
  try {
    decoded = await loadImage(image);
  } catch {
    return upright;
  }
  let best = upright;
  for (const degrees of [90, 180, 270] as const) {
    const turned = rotate(decoded, degrees);
    // All three are read: upside-down text yields a few confident nonsense words.
    const page = await recognizeOnce(turned);
    if (wellRead(page) >= ENOUGH_WORDS && wellRead(page) > 2 * wellRead(best)) best = page;
  }
  return best;
}

const ENOUGH_WORDS = 5;

/** Words read with confidence: at least two letters or digits, confidence 75 or more. */
function wellRead(page: RecognizedPage): number {
  return page.lines.flat().filter((w) => w.confidence >= 75 && (w.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2).length;
}

function rotate(decoded: Image, degrees: 90 | 180 | 270): Buffer {
  const quarter = degrees !== 180;
  const canvas = createCanvas(quarter ? decoded.height : decoded.width, quarter ? decoded.width : decoded.height);
  const context = canvas.getContext('2d');
  context.translate(canvas.width / 2, canvas.height / 2);
  context.rotate((degrees * Math.PI) / 180);
  context.drawImage(decoded, -decoded.width / 2, -decoded.height / 2);
  return canvas.toBuffer('image/png');
}

async function recognizeOnce(image: Buffer): Promise<RecognizedPage> {
  const { width, height } = imageSize(image);
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
