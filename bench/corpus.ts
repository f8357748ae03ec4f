// The evaluation corpus for document analysis, generated with its ground
// truth: typed forms, ruled and unruled tables, multi-page PDFs with and
// without a text layer, degraded scans, and passports with valid MRZs.
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { idCardImage, multiPageTiff, type PassportHolder, passportImage } from '../tests/helpers/sample-files.ts';

const FONTS = new URL('../node_modules/dejavu-fonts-ttf/ttf/', import.meta.url);
GlobalFonts.registerFromPath(new URL('DejaVuSans.ttf', FONTS).pathname, 'Corpus Sans');

export interface Truth {
  words: string[];
  tables: string[][][];
  forms: Array<[string, string]>;
}

export interface Sample {
  name: string;
  category: 'clean-pdf' | 'clean-image' | 'degraded' | 'scanned-pdf' | 'id-document';
  contentType: string;
  data: Buffer;
  pages: number;
  truth: Truth;
  passport?: PassportHolder;
}

interface Page {
  forms: Array<[string, string]>;
  table: string[][];
  ruled: boolean;
}

const PEOPLE = [
  ['Alice Smith', '600', 'GB'], ['Bob Jones', '400', 'US'], ['Chen Wei', '250', 'SG'],
  ['Dana Fischer', '125', 'DE'], ['Emre Kaya', '75', 'TR'],
];

function page(seed: number, ruled: boolean): Page {
  return {
    forms: [
      ['Company Name:', `Northwind Trading ${seed} Ltd`],
      ['Registration Number:', String(10_000_000 + seed * 7919)],
      ['Incorporation Date:', `0${1 + (seed % 9)}/03/2019`],
    ],
    table: [['Shareholder', 'Shares', 'Country'], ...PEOPLE.slice(0, 3 + (seed % 3))],
    ruled,
  };
}

function truthOf(pages: Page[]): Truth {
  return {
    words: pages.flatMap((p) => [...p.forms.flat(), ...p.table.flat()].join(' ').split(/\s+/)),
    tables: pages.map((p) => p.table),
    forms: pages.flatMap((p) => p.forms),
  };
}

const COLUMNS = [72, 260, 400];

async function textLayerPdf(pages: Page[]): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const p of pages) {
    const pdfPage = document.addPage([595, 842]);
    p.forms.forEach(([key, value], i) => pdfPage.drawText(`${key} ${value}`, { x: 72, y: 842 - 80 - i * 26, size: 11, font }));
    p.table.forEach((row, r) => {
      row.forEach((text, c) => pdfPage.drawText(text, { x: COLUMNS[c]!, y: 842 - 200 - r * 22, size: 11, font }));
      if (p.ruled) pdfPage.drawLine({ start: { x: 66, y: 842 - 206 - r * 22 }, end: { x: 520, y: 842 - 206 - r * 22 }, thickness: 0.5, color: rgb(0, 0, 0) });
    });
  }
  return Buffer.from(await document.save());
}

/** The page drawn at `scale` pixels per point (300 dpi ≈ 4.17). */
function drawPage(context: SKRSContext2D, p: Page, scale: number) {
  context.fillStyle = 'white';
  context.fillRect(0, 0, 595 * scale, 842 * scale);
  context.fillStyle = 'black';
  context.strokeStyle = 'black';
  context.font = `${11 * scale}px "Corpus Sans"`;
  p.forms.forEach(([key, value], i) => context.fillText(`${key} ${value}`, 72 * scale, (80 + i * 26) * scale));
  p.table.forEach((row, r) => {
    row.forEach((text, c) => context.fillText(text, COLUMNS[c]! * scale, (200 + r * 22) * scale));
    if (p.ruled) {
      context.lineWidth = scale / 2;
      context.beginPath();
      context.moveTo(66 * scale, (206 + r * 22) * scale);
      context.lineTo(520 * scale, (206 + r * 22) * scale);
      context.stroke();
    }
  });
}

type Degradation = 'none' | 'noise' | 'blur' | 'skew' | 'low-dpi' | 'jpeg' | 'rotated-90' | 'upside-down';

