import { deflateSync } from 'node:zlib';

function crc32(buffer: Buffer): number {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real 1x1 PNG (optionally padded with an ancillary chunk to `size` bytes). */
export function png(padTo = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const pixels = deflateSync(Buffer.from([0, 255, 0, 0]));
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', pixels)];
  const base = Buffer.concat([...parts, pngChunk('IEND', Buffer.alloc(0))]);
  if (padTo <= base.length + 12) return base;
  const padding = pngChunk('tEXt', Buffer.alloc(padTo - base.length - 12, 0x61));
  return Buffer.concat([...parts, padding, pngChunk('IEND', Buffer.alloc(0))]);
}

export function pdf(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
}

/** Byte signatures of the other accepted formats, enough for detection. */
export const SAMPLES = {
  'application/pdf': pdf(),
  'image/png': png(),
  'image/jpeg': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(64)]),
  'image/tiff': Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]), Buffer.alloc(64)]),
  'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(64)]),
  'image/heic': Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1heic'), Buffer.alloc(64)]),
} as const;

export const REFUSED = {
  'plain text': Buffer.from('just some text, not a document'),
  'Windows executable': Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]),
  'ZIP archive': Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]),
  'SVG image': Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  'GIF image': Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64)]),
} as const;

// Fonts from an npm package, so drawings do not depend on the machine's fonts.
const FONTS = new URL('../../node_modules/dejavu-fonts-ttf/ttf/', import.meta.url);
let fontsLoaded = false;
async function canvasWithFonts() {
  const canvas = await import('@napi-rs/canvas');
  if (!fontsLoaded) {
    canvas.GlobalFonts.registerFromPath(new URL('DejaVuSans.ttf', FONTS).pathname, 'Sample Sans');
    canvas.GlobalFonts.registerFromPath(new URL('DejaVuSansMono.ttf', FONTS).pathname, 'Sample Mono');
    fontsLoaded = true;
  }
  return canvas;
}

/** A white canvas to draw black on. */
async function whiteCanvas(width: number, height: number) {
  const { createCanvas } = await canvasWithFonts();
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = 'black';
  return { canvas, context };
}

/** A PNG of dark text lines on white, drawn with @napi-rs/canvas. */
export async function textImage(
  lines: string[],
  options: { width?: number; fontSize?: number; font?: 'Sample Sans' | 'Sample Mono' } = {},
): Promise<Buffer> {
  const { createCanvas } = await canvasWithFonts();
  const fontSize = options.fontSize ?? 40;
  const canvas = createCanvas(options.width ?? 1600, 120 + lines.length * fontSize * 2);
  const context = canvas.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = 'black';
  context.font = `${fontSize}px "${options.font ?? 'Sample Sans'}"`;
  lines.forEach((line, i) => context.fillText(line, 80, 100 + i * fontSize * 2));
  return canvas.toBuffer('image/png');
}

/** A PDF with a text layer, one array of lines per page (pdf-lib, Helvetica). */
export async function textPdf(pages: string[][]): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = document.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: 760 - i * 24, size: 12, font }));
  }
  return Buffer.from(await document.save());
}

/** A PDF whose only page is an image: a scan, with no text layer. */
export async function scannedPdf(lines: string[]): Promise<Buffer> {
  const { PDFDocument } = await import('pdf-lib');
  const document = await PDFDocument.create();
  const image = await document.embedPng(await textImage(lines, { width: 1240 }));
  const page = document.addPage([595, 842]);
  page.drawImage(image, { x: 0, y: 842 - (image.height * 595) / image.width, width: 595, height: (image.height * 595) / image.width });
  return Buffer.from(await document.save());
}

/** ICAO 9303 check digit (weights 7, 3, 1). */
export function mrzCheckDigit(value: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  [...value].forEach((char, i) => {
    const n = char === '<' ? 0 : /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 55;
    sum += n * weights[i % 3]!;
  });
  return String(sum % 10);
}

export interface PassportHolder {
  lastName: string;
  firstNames: string[];
  documentNumber: string;
  nationality: string;
  birthDate: string; // YYMMDD
  sex: 'M' | 'F';
  expirationDate: string; // YYMMDD
}

/** The two 44-character lines of a TD3 (passport) MRZ with valid check digits. */
export function passportMrz(holder: PassportHolder): [string, string] {
  const name = `${holder.lastName.replaceAll(' ', '<')}<<${holder.firstNames.join('<')}`;
  const line1 = `P<${holder.nationality}${name}`.padEnd(44, '<').slice(0, 44);
  const doc = holder.documentNumber.padEnd(9, '<');
  const personal = ''.padEnd(14, '<');
  const parts = [
    doc + mrzCheckDigit(doc),
    holder.nationality,
    holder.birthDate + mrzCheckDigit(holder.birthDate),
    holder.sex,
    holder.expirationDate + mrzCheckDigit(holder.expirationDate),
    personal + mrzCheckDigit(personal),
  ];
  const composite = mrzCheckDigit(parts[0]! + parts[2]! + parts[4]! + parts[5]!);
  return [line1, parts.join('') + composite];
}

