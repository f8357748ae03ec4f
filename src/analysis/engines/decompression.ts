import { constants, createBrotliDecompress, createInflate, createInflateRaw } from 'node:zlib';
import { AppError } from '../../errors.ts';

const MB = 1024 * 1024;

/** The limit when none is configured (ANALYSIS_MAX_DECOMPRESSED_MB's default). */
export const DEFAULT_MAX_DECOMPRESSED_BYTES = 256 * MB;

/**
 * How far the compressed data of one file may expand, all its streams
 * together (PDF streams, PNG image data, TIFF strips). A few hundred
 * kilobytes of deflated zeros are hundreds of megabytes inflated, which
 * pdf.js, pako or libpng would otherwise inflate in full. Data is inflated
 * here only to be measured, a chunk at a time, and not past the limit.
 */
export class DecompressionBudget {
  #used = 0;

  constructor(
    readonly limitBytes: number,
    /** What the file is, for the message: "PDF", "image". */
    private readonly what: string,
  ) {}

  get used() {
    return this.#used;
  }

  /** Counts `bytes` of decompressed data; past the limit, a 422 naming it. */
  spend(bytes: number) {
    this.#used += bytes;
    if (this.#used > this.limitBytes) {
      const limit = `${Math.round(this.limitBytes / MB)} MB`;
      throw new AppError('UNPROCESSABLE', `file: the ${this.what} decompresses to more than ${limit}; the limit is ${limit}`);
    }
  }

  /**
   * Measures zlib (`raw`: bare deflate) data by inflating it, counting what
   * comes out. Bytes after the end of the compressed data are ignored, and
   * corrupt data counts as far as it inflates (the reader fails on it later).
   */
  async measure(data: Uint8Array, raw = false): Promise<void> {
    await this.#decompress(data, raw ? 'raw' : 'zlib', false);
  }

  /**
   * Inflates `data` (zlib, or `brotli`) within the budget and returns what
   * came out, for a filter chain's next layer to be measured in turn.
   */
  async decompress(data: Uint8Array, format: 'zlib' | 'brotli'): Promise<Buffer> {
    return (await this.#decompress(data, format, true))!;
  }

  #decompress(data: Uint8Array, format: 'zlib' | 'raw' | 'brotli', keep: boolean): Promise<Buffer | null> {
    const options = { chunkSize: 64 * 1024 };
    const inflate =
      format === 'brotli'
        ? createBrotliDecompress(options)
        : (format === 'raw' ? createInflateRaw : createInflate)({ ...options, finishFlush: constants.Z_SYNC_FLUSH });
    const parts: Buffer[] = [];
    const done = () => (keep ? Buffer.concat(parts) : null);
    return new Promise((resolve, reject) => {
      inflate.on('data', (chunk: Buffer) => {
        try {
          this.spend(chunk.length);
          if (keep) parts.push(chunk);
        } catch (error) {
          inflate.destroy();
          reject(error);
        }
      });
      inflate.on('error', () => resolve(done()));
      inflate.on('close', () => resolve(done()));
      inflate.end(data);
    });
  }
}

/** Whether `data` starts with a zlib header (deflate, valid check bits): what pdf.js requires of a Flate stream. */
export function isZlib(data: Uint8Array, at = 0): boolean {
  const cmf = data[at];
  const flg = data[at + 1];
  return cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}
