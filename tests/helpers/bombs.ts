// Files built to exhaust an analysis: huge pages, data that inflates a
// thousandfold, images declaring huge sizes. Built in the test, small on disk.
import { constants, createDeflate, createDeflateRaw, deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { pngChunk, textImage } from './sample-files.ts';

const MB = 1024 * 1024;

/** `megabytes` of zero bytes, deflated (zlib; `raw`: bare deflate), about 1 KB per MB. */
export async function deflatedZeros(megabytes: number, raw = false): Promise<Buffer> {
  const deflate = (raw ? createDeflateRaw : createDeflate)({ level: constants.Z_BEST_COMPRESSION });
  const parts: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => parts.push(chunk));
  const zeros = Buffer.alloc(MB);
  for (let i = 0; i < megabytes; i++) if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await new Promise((resolve) => deflate.once('end', resolve));
  return Buffer.concat(parts);
}

/** A PDF whose one page is `width` x `height` pt, blank but for `image` (a PNG of text) near its top left. */
export async function largePagePdf(width: number, height: number, image?: Buffer): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage([width, height]);
  if (image) {
    const embedded = await document.embedPng(image);
    page.drawImage(embedded, { x: 36, y: height - 36 - embedded.height / 2, width: embedded.width / 2, height: embedded.height / 2 });
  }
  return Buffer.from(await document.save());
}

/** A one-page PDF whose content stream is `contents` under `filter` (a name or an array of names), its dictionary holding `extra` too. */
async function pdfWithContent(contents: Buffer, filter: string | string[], extra: Record<string, string | number> = {}): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage([595, 842]);
  const stream = PDFRawStream.of(document.context.obj({ Filter: filter, Length: contents.length, ...extra }), contents);
  page.node.set(PDFName.of('Contents'), document.context.register(stream));
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/** A one-page PDF whose content stream is `megabytes` of zeros (whitespace to a PDF reader), Flate-compressed. */
export async function flateBombPdf(megabytes: number): Promise<Buffer> {
  return pdfWithContent(await deflatedZeros(megabytes), 'FlateDecode');
}

/** The same, the compressed data also ASCII85-encoded (filters ASCII85Decode, then FlateDecode). */
export async function ascii85FlateBombPdf(megabytes: number): Promise<Buffer> {
  return pdfWithContent(ascii85(await deflatedZeros(megabytes)), ['ASCII85Decode', 'FlateDecode']);
}

/** `data` deflated (zlib) once more. */
function deflated(data: Buffer): Buffer {
  return deflateSync(data, { level: constants.Z_BEST_COMPRESSION });
}

/** Flate over Flate: the outer layer inflates to a few hundred KB, the inner one to `megabytes` of zeros. */
export async function doubleFlateBombPdf(megabytes: number, extra: Record<string, string | number> = {}): Promise<Buffer> {
  return pdfWithContent(deflated(await deflatedZeros(megabytes)), ['FlateDecode', 'FlateDecode'], extra);
}

/** RunLength under Flate: zeros in runs of 128 (2 bytes each), deflated. */
export function flateRunLengthBombPdf(megabytes: number): Promise<Buffer> {
  const runs = Buffer.alloc(((megabytes * MB) / 128) * 2);
  for (let at = 0; at < runs.length; at += 2) runs[at] = 129; // 257 - 129 = 128 copies of the next byte (0)
  return pdfWithContent(deflated(runs), ['FlateDecode', 'RunLengthDecode']);
}

/** `pdf` with `padding` spaces between each `stream` keyword and its line end (pdf.js skips the rest of that line). */
export function padStreamKeywords(pdf: Buffer, padding: number): Buffer {
  return Buffer.from(pdf.toString('latin1').replace(/(?<!end)stream\n/g, `stream${' '.repeat(padding)}\n`), 'latin1');
}

/** `pdf` with its text `from` (the first occurrence) replaced by `to`: a dictionary written otherwise (pdf.js finds the objects again without the xref's offsets). */
export function rewritePdf(pdf: Buffer, from: string, to: string): Buffer {
  const text = pdf.toString('latin1');
  if (!text.includes(from)) throw new Error(`${from} is not in the PDF`);
  return Buffer.from(text.replace(from, to), 'latin1');
}

