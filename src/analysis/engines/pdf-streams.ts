import { AppError } from '../../errors.ts';
import { type DecompressionBudget, isZlib } from './decompression.ts';
import { type FilterLayer, measureFilterChain } from './pdf-filters.ts';
import { type PdfDict, PdfName, PdfRef, type PdfValue, readObject } from './pdf-syntax.ts';

/** An indirect object's header `n g obj` (obj a whole keyword, as pdf.js's lexer reads it). */
const OBJECT_HEADER = /(?<!\d)(\d+)\s+(\d+)\s+obj(?![^\s()<>[\]{}/%])/g;

/** A stream found in the file: its dictionary and where its data lies. */
type FoundStream = { dictionary: PdfDict; start: number; end: number };

/**
 * Checks a PDF's streams before pdf.js opens it: how far they decompress
 * through their whole /Filter chain (each layer decoded within the budget,
 * the next measured in turn; a zlib stream whose filters could not be
 * measured is measured as zlib), and the declared size of its images. Every
 * indirect object (every `n g obj` in the file, wherever it stands, as pdf.js
 * may be pointed at any of them) is read as pdf.js's parser reads it
 * (src/analysis/engines/pdf-syntax.ts: #xx escapes decoded, strings and
 * comments skipped, references followed), rather than by a PDF library that
 * would inflate object streams in full to find the rest. Each stream's data is
 * found as pdf.js finds it (the keyword's line skipped whatever it holds;
 * /Length, direct or indirect, where `endstream` follows it, else up to
 * `endstream`). Object streams are not read (pdf.js finds an object in one
 * by its index in the cross-reference stream, which this check does not
 * decode): a /Filter or /DecodeParms given by reference is followed only when
 * its object is certain (see PdfFile.certain), else the file is refused.
 * A file built to slip past this (an encrypted one, whose
 * streams cannot be read here) is still bounded by the worker's memory limit
 * and the analysis time limit. Linear in the file's size: objects read over
 * each other (headers inside other objects) count against a work limit.
 */
export async function checkPdfStreams(data: Buffer, budget: DecompressionBudget, maxMegapixels: number) {
  const file = new PdfFile(data.toString('latin1'));
  const streams: FoundStream[] = [];
  file.readAll((stream) => streams.push(stream));
  // pdf.js takes as an object stream any stream the cross-reference points to that has /N and /First (its /Type unchecked).
  file.hasObjectStreams = streams.some(({ dictionary }) => dictionary.has('N') && dictionary.has('First'));
  for (const { dictionary, start, end } of streams) {
    checkImageSize(dictionary, file, maxMegapixels);
    const bytes = data.subarray(start, end);
    const filters = filterChain(dictionary, file);
    const measured = filters.length > 0 && (await measureFilterChain(bytes, filters, budget));
    if (!measured && isZlib(bytes)) await budget.measure(bytes);
  }
}

/** A stream's filters in order, each with its EarlyChange, as pdf.js reads them (dict.get("F", "Filter"), references followed); a value that is not a name ends the chain. */
function filterChain(dictionary: PdfDict, file: PdfFile): FilterLayer[] {
  const filter = file.certain(dictionary.has('F') ? dictionary.get('F') : dictionary.get('Filter'));
  const params = file.certain(dictionary.has('DP') ? dictionary.get('DP') : dictionary.get('DecodeParms'));
  if (filter instanceof PdfName) return [{ name: filter.name, earlyChange: earlyChange(params, file) }];
  if (!Array.isArray(filter)) return [];
  const layers: FilterLayer[] = [];
  for (const [index, entry] of filter.entries()) {
    const name = file.certain(entry);
    if (!(name instanceof PdfName)) break;
    // pdf.js: with an array of filters, only an array of parameters applies.
    layers.push({ name: name.name, earlyChange: earlyChange(Array.isArray(params) ? file.certain(params[index]) : null, file) });
  }
  return layers;
}

function earlyChange(params: PdfValue | undefined, file: PdfFile): 0 | 1 {
  return params instanceof Map && file.certain(params.get('EarlyChange')) === 0 ? 0 : 1;
}

/** How much reading objects may cost, past the file's own size (objects read over each other). */
const WORK_PER_BYTE = 4;
const WORK_FLOOR = 1024 * 1024;

/** The file's indirect objects, read on demand; references resolved (the last definition wins, as in an incrementally updated file). */
class PdfFile {
  readonly #text: string;
  readonly #starts = new Map<string, number>();
  /** How many times each object number is defined (`n g obj` headers, wherever they stand, any generation). */
  readonly #definitions = new Map<string, number>();
  /** Whether a stream could serve pdf.js as an object stream, where any object may be found instead. */
  hasObjectStreams = false;
  readonly #resolved = new Map<string, PdfValue>();
  #work = 0;
  readonly #maxWork: number;

