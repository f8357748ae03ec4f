import { PDFContext, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import type { DecompressionBudget } from './decompression.ts';

/** One layer of a stream's /Filter chain: its name (#xx escapes decoded) and, for LZW, its /DecodeParms' EarlyChange. */
export type FilterLayer = { name: string; earlyChange: 0 | 1 };

/**
 * Decodes `data` through `filters` in order, as pdf.js would, counting every
 * layer's output against the budget (pdf.js keeps each layer's output while
 * it reads the next), so a bomb nested under Flate, LZW, RunLength, Brotli or
 * an ASCII layer is refused before the layer that would exceed the limit is
 * produced. Whether it measured anything (false: the first filter is not
 * one it decodes). Stops at a filter that does not expand (images: DCT, JPX, CCITT,
 * JBIG2, whose size the megapixel limit bounds) or that pdf.js does not know.
 */
export async function measureFilterChain(data: Uint8Array, filters: FilterLayer[], budget: DecompressionBudget): Promise<boolean> {
  let bytes = data;
  for (const [index, { name, earlyChange }] of filters.entries()) {
    const known = KNOWN.has(name);
    if (!known) return index > 0;
    const decoded = await decodeLayer(name, earlyChange, bytes, budget, index === filters.length - 1);
    if (decoded === null) return true;
    bytes = decoded;
  }
  return true;
}

const KNOWN = new Set(['FlateDecode', 'Fl', 'BrotliDecode', 'LZWDecode', 'LZW', 'RunLengthDecode', 'RL', 'ASCIIHexDecode', 'AHx', 'ASCII85Decode', 'A85']);

/** One filter's output (counted), or null where the chain stops (the last layer is only measured, where that is cheaper). */
async function decodeLayer(name: string, earlyChange: 0 | 1, data: Uint8Array, budget: DecompressionBudget, last: boolean): Promise<Uint8Array | null> {
  switch (name) {
    case 'FlateDecode':
    case 'Fl':
      if (last) return budget.measure(data).then(() => null);
      return budget.decompress(data, 'zlib');
    case 'BrotliDecode':
      return budget.decompress(data, 'brotli');
    case 'LZWDecode':
    case 'LZW':
      budget.spend(lzwSize(data, earlyChange));
      return last ? null : decodeWithPdfLib(data, 'LZWDecode', earlyChange);
    case 'RunLengthDecode':
    case 'RL':
      budget.spend(runLengthSize(data));
      return last ? null : decodeWithPdfLib(data, 'RunLengthDecode');
    case 'ASCIIHexDecode':
    case 'AHx':
      return spent(budget, asciiHex(data));
    case 'ASCII85Decode':
    case 'A85':
      return spent(budget, ascii85(data));
    default:
      return null;
  }
}

function spent(budget: DecompressionBudget, bytes: Uint8Array): Uint8Array {
  budget.spend(bytes.length);
  return bytes;
}

/** pdf-lib's decoder (a port of pdf.js's), for a layer whose size was counted first. */
function decodeWithPdfLib(data: Uint8Array, filter: string, earlyChange?: 0 | 1): Uint8Array {
  const context = PDFContext.create();
  const dictionary = context.obj(earlyChange === undefined ? { Filter: filter } : { Filter: filter, DecodeParms: { EarlyChange: earlyChange } });
  return decodePDFRawStream(PDFRawStream.of(dictionary, data)).decode();
}

/** The size RunLengthDecode would produce: a length byte n < 128 copies n + 1 bytes, n > 128 repeats one byte 257 - n times, 128 ends. */
export function runLengthSize(data: Uint8Array): number {
  let total = 0;
  for (let at = 0; at < data.length; ) {
    const length = data[at]!;
    if (length === 128) break;
    if (length < 128) {
      total += Math.min(length + 1, data.length - at - 1);
      at += length + 2;
    } else {
      total += 257 - length;
      at += 2;
    }
  }
  return total;
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