/** `pdf` with every direct /Length replaced by a reference to an object (appended) holding a wrong length. */
export function wrongIndirectLengths(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1').replace(/\/Length \d+/g, '/Length 999 0 R');
  return Buffer.from(text.replace(/%%EOF\s*$/, '999 0 obj\n7\nendobj\n%%EOF\n'), 'latin1');
}

/** A one-page PDF whose content stream is at least `megabytes` of zeros, LZW-compressed (about 2,500:1). */
export async function lzwBombPdf(megabytes: number): Promise<Buffer> {
  return pdfWithContent(lzwZeros(megabytes * MB), 'LZWDecode');
}

/**
 * LZW data (PDF's variant, EarlyChange 1) decoding to at least `bytes` zeros:
 * each code one zero longer than the last until the table is full, then its
 * longest entry over and over.
 */
export function lzwZeros(bytes: number): Buffer {
  const codes = [256, 0];
  let produced = 1;
  let next = 258;
  while (produced < bytes) {
    const code = Math.min(next, 4095);
    codes.push(code);
    produced += code - 256;
    next++;
  }
  codes.push(257);
  // Packed most significant bit first, widening as the decoder's table grows.
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  let width = 9;
  let tableNext = 258;
  let hasPrevious = false;
  for (const code of codes) {
    buffer = (buffer << width) | code;
    bits += width;
    while (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
    if (code === 256) {
      width = 9;
      tableNext = 258;
      hasPrevious = false;
      continue;
    }
    if (hasPrevious) {
      tableNext++;
      const after = tableNext + 1;
      if ((after & (after - 1)) === 0) width = Math.min(Math.log2(after) + 1, 12);
    }
    hasPrevious = true;
  }
  if (bits) out.push((buffer << (8 - bits)) & 0xff);
  return Buffer.from(out);
}

/** ASCII85 (Adobe's base-85) of `data`, with its end marker. */
export function ascii85(data: Buffer): Buffer {
  let text = '';
  for (let at = 0; at < data.length; at += 4) {
    const group = data.subarray(at, at + 4);
    const value = Buffer.concat([group, Buffer.alloc(4 - group.length)]).readUInt32BE(0);
    if (group.length === 4 && value === 0) {
      text += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let i = 0, rest = value; i < 5; i++, rest = Math.floor(rest / 85)) digits.unshift(String.fromCharCode(33 + (rest % 85)));
    text += digits.slice(0, group.length + 1).join('');
  }
  return Buffer.from(`${text}~>`, 'latin1');
}

/** A one-page PDF drawing one grey image that declares `width` x `height` pixels (zeros, Flate-compressed). */
export async function hugeImagePdf(width: number, height: number): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage([595, 842]);
  const pixels = await deflatedZeros(Math.ceil((width * height) / MB));
  const image = PDFRawStream.of(
    document.context.obj({ Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceGray', BitsPerComponent: 8, Filter: 'FlateDecode', Length: pixels.length }),
    pixels,
  );
  const name = page.node.newXObject('Im', document.context.register(image));
  const content = Buffer.from(`q 595 0 0 842 0 0 cm /${name.asString().slice(1)} Do Q`);
  page.node.set(PDFName.of('Contents'), document.context.register(PDFRawStream.of(document.context.obj({ Length: content.length }), content)));
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/** A one-page grey TIFF of `width` x `height` whose single Deflate strip inflates to `megabytes` MB. */
export async function tiffDeflateBomb(width: number, height: number, megabytes: number): Promise<Buffer> {
  const strip = await deflatedZeros(megabytes);
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 4, width], [257, 4, height], [258, 3, 8], [259, 3, 8], [262, 3, 1], [273, 4, 0], [277, 3, 1], [278, 4, height], [279, 4, strip.length],
  ];
  const ifdSize = 2 + entries.length * 12 + 4;
  const stripOffset = 8 + ifdSize;
  const header = Buffer.alloc(stripOffset);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  header.writeUInt32LE(8, 4);
  header.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    header.writeUInt16LE(tag, at);
    header.writeUInt16LE(type, at + 2);
    header.writeUInt32LE(1, at + 4);
    const stored = tag === 273 ? stripOffset : value;
    if (type === 3) header.writeUInt16LE(stored, at + 8);
    else header.writeUInt32LE(stored, at + 8);
  });
  return Buffer.concat([header, strip]);
}

