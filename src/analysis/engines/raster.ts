import { createCanvas, type Image, loadImage } from '@napi-rs/canvas';
import { imageSize } from 'image-size';
import UTIF from 'utif2';
import { AppError } from '../../errors.ts';
import { DecompressionBudget, DEFAULT_MAX_DECOMPRESSED_BYTES } from './decompression.ts';
import type { PixelRectangle, QuarterTurn } from './ocr/backend.ts';

const unprocessable = (message: string) => new AppError('UNPROCESSABLE', message);

export interface RasterLimits {
  maxPages: number;
  maxMegapixels: number;
  /** How far a file's compressed data may expand (see DecompressionBudget); default DEFAULT_MAX_DECOMPRESSED_BYTES. */
  maxDecompressedBytes?: number;
}

/**
 * The pages of an image file as images the OCR programs read: TIFF pages
 * (faxes and scanners write multi-page TIFF) decoded to PNG, anything else
 * as it is. Page-count, pixel and decompression limits are checked before decoding.
 */
export async function imagePages(data: Buffer, contentType: string, limits: RasterLimits): Promise<Buffer[]> {
  const budget = new DecompressionBudget(limits.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES, 'image');
  if (contentType !== 'image/tiff') {
    let size;
    try {
      size = imageSize(data);
    } catch {
      throw unprocessable('file: the image is corrupt or truncated');
    }
    checkPixels(size.width ?? 0, size.height ?? 0, limits);
    // Decoders stop at the pixels the header declares, but inflate all of a PNG's data on the way.
    if (size.type === 'png') await budget.measure(pngImageData(data));
    return [data];
  }
  let pages: UTIF.IFD[];
  try {
    // Reduced-resolution copies (NewSubfileType bit 0) are thumbnails, not pages.
    pages = UTIF.decode(data).filter((ifd) => !((Number((ifd.t254 as number[] | undefined)?.[0] ?? 0) & 1)));
  } catch {
    throw unprocessable('file: the TIFF image is corrupt or truncated');
  }
  if (pages.length === 0) throw unprocessable('file: the TIFF image has no pages');
  if (pages.length > limits.maxPages) throw unprocessable(`file: the TIFF image has ${pages.length} pages; the limit is ${limits.maxPages}`);
  for (const ifd of pages) {
    checkPixels(tag(ifd, 't256'), tag(ifd, 't257'), limits);
    // A tile is decoded into a buffer of its own declared size.
    if (ifd.t322) checkPixels(tag(ifd, 't322'), tag(ifd, 't323'), limits);
    await measureDeflateStrips(data, ifd, budget);
  }
  return pages.map((ifd) => {
    try {
      UTIF.decodeImage(data, ifd);
      const rgba = UTIF.toRGBA8(ifd);
      const canvas = createCanvas(ifd.width, ifd.height);
      const context = canvas.getContext('2d');
      const pixels = context.createImageData(ifd.width, ifd.height);
      pixels.data.set(rgba);
      context.putImageData(pixels, 0, 0);
      return canvas.toBuffer('image/png');
    } catch {
      throw unprocessable('file: a page of the TIFF image could not be decoded');
    }
  });
}

const tag = (ifd: UTIF.IFD, name: string) => Number((ifd[name] as number[] | undefined)?.[0] ?? 0);

/** The zlib stream of a PNG: its IDAT chunks' data, in order. */
function pngImageData(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return Buffer.concat(parts);
}

/**
 * Deflate strips and tiles of a TIFF page, measured as UTIF will inflate
 * them (in full, whatever the page's size): bare deflate after the 2-byte header.
 */
async function measureDeflateStrips(data: Buffer, ifd: UTIF.IFD, budget: DecompressionBudget) {
  const compression = tag(ifd, 't259');
  if (compression !== 8 && compression !== 32946) return;
  const tiled = Boolean(ifd.t322);
  const offsets = (ifd[tiled ? 't324' : 't273'] ?? ifd.t273 ?? []) as number[];
  const counts = (ifd[tiled ? 't325' : 't279'] ?? ifd.t279 ?? []) as number[];
  for (let i = 0; i < offsets.length; i++) {
    const offset = Number(offsets[i]);
    const length = Number(counts[i] ?? 0);
    if (!(offset >= 0 && length > 6 && offset + length <= data.length)) continue;
    await budget.measure(data.subarray(offset + 2, offset + length - 4), true);
  }
}

function checkPixels(width: number, height: number, limits: RasterLimits) {
  const megapixels = (width * height) / 1e6;
  if (megapixels > limits.maxMegapixels) {
    throw unprocessable(`file: the image has ${megapixels.toFixed(1)} megapixels; the limit is ${limits.maxMegapixels}`);
  }
}

/** The image turned clockwise by a quarter-turn multiple, as PNG. */
export function turn(decoded: Image, degrees: QuarterTurn): Buffer {
  const quarter = degrees === 90 || degrees === 270;
  const canvas = createCanvas(quarter ? decoded.height : decoded.width, quarter ? decoded.width : decoded.height);
  const context = canvas.getContext('2d');
  context.translate(canvas.width / 2, canvas.height / 2);
  context.rotate((degrees * Math.PI) / 180);
  context.drawImage(decoded, -decoded.width / 2, -decoded.height / 2);
  return canvas.toBuffer('image/png');
}

/** A pixel rectangle of the image, as PNG. */
export async function crop(image: Buffer, rectangle: PixelRectangle): Promise<Buffer> {
  const decoded = await loadImage(image);
  const canvas = createCanvas(rectangle.width, rectangle.height);
  canvas.getContext('2d').drawImage(decoded, -rectangle.left, -rectangle.top);
  return canvas.toBuffer('image/png');
}