/** A passport data page: printed fields and the MRZ at the bottom, as PNG. */
export async function passportImage(holder: PassportHolder): Promise<Buffer> {
  const { canvas, context } = await whiteCanvas(1800, 1100);
  context.font = '40px "Sample Sans"';
  context.fillText('PASSPORT', 80, 100);
  context.fillText(`Surname: ${holder.lastName}`, 80, 220);
  context.fillText(`Given names: ${holder.firstNames.join(' ')}`, 80, 300);
  context.font = '46px "Sample Mono"';
  const [line1, line2] = passportMrz(holder);
  context.fillText(line1, 60, 900);
  context.fillText(line2, 60, 990);
  return canvas.toBuffer('image/png');
}

/** The three 30-character lines of a TD1 (ID card) MRZ with valid check digits. */
export function idCardMrz(holder: PassportHolder): [string, string, string] {
  const doc = holder.documentNumber.padEnd(9, '<');
  const line1 = `I<${holder.nationality}${doc}${mrzCheckDigit(doc)}`.padEnd(30, '<');
  const birth = holder.birthDate + mrzCheckDigit(holder.birthDate);
  const expiry = holder.expirationDate + mrzCheckDigit(holder.expirationDate);
  const optional = ''.padEnd(11, '<');
  // TD1 composite: document number to optional data of line 1, then birth, expiry and optional data of line 2.
  const composite = mrzCheckDigit(line1.slice(5, 30) + birth + expiry + optional);
  const line2 = `${birth}${holder.sex}${expiry}${holder.nationality}${optional}${composite}`;
  const line3 = `${holder.lastName.replaceAll(' ', '<')}<<${holder.firstNames.join('<')}`.padEnd(30, '<').slice(0, 30);
  return [line1, line2, line3];
}

/** The back of an ID card (ID-1 size at 300 dpi) with its MRZ, as PNG. */
export async function idCardImage(holder: PassportHolder): Promise<Buffer> {
  const { canvas, context } = await whiteCanvas(1011, 638);
  context.font = '30px "Sample Sans"';
  context.fillText('IDENTITY CARD', 50, 70);
  context.fillText(`Address: 12 Harbour Road, ${holder.nationality}`, 50, 130);
  context.font = '46px "Sample Mono"';
  idCardMrz(holder).forEach((line, i) => context.fillText(line, 60, 430 + i * 70));
  return canvas.toBuffer('image/png');
}

/** A one-page PDF with text at given positions (points from the top left): for tables and forms. */
export async function placedTextPdf(items: Array<{ text: string; x: number; y: number }>): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([595, 842]);
  for (const item of items) page.drawText(item.text, { x: item.x, y: 842 - item.y, size: 11, font });
  return Buffer.from(await document.save());
}

/** Rows of cells laid out in columns at `columns` (x positions), starting at `top`. */
export function tableItems(rows: string[][], columns: number[], top: number) {
  return rows.flatMap((row, r) => row.map((text, c) => ({ text, x: columns[c]!, y: top + r * 20 })));
}

/** An uncompressed 8-bit greyscale TIFF with one page per image (scanners and faxes write these). */
export async function multiPageTiff(images: Buffer[]): Promise<Buffer> {
  const { createCanvas, loadImage } = await canvasWithFonts();
  const { default: UTIF } = await import('utif2');
  const pages = await Promise.all(
    images.map(async (image) => {
      const decoded = await loadImage(image);
      const canvas = createCanvas(decoded.width, decoded.height);
      const context = canvas.getContext('2d');
      context.drawImage(decoded, 0, 0);
      const rgba = context.getImageData(0, 0, decoded.width, decoded.height).data;
      const grey = Buffer.alloc(decoded.width * decoded.height);
      for (let i = 0; i < grey.length; i++) grey[i] = rgba[i * 4]!;
      return { width: decoded.width, height: decoded.height, grey };
    }),
  );
  // The directories first, then the pixels; encoded twice because the strip
  // offsets depend on the directories' own length (which the offsets do not change).
  const directories = (start: number) => {
    let offset = start;
    return pages.map(({ width, height, grey }) => {
      const ifd = { t256: [width], t257: [height], t258: [8], t259: [1], t262: [1], t273: [offset], t277: [1], t278: [height], t279: [grey.length], t282: [[300, 1]], t283: [[300, 1]], t296: [2] };
      offset += grey.length;
      return ifd;
    });
  };
  const length = UTIF.encode(directories(0) as never).byteLength;
  const header = Buffer.from(UTIF.encode(directories(length) as never));
  return Buffer.concat([header, ...pages.map((p) => p.grey)]);
}