/** A scan of `pages` pages (images, no text layer): each page is read by OCR, so it takes a while. */
export async function slowScanPdf(pages: number, label = 'Slow scanned page'): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (let i = 1; i <= pages; i++) {
    const image = await document.embedPng(await textImage([`${label} ${i}`, 'Lines of text that OCR reads one by one', 'Account statement period and balance']));
    document.addPage([595, 842]).drawImage(image, { x: 0, y: 842 - (image.height * 595) / image.width, width: 595, height: (image.height * 595) / image.width });
  }
  return Buffer.from(await document.save());
}

/** A grey PNG declaring `width` x `height` pixels whose image data is `megabytes` of deflated zeros. */
export async function pngBomb(width: number, height: number, megabytes: number): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', await deflatedZeros(megabytes)), pngChunk('IEND', Buffer.alloc(0))]);
}

/**
 * A one-page PDF (cross-reference stream) whose content stream is `megabytes`
 * of zeros, deflated and hex-encoded, under `/Filter 7 0 R` = [/AHx /Fl].
 * Object 7 is `where`: 'once' a plain object; 'object stream' inside an object
 * stream (its header numbering it 99: pdf.js goes by its index); 'twice' a
 * plain object the cross-reference points to, then a second definition /Foo.
 */
export async function indirectFilterBombPdf(megabytes: number, where: 'once' | 'object stream' | 'twice'): Promise<Buffer> {
  const hex = Buffer.from(`${(await deflatedZeros(megabytes)).toString('hex')}>`, 'latin1');
  const chain = '[/AHx /Fl]';
  const packed = `99 0 ${chain}`;
  const objects: Array<[number, Buffer | string]> = [
    [1, '<< /Type /Catalog /Pages 2 0 R >>'],
    [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'],
    [4, Buffer.concat([Buffer.from(`<< /Length ${hex.length} /Filter 7 0 R >>\nstream\n`), hex, Buffer.from('\nendstream')])],
  ];
  if (where === 'object stream') objects.push([6, `<< /Type /ObjStm /N 1 /First 5 /Length ${packed.length} >>\nstream\n${packed}\nendstream`]);
  else objects.push([7, chain]);
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let size = parts[0]!.length;
  const offsets = new Map<number, number>();
  const add = (number: number, body: Buffer | string) => {
    offsets.set(number, size);
    const object = Buffer.concat([Buffer.from(`${number} 0 obj\n`), typeof body === 'string' ? Buffer.from(body, 'latin1') : body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    size += object.length;
  };
  for (const [number, body] of objects) add(number, body);
  const seven = offsets.get(7);
  if (where === 'twice') add(7, '/Foo');
  // Cross-reference stream rows (W [1 4 2]): 0 free, 1 in use at an offset, 2 in object stream 6 at an index.
  const row = (type: number, field: number, index: number) => {
    const bytes = Buffer.alloc(7);
    bytes.writeUInt8(type, 0);
    bytes.writeUInt32BE(field, 1);
    bytes.writeUInt16BE(index, 5);
    return bytes;
  };
  const xrefAt = size;
  const rows = Buffer.concat([
    row(0, 0, 65535), ...[1, 2, 3, 4].map((n) => row(1, offsets.get(n)!, 0)), row(0, 0, 0),
    offsets.has(6) ? row(1, offsets.get(6)!, 0) : row(0, 0, 0),
    seven === undefined ? row(2, 6, 0) : row(1, seven, 0), row(1, xrefAt, 0),
  ]);
  add(8, Buffer.concat([Buffer.from(`<< /Type /XRef /Size 9 /W [1 4 2] /Root 1 0 R /Length ${rows.length} >>\nstream\n`), rows, Buffer.from('\nendstream')]));
  parts.push(Buffer.from(`startxref\n${xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}