function pageImage(p: Page, degradation: Degradation, seed: number): { data: Buffer; contentType: string } {
  const scale = degradation === 'low-dpi' ? 150 / 72 : 300 / 72;
  const canvas = createCanvas(Math.round(595 * scale), Math.round(842 * scale));
  const context = canvas.getContext('2d');
  if (degradation === 'skew') {
    context.fillStyle = 'white';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.translate(canvas.width / 2, canvas.height / 2);
    context.rotate(((seed % 2 ? 1 : -1) * 1.2 * Math.PI) / 180);
    context.translate(-canvas.width / 2, -canvas.height / 2);
  }
  if (degradation === 'blur') context.filter = 'blur(1.2px)';
  if (degradation === 'rotated-90' || degradation === 'upside-down') {
    // The page fed into the scanner turned: drawn upright, then turned.
    const upright = createCanvas(canvas.width, canvas.height);
    drawPage(upright.getContext('2d'), p, scale);
    const quarter = degradation === 'rotated-90';
    const turned = createCanvas(quarter ? canvas.height : canvas.width, quarter ? canvas.width : canvas.height);
    const t = turned.getContext('2d');
    t.translate(turned.width / 2, turned.height / 2);
    t.rotate(quarter ? Math.PI / 2 : Math.PI);
    t.drawImage(upright, -upright.width / 2, -upright.height / 2);
    return { data: turned.toBuffer('image/png'), contentType: 'image/png' };
  }
  drawPage(context, p, scale);
  context.filter = 'none';
  if (degradation === 'noise') {
    // Salt-and-pepper specks, deterministic.
    let state = seed * 2654435761;
    const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 6000; i++) {
      context.fillStyle = random() < 0.5 ? 'black' : 'white';
      context.fillRect(random() * canvas.width, random() * canvas.height, 2, 2);
    }
  }
  return degradation === 'jpeg'
    ? { data: canvas.toBuffer('image/jpeg', 25), contentType: 'image/jpeg' }
    : { data: canvas.toBuffer('image/png'), contentType: 'image/png' };
}

async function scannedPdf(pages: Page[]): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (const [i, p] of pages.entries()) {
    const image = await document.embedPng(pageImage(p, 'none', i).data);
    document.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  }
  return Buffer.from(await document.save());
}

/**
 * A fully ruled table whose structure only the lines tell: headers spanning
 * two rows or two columns, empty cells, and text wrapped inside cells. The
 * frame is one stroked rectangle, the inner borders separate lines.
 */
export async function gridTablePdf(): Promise<{ data: Buffer; truth: Truth; mergedCells: Array<{ rowIndex: number; columnIndex: number; rowSpan: number; columnSpan: number }> }> {
  const xs = [60, 200, 280, 360, 520];
  const ys = [300, 320, 340, 374, 408, 442]; // row tops from the page top; data rows hold two lines
  const cells: Array<{ row: number; column: number; lines: string[] }> = [
    { row: 0, column: 0, lines: ['Shareholder'] }, { row: 0, column: 1, lines: ['Shares held'] }, { row: 0, column: 3, lines: ['Country'] },
    { row: 1, column: 1, lines: ['Class A'] }, { row: 1, column: 2, lines: ['Class B'] },
    { row: 2, column: 0, lines: ['Alice Smith'] }, { row: 2, column: 1, lines: ['600'] }, { row: 2, column: 3, lines: ['United Kingdom of', 'Great Britain'] },
    { row: 3, column: 0, lines: ['Bob Jones'] }, { row: 3, column: 1, lines: ['400'] }, { row: 3, column: 2, lines: ['150'] }, { row: 3, column: 3, lines: ['United States'] },
    { row: 4, column: 0, lines: ['Northwind Holdings', 'Limited'] }, { row: 4, column: 2, lines: ['250'] }, { row: 4, column: 3, lines: ['Singapore'] },
  ];
  const forms: Array<[string, string]> = [['Register:', 'Members of Northwind Group'], ['As at:', '31/12/2025']];
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const pdfPage = document.addPage([595, 842]);
  const y = (top: number) => 842 - top;
  forms.forEach(([key, value], i) => pdfPage.drawText(`${key} ${value}`, { x: 60, y: y(120 + i * 26), size: 11, font }));
  for (const cell of cells) {
    cell.lines.forEach((line, i) => pdfPage.drawText(line, { x: xs[cell.column]! + 4, y: y(ys[cell.row]! + 14 + i * 14), size: 10, font }));
  }
  const black = rgb(0, 0, 0);
  const line = (x1: number, top1: number, x2: number, top2: number) => pdfPage.drawLine({ start: { x: x1, y: y(top1) }, end: { x: x2, y: y(top2) }, thickness: 0.75, color: black });
  pdfPage.drawRectangle({ x: xs[0]!, y: y(ys.at(-1)!), width: xs.at(-1)! - xs[0]!, height: ys.at(-1)! - ys[0]!, borderWidth: 0.75, borderColor: black });
  line(xs[1]!, ys[1]!, xs[3]!, ys[1]!); // under "Shares held" only: the other header cells span both rows
  for (const top of ys.slice(2, -1)) line(xs[0]!, top, xs[4]!, top);
  line(xs[1]!, ys[0]!, xs[1]!, ys.at(-1)!);
  line(xs[2]!, ys[1]!, xs[2]!, ys.at(-1)!); // not through the header row: "Shares held" spans two columns
  line(xs[3]!, ys[0]!, xs[3]!, ys.at(-1)!);
  const rows = [
    ['Shareholder', 'Shares held', '', 'Country'],
    ['', 'Class A', 'Class B', ''],
    ['Alice Smith', '600', '', 'United Kingdom of Great Britain'],
    ['Bob Jones', '400', '150', 'United States'],
    ['Northwind Holdings Limited', '', '250', 'Singapore'],
  ];
  return {
    data: Buffer.from(await document.save()),
    truth: { words: [...forms.flat(), ...rows.flat()].join(' ').split(/\s+/).filter(Boolean), tables: [rows], forms },
    mergedCells: [
      { rowIndex: 1, columnIndex: 1, rowSpan: 2, columnSpan: 1 },
      { rowIndex: 1, columnIndex: 2, rowSpan: 1, columnSpan: 2 },
      { rowIndex: 1, columnIndex: 4, rowSpan: 2, columnSpan: 1 },
    ],
  };
}

