import type { RecognizedPage } from '../../blocks.ts';

export type QuarterTurn = 0 | 90 | 180 | 270;

export interface PixelRectangle {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** One OCR program behind the local engine. Images are PNG, JPEG or WebP bytes. */
export interface OcrBackend {
  name: OcrBackendName;
  /** Lines of words with pixel boxes, in reading order. */
  read(image: Buffer): Promise<RecognizedPage>;
  /** Text lines of a machine-readable zone, read with the MRZ alphabet only. */
  readMrz(image: Buffer, rectangle: PixelRectangle): Promise<string[]>;
  /**
   * The clockwise turn that makes the page upright, when the backend can
   * detect orientation (null: it cannot tell, or the page has too little text).
   */
  uprightTurn?(image: Buffer): Promise<QuarterTurn | null>;
  stop(): Promise<void>;
}

export type OcrBackendName = 'tesseract' | 'tesseract.js';

export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
