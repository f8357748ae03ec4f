import { type Image, loadImage } from '@napi-rs/canvas';
import type { RecognizedPage } from '../../blocks.ts';
import { removeSpeckles } from '../denoise.ts';
import { turn } from '../raster.ts';
import type { OcrBackend, OcrBackendName, QuarterTurn } from './backend.ts';
import { tesseractCli } from './tesseract-cli.ts';
import { tesseractJs } from './tesseract-js.ts';

const backends = new Map<OcrBackendName, OcrBackend>();

/** The process's backend of that name (each keeps a worker or checks its program once). */
export function ocrBackend(name: OcrBackendName): OcrBackend {
  if (!backends.has(name)) backends.set(name, name === 'tesseract' ? tesseractCli() : tesseractJs());
  return backends.get(name)!;
}

export async function stopOcr() {
  const running = [...backends.values()];
  backends.clear();
  await Promise.all(running.map((backend) => backend.stop()));
}

export interface ReadImage {
  page: RecognizedPage;
  /** The image the words' boxes refer to: cleaned, and turned upright if it was turned. */
  image: Buffer;
}

/** OCR of one page image (PNG, JPEG, WebP) into lines of words with pixel boxes, upright. */
export async function recognizeImage(original: Buffer, ocr: OcrBackend): Promise<ReadImage> {
  const image = await removeSpeckles(original);
  const upright = { page: await ocr.read(image), image };
  if (!mayBeTurned(upright.page)) return upright;
  let decoded: Image;
  try {
    decoded = await loadImage(image);
  } catch {
    return upright;
  }
  // Orientation detection when the backend has it; else each turn is tried
  // (all three: upside-down text yields a few confident nonsense words).
  const turns = ocr.uprightTurn ? [await ocr.uprightTurn(image)].filter((t): t is QuarterTurn => Boolean(t)) : ([90, 180, 270] as const);
  let best = upright;
  for (const degrees of turns) {
    const turned = turn(decoded, degrees);
    const page = await ocr.read(turned);
    // A turn wins only when it reads clearly better, so that sparse upright
    // pages (an MRZ, a stamp) stay as they are. Boxes then refer to the turned page.
    if (wellRead(page).length >= ENOUGH_WORDS && score(page) > 2 * score(best.page)) best = { page, image: turned };
  }
  return best;
}

const ENOUGH_WORDS = 5;

/** Words read with confidence: at least two letters or digits, confidence 75 or more. */
function wellRead(page: RecognizedPage) {
  return page.lines.flat().filter((w) => w.confidence >= 75 && (w.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2);
}

/** Share of words of 3+ characters whose box is taller than wide: text read down the page, which is sideways. */
function verticalShare(page: RecognizedPage): number {
  const long = page.lines.flat().filter((w) => w.text.length >= 3);
  return long.length ? long.filter((w) => w.box.height > w.box.width).length / long.length : 0;
}

const score = (page: RecognizedPage) => wellRead(page).length * (1 - verticalShare(page));

/**
 * Signs of a turned page: few words read well, most words read poorly
 * (upside-down text), or words running down the page (sideways text, which
 * the tesseract program reads but with useless geometry).
 */
function mayBeTurned(page: RecognizedPage): boolean {
  const words = page.lines.flat().length;
  const good = wellRead(page).length;
  return good < ENOUGH_WORDS || good / words < 0.5 || verticalShare(page) >= 0.4;
}