  constructor(text: string) {
    this.#text = text;
    this.#maxWork = WORK_PER_BYTE * text.length + WORK_FLOOR;
    for (const match of text.matchAll(OBJECT_HEADER)) {
      const key = `${match[1]} ${match[2]}`;
      this.#starts.set(key, match.index + match[0].length);
      this.#definitions.set(match[1]!, (this.#definitions.get(match[1]!) ?? 0) + 1);
    }
  }

  /** Reads every object after every header, handing each stream found to `found`. */
  readAll(found: (stream: FoundStream) => void) {
    for (const match of this.#text.matchAll(OBJECT_HEADER)) this.#read(match.index + match[0].length, found);
  }

  /** `value`, or what a reference points to (one level, as pdf.js's Dict.get). */
  value(value: PdfValue | undefined): PdfValue | undefined {
    if (!(value instanceof PdfRef)) return value;
    if (this.#resolved.has(value.key)) return this.#resolved.get(value.key);
    const start = this.#starts.get(value.key);
    // Marked first: a stream whose /Length points to itself reads as no length.
    this.#resolved.set(value.key, null);
    const resolved = start === undefined ? null : this.#read(start, () => {});
    this.#resolved.set(value.key, resolved);
    return resolved;
  }

  /**
   * `value`, a reference followed only where the object pdf.js reads is
   * certain: defined once in the file and no object stream that could hold it
   * instead (pdf.js locates objects through the cross-reference, which may
   * point into an object stream, or at any one of several definitions).
   * Else refused: a filter the check cannot see is one it cannot measure.
   */
  certain(value: PdfValue | undefined): PdfValue | undefined {
    if (!(value instanceof PdfRef)) return value;
    const definitions = this.#definitions.get(value.key.split(' ')[0]!) ?? 0;
    if (definitions > 1 || this.hasObjectStreams) {
      const where = definitions > 1 ? `is defined ${definitions} times` : 'may be stored in an object stream';
      throw new AppError('UNPROCESSABLE', `file: the PDF could not be checked (a stream's /Filter or /DecodeParms refers to object ${value.key}, which ${where})`);
    }
    return this.value(value);
  }

  #read(start: number, found: (stream: FoundStream) => void): PdfValue {
    const { value, end } = readObject(this.#text, start, (dictionary, keywordEnd) => {
      const dataStart = this.#dataStart(keywordEnd);
      if (dataStart === null) return this.#text.length;
      const dataEnd = this.#dataEnd(dataStart, this.value(dictionary.get('Length')));
      found({ dictionary, start: dataStart, end: dataEnd });
      return dataEnd;
    });
    this.#work += end - start;
    if (this.#work > this.#maxWork) {
      throw new AppError('UNPROCESSABLE', 'file: the PDF could not be checked (its objects overlap each other far more than a PDF\'s do)');
    }
    return value;
  }

  /** Where a stream's data starts: after the end of the keyword's line, whatever the line holds (pdf.js's skipToNextLine). */
  #dataStart(keywordEnd: number): number | null {
    NEWLINE.lastIndex = keywordEnd;
    const newline = NEWLINE.exec(this.#text)?.index;
    if (newline === undefined) return null;
    return newline + (this.#text.startsWith('\r\n', newline) ? 2 : 1);
  }

  /** Where a stream's data ends, as pdf.js decides: at /Length if `endstream` follows it, else at the next `endstream` (else the file's end). */
  #dataEnd(start: number, length: PdfValue | undefined): number {
    const text = this.#text;
    if (typeof length === 'number' && Number.isInteger(length) && length >= 0 && /^\s*endstream/.test(text.slice(start + length, start + length + 64))) {
      return start + length;
    }
    const endstream = text.indexOf('endstream', start);
    return endstream < 0 ? text.length : endstream;
  }
}

const NEWLINE = /\r|\n/g;

function checkImageSize(dictionary: PdfDict, file: PdfFile, maxMegapixels: number) {
  const subtype = file.value(dictionary.get('Subtype'));
  if (!(subtype instanceof PdfName) || subtype.name !== 'Image') return;
  const dimension = (key: string) => {
    const value = file.value(dictionary.get(key));
    return typeof value === 'number' && value > 0 ? value : 0;
  };
  const megapixels = (dimension('Width') * dimension('Height')) / 1e6;
  if (megapixels > maxMegapixels) {
    throw new AppError('UNPROCESSABLE', `file: an image in the PDF has ${megapixels.toFixed(1)} megapixels; the limit is ${maxMegapixels}`);
  }
}
