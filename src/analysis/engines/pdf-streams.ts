import { AppError } from '../../errors.ts';
import { type DecompressionBudget, isZlib } from './decompression.ts';
import { type FilterLayer, measureFilterChain } from './pdf-filters.ts';

/**
 * The keywords that bound a stream's dictionary, in file order: a stream's
 * dictionary is what lies between the previous one and its `stream` keyword
 * (however long: a window would let padding push /Filter out of sight).
 */
const BOUNDARY = /endobj|endstream|obj|stream/g;

/**
 * Checks a PDF's streams before pdf.js opens it: how far they decompress
 * through their whole /Filter chain (each layer decoded within the budget,
 * the next measured in turn; a zlib stream without a readable filter is
 * measured too), and the declared size of its images. Read from the bytes
 * themselves rather than through a PDF parser, which would inflate object
 * streams in full to find the rest. Each stream's data is found as pdf.js
 * finds it (the keyword's line skipped whatever it holds; /Length, direct or
 * indirect, where `endstream` follows it, else up to `endstream`). A file
 * built to slip past this (an encrypted one, whose streams cannot be read
 * here) is still bounded by the worker's memory limit and the analysis time
 * limit. Linear in the file's size: every search moves forward only.
 */
export async function checkPdfStreams(data: Buffer, budget: DecompressionBudget, maxMegapixels: number) {
  const text = data.toString('latin1');
  const objects = new IndirectObjects(text);
  const nextNewline = forwardSearch(text, /\r|\n/g);
  const nextEndstream = forwardSearch(text, /endstream/g);
  let boundary = 0;
  for (const match of text.matchAll(BOUNDARY)) {
    const keywordEnd = match.index + match[0].length;
    const dictionaryStart = boundary;
    boundary = keywordEnd;
    if (match[0] !== 'stream') continue;
    const dictionary = text.slice(dictionaryStart, match.index);
    checkImageSize(dictionary, maxMegapixels);
    const start = dataStart(text, nextNewline(keywordEnd));
    if (start === null) continue;
    const end = dataEnd(text, start, declaredLength(dictionary, objects), nextEndstream(start));
    const bytes = data.subarray(start, end);
    const filters = filterChain(dictionary, objects);
    if (filters.length) await measureFilterChain(bytes, filters, budget);
    else if (isZlib(bytes)) await budget.measure(bytes);
  }
}

/** Where a stream's data starts: after the end of the keyword's line, whatever the line holds (pdf.js's skipToNextLine). */
function dataStart(text: string, newline: number): number | null {
  if (newline < 0) return null;
  return newline + (text.startsWith('\r\n', newline) ? 2 : 1);
}

/** Where a stream's data ends, as pdf.js decides: at /Length if `endstream` follows it, else at the next `endstream` (else the file's end). */
function dataEnd(text: string, start: number, length: number | null, endstream: number): number {
  if (length !== null && /^\s*endstream/.test(text.slice(start + length, start + length + 64))) return start + length;
  return endstream < 0 ? text.length : endstream;
}

/** A stream's /Length, direct or through an indirect object; null if it is neither. */
function declaredLength(dictionary: string, objects: IndirectObjects): number | null {
  const match = /\/Length\s+(\d+)(?:\s+(\d+)\s+R\b)?/.exec(dictionary);
  if (!match) return null;
  if (match[2] === undefined) return Number(match[1]);
  const value = /^\s*(\d+)\s+endobj/.exec(objects.body(`${match[1]} ${match[2]}`) ?? '');
  return value ? Number(value[1]) : null;
}

const NAME = /\/([^\s/[\]<>()%{}]+)|(\d+)\s+(\d+)\s+R\b/g;

/**
 * A stream's filters in order with each one's /DecodeParms, as pdf.js reads
 * them (dict.get("F", "Filter"), references followed). Whatever cannot be
 * read ends the chain, where the rest is measured as zlib if it looks it.
 */
function filterChain(dictionary: string, objects: IndirectObjects): FilterLayer[] {
  const value = directValue(/\/(?:F|Filter)(?![\w#])\s*(\[[^\]]*\]|\/[^\s/[\]<>()%{}]+|\d+\s+\d+\s+R\b)/.exec(dictionary)?.[1], objects);
  if (!value) return [];
  const params = decodeParms(directValue(/\/(?:DP|DecodeParms)(?![\w#])\s*(\[[\s\S]*?\]|<<[\s\S]*?>>|\d+\s+\d+\s+R\b)/.exec(dictionary)?.[1], objects) ?? '');
  const layers: FilterLayer[] = [];
  for (const [index, name] of [...value.matchAll(NAME)].entries()) {
    const resolved = name[1] ?? /^\s*\/([^\s/[\]<>()%{}]+)/.exec(objects.body(`${name[2]} ${name[3]}`) ?? '')?.[1];
    if (!resolved) break;
    layers.push({ name: resolved, params: params[index] ?? '' });
  }
  return layers;
}

/** The value itself, or what an indirect reference `n g R` points to. */
function directValue(value: string | undefined, objects: IndirectObjects): string | undefined {
  const reference = value && /^(\d+)\s+(\d+)\s+R$/.exec(value);
  return reference ? objects.body(`${reference[1]} ${reference[2]}`)?.replace(/endobj[\s\S]*$/, '') : value;
}

/** /DecodeParms as one dictionary's text per filter (an array's entries in order; a single dictionary for the first filter). */
function decodeParms(value: string): string[] {
  if (!value.trimStart().startsWith('[')) return [value];
  return [...value.matchAll(/<<[^<>]*>>|null|\d+\s+\d+\s+R\b/g)].map((entry) => entry[0]);
}

/** A search for `pattern` from ever-increasing positions, each answer reused until passed: linear over all calls. */
function forwardSearch(text: string, pattern: RegExp): (from: number) => number {
  let found = -2;
  return (from) => {
    if (found !== -1 && found < from) {
      pattern.lastIndex = from;
      found = pattern.exec(text)?.index ?? -1;
    }
    return found;
  };
}

/** Where each indirect object `n g obj` starts (the last definition wins, as in an incrementally updated file), read on first use. */
class IndirectObjects {
  #starts: Map<string, number> | null = null;

  constructor(private readonly text: string) {}

  /** The text after `n g obj` (a little of it: enough for a number, a name or an array of names). */
  body(reference: string): string | undefined {
    this.#starts ??= new Map([...this.text.matchAll(/(?<!\d)(\d+)\s+(\d+)\s+obj\b/g)].map((m) => [`${m[1]} ${m[2]}`, m.index + m[0].length]));
    const start = this.#starts.get(reference);
    return start === undefined ? undefined : this.text.slice(start, start + 1024);
  }
}

function checkImageSize(dictionary: string, maxMegapixels: number) {
  if (!/\/Subtype\s*\/Image\b/.test(dictionary)) return;
  const width = Number(/\/Width\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary)?.[1] ?? 0);
  const height = Number(/\/Height\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary)?.[1] ?? 0);
  const megapixels = (width * height) / 1e6;
  if (megapixels > maxMegapixels) {
    throw new AppError('UNPROCESSABLE', `file: an image in the PDF has ${megapixels.toFixed(1)} megapixels; the limit is ${maxMegapixels}`);
  }
}
