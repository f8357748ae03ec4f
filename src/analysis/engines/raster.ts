import { createCanvas, type Image, loadImage } from '@napi-rs/canvas';
import { imageSize } from 'image-size';
import UTIF from 'utif2';
import { AppError } from '../../errors.ts';
import type { PixelRectangle, QuarterTurn } from './ocr/backend.ts';

const unprocessable = (message: string) => new AppError('UNPROCESSABLE', message);

export interface RasterLimits {
  maxPages: number;
  maxMegapixels: number;
}

/**
 * The pages of an image file as images the OCR programs read: TIFF pages
 * (faxes and scanners write multi-page TIFF) decoded to PNG, anything else
 * as it is. Page-count and pixel limits are checked before decoding.
 */
export function imagePages(data: Buffer, contentType: string, limits: RasterLimits): Buffer[] {
  if (contentType !== 'image/tiff') {
    let size;
    try {
      size = imageSize(data);
    } catch {
      throw unprocessable('file: the image is corrupt or truncated');
    }
    checkPixels(size.width ?? 0, size.height ?? 0, limits);
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
  return pages.map((ifd) => {
    checkPixels(Number((ifd.t256 as number[])?.[0] ?? 0), Number((ifd.t257 as number[])?.[0] ?? 0), limits);
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
