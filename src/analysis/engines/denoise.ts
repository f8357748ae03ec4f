import { createCanvas, loadImage } from '@napi-rs/canvas';

const DARK = 128;

/**
 * Salt-and-pepper noise (specks from scanners and faxes) ruins OCR. When an
 * image has many isolated dark specks, a 3×3 median filter removes them while
 * keeping strokes wider than a couple of pixels. Images without such noise are
 * returned untouched. TIFF (not decodable here) is returned as it is.
 */
export async function removeSpeckles(image: Buffer): Promise<Buffer> {
  let decoded;
  try {
    decoded = await loadImage(image);
  } catch {
    return image;
  }
  const { width, height } = decoded;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.drawImage(decoded, 0, 0);
  const pixels = context.getImageData(0, 0, width, height);
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) {
    const o = i * 4;
    gray[i] = (pixels.data[o]! * 299 + pixels.data[o + 1]! * 587 + pixels.data[o + 2]! * 114) / 1000;
  }
  // Clean pages measure ~0 (low-dpi text ~0.015); speckled scans ~0.1 and up.
  if (speckleShare(gray, width, height) < 0.05) return image;
  const out = new Uint8Array(gray.length);
  const window = new Uint8Array(9);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      let k = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) window[k++] = gray[(y + dy) * width + x + dx]!;
      window.sort();
      out[y * width + x] = window[4]!;
    }
  }
  for (let i = 0; i < gray.length; i++) {
    const o = i * 4;
    pixels.data[o] = pixels.data[o + 1] = pixels.data[o + 2] = out[i]!;
    pixels.data[o + 3] = 255;
  }
  context.putImageData(pixels, 0, 0);
  return canvas.toBuffer('image/png');
}

/** Share of dark pixels (sampled) that have at most 3 dark neighbours: specks rather than strokes. */
export function speckleShare(gray: Uint8Array, width: number, height: number): number {
  let dark = 0;
  let isolated = 0;
  for (let y = 2; y < height - 2; y += 3) {
    for (let x = 2; x < width - 2; x++) {
      if (gray[y * width + x]! >= DARK) continue;
      dark++;
      let neighbours = 0;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) if ((dx || dy) && gray[(y + dy) * width + x + dx]! < DARK) neighbours++;
      if (neighbours <= 3) isolated++;
    }
  }
  return dark ? isolated / dark : 0;
}