export const HOLDERS: PassportHolder[] = [
  { lastName: 'EXAMPLE', firstNames: ['JANE', 'MARIE'], documentNumber: '123456789', nationality: 'GBR', birthDate: '850310', sex: 'F', expirationDate: '300101' },
  { lastName: 'MUSTERMANN', firstNames: ['ERIKA'], documentNumber: 'C01X00T47', nationality: 'DEU', birthDate: '640812', sex: 'F', expirationDate: '310630' },
  { lastName: 'ROSSI', firstNames: ['MARCO', 'LUCA'], documentNumber: 'YA1234567', nationality: 'ITA', birthDate: '921129', sex: 'M', expirationDate: '281015' },
];

export const ID_CARD_HOLDERS: PassportHolder[] = [
  { lastName: 'DUPONT', firstNames: ['MARIE', 'CLAIRE'], documentNumber: 'X4RTBPFW4', nationality: 'FRA', birthDate: '900716', sex: 'F', expirationDate: '320101' },
  { lastName: 'DE BRUIJN', firstNames: ['WILLEKE', 'LISELOTTE'], documentNumber: 'SPECI2021', nationality: 'NLD', birthDate: '650310', sex: 'F', expirationDate: '310802' },
];

export async function buildCorpus(): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const [i, ruled] of [false, true].entries()) {
    const pages = [page(i, ruled)];
    samples.push({ name: `text-layer ${ruled ? 'ruled' : 'unruled'} table + form`, category: 'clean-pdf', contentType: 'application/pdf', data: await textLayerPdf(pages), pages: 1, truth: truthOf(pages) });
  }
  const grid = await gridTablePdf();
  samples.push({ name: 'text-layer ruled grid (merged, empty, wrapped cells)', category: 'clean-pdf', contentType: 'application/pdf', data: grid.data, pages: 1, truth: grid.truth });
  const multi = [page(5, true), page(6, false), page(7, true)];
  samples.push({ name: 'text-layer 3 pages', category: 'clean-pdf', contentType: 'application/pdf', data: await textLayerPdf(multi), pages: 3, truth: truthOf(multi) });
  for (const [i, ruled] of [false, true].entries()) {
    const p = page(10 + i, ruled);
    samples.push({ name: `image ${ruled ? 'ruled' : 'unruled'} 300 dpi`, category: 'clean-image', ...pageImage(p, 'none', i), pages: 1, truth: truthOf([p]) });
  }
  const faxed = [page(12, true), page(13, false)];
  const tiff = await multiPageTiff(faxed.map((p, i) => pageImage(p, 'none', i).data));
  samples.push({ name: 'TIFF 2 pages', category: 'clean-image', contentType: 'image/tiff', data: tiff, pages: 2, truth: truthOf(faxed) });
  for (const [i, degradation] of (['noise', 'blur', 'skew', 'low-dpi', 'jpeg', 'rotated-90', 'upside-down'] as const).entries()) {
    const p = page(20 + i, i % 2 === 0);
    samples.push({ name: `scan: ${degradation}`, category: 'degraded', ...pageImage(p, degradation, i), pages: 1, truth: truthOf([p]) });
  }
  const scanned = [page(30, true), page(31, false)];
  samples.push({ name: 'scanned PDF 2 pages (no text layer)', category: 'scanned-pdf', contentType: 'application/pdf', data: await scannedPdf(scanned), pages: 2, truth: truthOf(scanned) });
  for (const holder of ID_CARD_HOLDERS) {
    samples.push({ name: `ID card (TD1) ${holder.nationality}`, category: 'id-document', contentType: 'image/png', data: await idCardImage(holder), pages: 1, truth: { words: [], tables: [], forms: [] }, passport: holder });
  }
  for (const holder of HOLDERS) {
    samples.push({ name: `passport ${holder.nationality}`, category: 'id-document', contentType: 'image/png', data: await passportImage(holder), pages: 1, truth: { words: [], tables: [], forms: [] }, passport: holder });
  }
  return samples;
}
