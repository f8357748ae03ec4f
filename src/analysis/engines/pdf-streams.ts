import { AppError } from '../../errors.ts';
import { type DecompressionBudget, isZlib } from './decompression.ts';

/** The stream keyword (not endstream), where each stream's data follows. */
const STREAM_KEYWORD = /(?<!end)stream/g;
/** How far before a stream keyword its dictionary is looked for. */
const DICTIONARY_WINDOW = 4096;

/**
 * Checks a PDF's streams before pdf.js opens it: how far they decompress
 * (every zlib stream found in the file, and LZW streams, also under an
 * ASCII layer), and the declared size of its images. Read from the bytes
 * themselves rather than through a PDF parser, which would inflate object
 * streams in full to find the rest. A file built to slip past this (an
 * encrypted one, whose streams cannot be read here) is still bounded by the
 * worker's memory limit and the analysis time limit.
 */
export async function checkPdfStreams(data: Buffer, budget: DecompressionBudget, maxMegapixels: number) {
  const text = data.toString('latin1');
  for (const match of text.matchAll(STREAM_KEYWORD)) {
    const start = dataStart(text, match.index + 'stream'.length);
    if (start === null) continue;
    const dictionary = dictionaryBefore(text, match.index);
    checkImageSize(dictionary, maxMegapixels);
    let bytes: Uint8Array = data.subarray(start);
    if (!isZlib(bytes) && /\/(ASCIIHexDecode|AHx)\b/.test(dictionary)) bytes = asciiHex(bytes);
    else if (!isZlib(bytes) && /\/(ASCII85Decode|A85)\b/.test(dictionary)) bytes = ascii85(bytes);
    if (isZlib(bytes)) await budget.measure(bytes);
    else if (/\/(LZWDecode|LZW)\b/.test(dictionary)) budget.spend(lzwSize(bytes, /\/EarlyChange\s+0\b/.test(dictionary) ? 0 : 1));
  }
}

/** Where a stream's data starts: after the end of the keyword's line (as pdf.js reads it). */
function dataStart(text: string, afterKeyword: number): number | null {
  const newline = text.slice(afterKeyword, afterKeyword + 256).search(/\r\n|\r|\n/);
  if (newline < 0) return null;
  const at = afterKeyword + newline;
  return at + (text.startsWith('\r\n', at) ? 2 : 1);
}

/** The text before a stream keyword back to the end of the previous object: its dictionary, and perhaps a little more. */
function dictionaryBefore(text: string, keyword: number): string {
  const window = text.slice(Math.max(0, keyword - DICTIONARY_WINDOW), keyword);
  const previous = Math.max(window.lastIndexOf('endobj'), window.lastIndexOf('endstream'));
  return previous < 0 ? window : window.slice(previous);
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

const HEX_DIGIT = /[0-9a-fA-F]/;

/** ASCIIHexDecode, up to its end marker `>`. */
function asciiHex(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let high: number | null = null;
  for (const byte of data) {
    const char = String.fromCharCode(byte);
    if (char === '>') break;
    if (!HEX_DIGIT.test(char)) continue;
    const digit = parseInt(char, 16);
    if (high === null) high = digit;
    else {
      out.push(high * 16 + digit);
      high = null;
    }
  }
  if (high !== null) out.push(high * 16);
  return Uint8Array.from(out);
}

/** ASCII85Decode, up to its end marker `~>`. */
function ascii85(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  const group: number[] = [];
  const flush = (count: number) => {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 85 + (group[i] ?? 84);
    for (let i = 0; i < count - 1; i++) out.push((value >>> (24 - 8 * i)) & 0xff);
    group.length = 0;
  };
  for (const byte of data) {
    if (byte === 0x7e) break; // ~
    if (byte === 0x7a && group.length === 0) {
      out.push(0, 0, 0, 0); // z: four zero bytes
      continue;
    }
    if (byte < 0x21 || byte > 0x75) continue;
    group.push(byte - 0x21);
    if (group.length === 5) flush(5);
  }
  if (group.length > 1) flush(group.length);
  return Uint8Array.from(out);
}

/**
 * The size LZWDecode would produce, without producing it: a code's output
 * is as long as its table entry, and each new entry is one longer than the
 * previous code's. Step for step as pdf.js decodes (a code past the table
 * reads as the previous sequence plus one byte), up to the end-of-data code.
 */
export function lzwSize(data: Uint8Array, earlyChange: 0 | 1 = 1): number {
  const lengths = new Uint32Array(4096).fill(1, 0, 256);
  let next = 258;
  let width = 9;
  let previous = 0;
  let sequence = 0;
  let total = 0;
  let buffer = 0;
  let bits = 0;
  for (const byte of data) {
    buffer = ((buffer << 8) | byte) & 0xffffff;
    bits += 8;
    while (bits >= width) {
      const code = (buffer >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      if (code === 256) {
        next = 258;
        width = 9;
        sequence = 0;
        continue;
      }
      if (code === 257) return total;
      const hadPrevious = sequence > 0;
      sequence = code < 256 ? 1 : code < next ? lengths[code]! : sequence + 1;
      if (hadPrevious) {
        if (next < 4096) lengths[next] = lengths[previous]! + 1;
        next++;
        const after = next + earlyChange;
        if ((after & (after - 1)) === 0) width = Math.min(Math.log2(after) + 1, 12);
      }
      previous = code;
      total += sequence;
    }
  }
  return total;
}
