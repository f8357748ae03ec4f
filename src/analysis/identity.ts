import { parse, type ParseResult } from 'mrz';
import { AppError } from '../errors.ts';
import type { Block } from './blocks.ts';

/** One field in AWS Textract AnalyzeID's shape. */
export interface IdentityDocumentField {
  Type: { Text: string };
  ValueDetection: { Text: string; NormalizedValue?: { Value: string; ValueType: 'Date' }; Confidence: number };
}

export interface MrzCheck {
  format: string;
  valid: boolean;
  /** The zone as understood (after repairs of OCR misreadings). */
  lines: string[];
  /** The zone as OCR read it; differs from `lines` when characters were mended. */
  read?: string[];
  corrected?: boolean;
  checkDigits: { documentNumber: boolean | null; birthDate: boolean | null; expirationDate: boolean | null; composite: boolean | null };
}

export interface IdentityResult {
  idType: 'PASSPORT' | 'ID_CARD' | 'DRIVERS_LICENSE' | 'OTHER';
  fields: IdentityDocumentField[];
  mrz: MrzCheck;
}

const LENGTHS = [44, 36, 30];

/**
 * OCR text in the MRZ alphabet: upper case, no spaces, common misreadings of
 * `<` mended. Any other character keeps its place as `?` (unknown), so that
 * the fields after it do not shift.
 */
function mrzCandidate(text: string): string {
  return text
    .toUpperCase()
    .replace(/[«‹<(\[{]/g, '<')
    .replace(/\s+/g, '')
    .replace(/[^A-Z0-9<]/g, '?');
}

/** Positions (line, columns) that hold only digits: dates and check digits, by line length. */
const DIGIT_POSITIONS: Record<number, Array<[number, number[]]>> = {
  44: [[1, [9, ...range(13, 20), ...range(21, 28), 42, 43]]],
  36: [[1, [9, ...range(13, 20), ...range(21, 28), 35]]],
  30: [[0, [14]], [1, [...range(0, 7), ...range(8, 15), 29]]],
};
function range(from: number, to: number) {
  return Array.from({ length: to - from }, (_, i) => from + i);
}
// The parser's own autocorrection knows B, G, O, I, S, Z; OCR also gives these.
const DIGIT_LOOK_ALIKES: Record<string, string> = { Q: '0', D: '0', U: '0', L: '1', T: '7', A: '4' };

function digitsWhereDigitsBelong(lines: string[], length: number): string[] {
  const fixed = [...lines];
  for (const [line, columns] of DIGIT_POSITIONS[length] ?? []) {
    const chars = [...fixed[line]!];
    for (const column of columns) chars[column] = DIGIT_LOOK_ALIKES[chars[column]!] ?? chars[column]!;
    fixed[line] = chars.join('');
  }
  return fixed;
}

/**
 * The machine-readable zone: the last run of 2 (TD3, TD2) or 3 (TD1)
 * MRZ-looking lines, mended where OCR misread it (see repairZone), with the
 * lines as read.
 */
export function findMrz(lines: string[]): { lines: string[]; read: string[] } | null {
  const found = mrzRun(lines);
  if (!found) return null;
  const { run, length } = found;
  const nameLine = length === 30 ? 2 : 0;
  const fix = (zone: string[]) => {
    const fixed = digitsWhereDigitsBelong(zone.map((line) => line.padEnd(length, '<').slice(0, length)), length);
    fixed[nameLine] = cleanNameFiller(fixed[nameLine]!, length === 30 ? 0 : 5);
    return fixed;
  };
  const read = run.map((line) => line.padEnd(length, '<').slice(0, length));
  return { lines: repairZone(run, length, fix) ?? fix(run).map((line) => line.replaceAll('?', '<')), read };
}

/** The last run of MRZ-looking lines, as read (no repair): where the zone is. */
function mrzRun(lines: string[]): { run: string[]; length: number } | null {
  const candidates = lines.map(mrzCandidate);
  for (const length of LENGTHS) {
    const count = length === 30 ? 3 : 2;
    const fits = (line: string | undefined) => line !== undefined && Math.abs(line.length - length) <= 2 && line.includes('<');
    for (let end = candidates.length; end >= count; end--) {
      const run = candidates.slice(end - count, end);
      if (run.every(fits)) return { run, length };
    }
  }
  return null;
}

/** Whether every check digit of the zone holds (after the parser's own autocorrection). */
function checkDigitsHold(lines: string[]): boolean {
  const checks = parse(lines, { autocorrect: true }).details.filter((d) => d.field?.endsWith('CheckDigit'));
  return checks.length > 0 && checks.every((d) => d.valid);
}

/** The zone with the parser's autocorrections (S→5 in a date, ...) applied: readings that mean the same compare equal. */
function autocorrected(lines: string[], result: ParseResult = parse(lines, { autocorrect: true })): string[] {
  const corrected = [...lines];
  for (const correction of result.details.flatMap((d) => d.autocorrect)) {
    const line = corrected[correction.line]!;
    corrected[correction.line] = line.slice(0, correction.column) + correction.corrected + line.slice(correction.column + 1);
  }
  return corrected;
}

const MRZ_CHARACTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<'];

/** The zone with each unknown (`?`) character replaced by every possible one (at most two unknowns). */
function expandUnknowns(lines: string[]): string[][] {
  const text = lines.join('\n');
  const unknown = text.indexOf('?');
  if (unknown < 0) return [lines];
  if ((text.match(/\?/g)?.length ?? 0) > 2) return [];
  return MRZ_CHARACTERS.flatMap((c) => expandUnknowns((text.slice(0, unknown) + c + text.slice(unknown + 1)).split('\n')));
}

/**
 * A zone whose check digits fail is mended only when exactly one reading
 * makes every check digit hold: each unknown character replaced, and when a
 * line is one character too long (OCR read a thin stroke twice), each single
 * deletion. Null when the zone holds as read or no single reading fixes it.
 */
function repairZone(run: string[], length: number, fix: (lines: string[]) => string[]): string[] | null {
  const asRead = fix(run);
  if (!asRead.some((line) => line.includes('?')) && checkDigitsHold(asRead)) return null;
  const variants = [run];
  run.forEach((line, index) => {
    if (line.length !== length + 1) return;
    for (let i = 0; i < line.length; i++) variants.push(run.with(index, line.slice(0, i) + line.slice(i + 1)));
  });
  const found = new Set<string>();
  for (const variant of variants) {
    for (const candidate of expandUnknowns(fix(variant))) if (checkDigitsHold(candidate)) found.add(autocorrected(candidate).join('\n'));
  }
  return found.size === 1 ? [...found][0]!.split('\n') : null;
}

/**
 * In the name field, `<<` after the surname separator ends the given names;
 * OCR often reads stray letters in the filler that follows (a `<` seen as
 * `c`), which would otherwise become a middle name.
 */
function cleanNameFiller(line: string, nameStart: number): string {
  const separator = line.indexOf('<<', nameStart);
  if (separator < 0) return line;
  const end = line.indexOf('<<', separator + 2);
  return end < 0 ? line : line.slice(0, end).padEnd(line.length, '<');
}

/** YYMMDD as an ISO date; birth dates are in the past, expiry dates within the century ahead. */
function mrzDate(value: string | null | undefined, kind: 'birth' | 'expiry'): string | null {
  if (!value || !/^\d{6}$/.test(value)) return null;
  const yy = Number(value.slice(0, 2));
  const now = new Date().getUTCFullYear() % 100;
  const century = kind === 'birth' ? (yy > now ? 1900 : 2000) : yy < now - 50 ? 2100 : 2000;
  return `${century + yy}-${value.slice(2, 4)}-${value.slice(4, 6)}`;
}

function checkDigit(result: ParseResult, field: string): boolean | null {
  const detail = result.details.find((d) => d.field === field);
  return detail ? detail.valid : null;
}

/**
 * Identity fields from the MRZ of a passport or ID card (OCR lines from the
 * blocks), in Textract AnalyzeID's shape, with the check digits' verdicts.
 * A field whose check digit fails keeps its value but a low confidence.
 */
export function identityFromBlocks(blocks: Block[]): IdentityResult {
  return identityFromLines(blocks.filter((b) => b.BlockType === 'LINE').map((l) => ({ text: l.Text ?? '', confidence: l.Confidence ?? 0 })));
}

/** Where the MRZ lines are on the page (normalized box), if there is one. */
export function mrzZone(blocks: Block[]) {
  const lines = blocks.filter((b) => b.BlockType === 'LINE');
  // Only where the zone is: its repair happens once, when it is read.
  const mrz = mrzRun(lines.map((l) => l.Text ?? ''));
  if (!mrz) return null;
  const zone = lines.filter((l) => mrzCandidate(l.Text ?? '').length >= 28 && (l.Text ?? '').includes('<')).slice(-mrz.run.length);
  if (zone.length === 0) return null;
  const left = Math.min(...zone.map((l) => l.Geometry.BoundingBox.Left));
  const top = Math.min(...zone.map((l) => l.Geometry.BoundingBox.Top));
  const right = Math.max(...zone.map((l) => l.Geometry.BoundingBox.Left + l.Geometry.BoundingBox.Width));
  const bottom = Math.max(...zone.map((l) => l.Geometry.BoundingBox.Top + l.Geometry.BoundingBox.Height));
  return { Left: left, Top: top, Width: right - left, Height: bottom - top };
}

export function identityFromLines(lines: Array<{ text: string; confidence: number }>): IdentityResult {
  const found = findMrz(lines.map((l) => l.text));
  if (!found) {
    const labelled = identityFromLabels(lines);
    if (labelled) return labelled;
    throw new AppError(
      'UNPROCESSABLE',
      'file: no machine-readable zone (MRZ) or labelled identity fields were found; send a clear image of the document',
    );
  }
  const mrzLines = found.lines;
  correctDocumentNumber(mrzLines);
  const result = parse(mrzLines, { autocorrect: true });
  // Report the zone as understood: with the parser's own corrections applied.
  mrzLines.splice(0, mrzLines.length, ...autocorrected(mrzLines, result));
  const corrected = found.read.join('\n') !== mrzLines.join('\n');
  const mrz = { ...mrzCheck(mrzLines, result), read: found.read, corrected };
  // A field whose characters were mended rests on the check digits' word, not on what was printed: capped confidence.
  const mended = (name: string) =>
    result.details.some((d) => d.field === name && [...mrzLines[d.line]!.slice(d.start, d.end)].some((c, i) => found.read[d.line]![d.start + i] !== c));
  const ocrConfidence = Math.min(99, ...lines.slice(-mrzLines.length).map((l) => l.confidence));
  // A field confirmed by its check digit is as sure as it gets; a valid MRZ
  // overall vouches for the rest; otherwise the OCR's own confidence stands.
  const base = result.valid ? 90 : ocrConfidence;
  const fields = result.fields;
  const checks = mrz.checkDigits;
  const confidence = (valid: boolean | null) => (valid === true ? 99 : valid === false ? Math.round(base * 50) / 100 : base);
  const [firstName = '', ...middle] = (fields.firstName ?? '').split(' ').filter(Boolean);
  const code = fields.documentCode ?? '';
  const idType = code.startsWith('P') ? 'PASSPORT' : /^[IAC]/.test(code) ? 'ID_CARD' : 'OTHER';
  const MRZ_FIELD: Record<string, string> = {
    FIRST_NAME: 'firstName', MIDDLE_NAME: 'firstName', LAST_NAME: 'lastName', DOCUMENT_NUMBER: 'documentNumber', DATE_OF_BIRTH: 'birthDate',
    EXPIRATION_DATE: 'expirationDate', COUNTRY: 'issuingState', NATIONALITY: 'nationality', SEX: 'sex',
  };
  const field = (type: string, text: string | null | undefined, valid: boolean | null = null, date?: string | null): IdentityDocumentField => {
    const name = MRZ_FIELD[type];
    const wasMended = type === 'MRZ_CODE' ? corrected : Boolean(name && (mended(name) || mended(`${name}CheckDigit`)));
    return {
      Type: { Text: type },
      ValueDetection: {
        Text: text ?? '',
        ...(date ? { NormalizedValue: { Value: `${date}T00:00:00`, ValueType: 'Date' as const } } : {}),
        Confidence: text ? (wasMended ? Math.min(70, confidence(valid)) : confidence(valid)) : 0,
      },
    };
  };
  const birth = mrzDate(fields.birthDate, 'birth');
  const expiry = mrzDate(fields.expirationDate, 'expiry');
  return {
    idType,
    fields: [
      field('FIRST_NAME', firstName),
      field('LAST_NAME', fields.lastName),
      field('MIDDLE_NAME', middle.join(' ')),
      field('DOCUMENT_NUMBER', fields.documentNumber, checks.documentNumber),
      field('DATE_OF_BIRTH', birth ? `${birth.slice(8, 10)}/${birth.slice(5, 7)}/${birth.slice(0, 4)}` : fields.birthDate, checks.birthDate, birth),
      field('EXPIRATION_DATE', expiry ? `${expiry.slice(8, 10)}/${expiry.slice(5, 7)}/${expiry.slice(0, 4)}` : fields.expirationDate, checks.expirationDate, expiry),
      // The MRZ carries no issue date.
      field('DATE_OF_ISSUE', ''),
      field('ID_TYPE', idType === 'ID_CARD' ? 'ID CARD' : idType),
      field('COUNTRY', fields.issuingState),
      field('NATIONALITY', fields.nationality),
      field('SEX', fields.sex === 'male' ? 'M' : fields.sex === 'female' ? 'F' : (fields.sex ?? '')),
      field('MRZ_CODE', mrzLines.join('\n'), checks.composite),
    ],
    mrz,
  };
}

const LOOK_ALIKES: Record<string, string> = { O: '0', '0': 'O', I: '1', '1': 'I', B: '8', '8': 'B', S: '5', '5': 'S', Z: '2', '2': 'Z', G: '6', '6': 'G', D: '0', Q: '0' };

/**
 * The document number may mix letters and digits, so OCR confusions (O/0,
 * I/1, ...) survive autocorrection; its check digit tells which reading is
 * right. Tries single and double swaps; mends the line in place.
 */
function correctDocumentNumber(lines: string[]) {
  const [lineIndex, start] = lines.length === 3 ? [0, 5] : [1, 0];
  const line = lines[lineIndex]!;
  const number = line.slice(start, start + 9);
  const check = line[start + 9];
  const digit = (value: string) => {
    let sum = 0;
    [...value].forEach((c, i) => {
      const n = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
      sum += n * [7, 3, 1][i % 3]!;
    });
    return String(sum % 10);
  };
  if (!check || digit(number) === check) return;
  if (!/\d/.test(check)) {
    // A letter where the check digit belongs is a misread digit: the computed
    // one is kept only if the composite check (which covers both) then holds.
    const mended = lines.with(lineIndex, line.slice(0, start + 9) + digit(number) + line.slice(start + 10));
    const composite = parse(mended, { autocorrect: true }).details.find((d) => d.field === 'compositeCheckDigit');
    if (composite?.valid) lines[lineIndex] = mended[lineIndex]!;
    return;
  }
  const positions = [...number].map((c, i) => (LOOK_ALIKES[c] ? i : -1)).filter((i) => i >= 0);
  const swap = (value: string, i: number) => value.slice(0, i) + LOOK_ALIKES[value[i]!]! + value.slice(i + 1);
  const candidates = [
    ...positions.map((i) => swap(number, i)),
    ...positions.flatMap((i, k) => positions.slice(k + 1).map((j) => swap(swap(number, i), j))),
  ];
  const fixed = candidates.find((candidate) => digit(candidate) === check);
  if (fixed) lines[lineIndex] = line.slice(0, start) + fixed + line.slice(start + 9);
}

/** The verdict of an MRZ's check digits. */
export function mrzCheck(lines: string[], parsed?: ParseResult): MrzCheck {
  const result = parsed ?? parse(lines, { autocorrect: true });
  return {
    format: result.format,
    valid: result.valid,
    lines,
    checkDigits: {
      documentNumber: checkDigit(result, 'documentNumberCheckDigit'),
      birthDate: checkDigit(result, 'birthDateCheckDigit'),
      expirationDate: checkDigit(result, 'expirationDateCheckDigit'),
      composite: checkDigit(result, 'compositeCheckDigit'),
    },
  };
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** Day-first or month-first: what a printed "03/04/1985" means. */
export type DateOrder = 'DMY' | 'MDY';

const SLASHED = /(\d{1,2})[/-](\d{1,2})[/-](\d{4})/;

/**
 * A printed date as YYYY-MM-DD: ISO, "10.03.1985", "10 MAR 1985", or
 * "10/03/1985" read in `order` (without an order, only when day and month
 * cannot be confused). Null when it is not a valid date.
 */
export function printedDate(text: string, order: DateOrder | null = null): string | null {
  const iso = (y: number, m: number, d: number) => {
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? date.toISOString().slice(0, 10) : null;
  };
  let m = /(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /(\d{1,2})\.(\d{1,2})\.(\d{4})/.exec(text);
  if (m) return iso(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /(\d{1,2})\s+([A-Za-z]{3})[A-Za-z]*\.?\s+(\d{4})/.exec(text);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.toUpperCase()) + 1;
    return month ? iso(Number(m[3]), month, Number(m[1])) : null;
  }
  m = SLASHED.exec(text);
  if (m) {
    const [a, b, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (a > 12 && b <= 12) return iso(y, b, a);
    if (b > 12 && a <= 12) return iso(y, a, b);
    if (order) return order === 'DMY' ? iso(y, b, a) : iso(y, a, b);
  }
  return null;
}

const US_HINTS = /\b(?:USA|UNITED STATES|MM\/DD\/YYYY|DRIVER'?S? LICENSE)\b/i;
const DAY_FIRST_HINTS = /\b(?:DD\/MM\/YYYY|DRIVING LICEN[CS]E|LICENCE)\b/i;

/**
 * How a document writes its slashed dates, from its own evidence, strongest
 * first: a date that can only be read one way; the only order in which birth
 * comes before issue and issue before expiry; a printed format or the
 * document's country and spelling (US documents are month-first). Null when
 * nothing tells; such dates are then left un-normalized rather than guessed.
 */
export function dateOrder(dates: Partial<Record<'birth' | 'issue' | 'expiry', string>>, documentText: string): DateOrder | null {
  const slashed = Object.values(dates).map((text) => SLASHED.exec(text ?? '')).filter((m): m is RegExpExecArray => Boolean(m));
  const dayFirst = slashed.some((m) => Number(m[1]) > 12);
  const monthFirst = slashed.some((m) => Number(m[2]) > 12);
  if (dayFirst !== monthFirst) return dayFirst ? 'DMY' : 'MDY';
  if (dayFirst && monthFirst) return null; // contradictory: misread
  const consistent = (order: DateOrder) => {
    const [birth, issue, expiry] = (['birth', 'issue', 'expiry'] as const).map((k) => (dates[k] ? printedDate(dates[k]!, order) : undefined));
    if ([birth, issue, expiry].includes(null)) return false;
    const ordered = [birth, issue, expiry].filter((d): d is string => Boolean(d));
    return ordered.every((d, i) => i === 0 || ordered[i - 1]! < d);
  };
  const fits = (['DMY', 'MDY'] as const).filter(consistent);
  if (fits.length === 1) return fits[0]!;
  if (fits.length === 0) return null;
  const us = US_HINTS.test(documentText);
  const dayFirstDocument = DAY_FIRST_HINTS.test(documentText);
  if (us !== dayFirstDocument) return us ? 'MDY' : 'DMY';
  return null;
}

const LABELS: Array<[string, RegExp]> = [
  ['LAST_NAME', /^(?:\d+\.?\s*)?(?:surname|last name|family name|name)\s*[:.]\s*(.+)$/i],
  ['FIRST_NAME', /^(?:\d+\.?\s*)?(?:given names?|first names?|forenames?)\s*[:.]\s*(.+)$/i],
  ['DATE_OF_BIRTH', /^(?:\d+\.?\s*)?(?:date of birth|birth date|dob)\s*[:.]\s*(.+)$/i],
  ['DOCUMENT_NUMBER', /^(?:\d+\.?\s*)?(?:licen[cs]e (?:no|number)|dl (?:no|number)|document (?:no|number)|id (?:no|number)|number)\.?\s*[:.]?\s*([A-Z0-9][A-Z0-9 -]{3,})$/i],
  ['EXPIRATION_DATE', /^(?:\d+\.?\s*)?(?:expires|expiry|expiry date|expiration date|exp|valid until)\s*[:.]\s*(.+)$/i],
  ['DATE_OF_ISSUE', /^(?:\d+\.?\s*)?(?:issued|issue date|date of issue|iss)\s*[:.]\s*(.+)$/i],
  ['ADDRESS', /^(?:\d+\.?\s*)?address\s*[:.]\s*(.+)$/i],
];

/**
 * Identity fields of documents without an MRZ (drivers' licences, many ID
 * cards) from labelled lines ("Surname: ...", "Date of birth: ..."). Slashed
 * dates are normalized in the order the document itself shows (dateOrder).
 * Null when too little is found.
 */
export function identityFromLabels(lines: Array<{ text: string; confidence: number }>): IdentityResult | null {
  const found = new Map<string, { text: string; confidence: number }>();
  for (const line of lines) {
    for (const [type, pattern] of LABELS) {
      const match = pattern.exec(line.text.trim());
      if (match && !found.has(type)) found.set(type, { text: match[1]!.trim(), confidence: line.confidence });
    }
  }
  if (!found.has('LAST_NAME') || !(found.has('DATE_OF_BIRTH') || found.has('DOCUMENT_NUMBER'))) return null;
  const all = lines.map((l) => l.text).join(' ').toLowerCase();
  const idType = /driv(?:er|ing)'?s? licen[cs]e/.test(all) ? 'DRIVERS_LICENSE' : /identity card|id card/.test(all) ? 'ID_CARD' : 'OTHER';
  const [first = '', ...middle] = (found.get('FIRST_NAME')?.text ?? '').split(/\s+/).filter(Boolean);
  const field = (type: string, text: string, confidence: number, date?: string | null): IdentityDocumentField => ({
    Type: { Text: type },
    ValueDetection: {
      Text: text,
      ...(date ? { NormalizedValue: { Value: `${date}T00:00:00`, ValueType: 'Date' as const } } : {}),
      Confidence: text ? Math.round(Math.min(confidence, 95) * 100) / 100 : 0,
    },
  });
  const value = (type: string) => found.get(type) ?? { text: '', confidence: 0 };
  const order = dateOrder(
    { birth: found.get('DATE_OF_BIRTH')?.text, issue: found.get('DATE_OF_ISSUE')?.text, expiry: found.get('EXPIRATION_DATE')?.text },
    lines.map((l) => l.text).join('\n'),
  );
  const dated = (type: string) => field(type, value(type).text, value(type).confidence, printedDate(value(type).text, order));
  const firstConfidence = value('FIRST_NAME').confidence;
  return {
    idType,
    fields: [
      field('FIRST_NAME', first, firstConfidence),
      field('LAST_NAME', value('LAST_NAME').text, value('LAST_NAME').confidence),
      field('MIDDLE_NAME', middle.join(' '), firstConfidence),
      field('DOCUMENT_NUMBER', value('DOCUMENT_NUMBER').text, value('DOCUMENT_NUMBER').confidence),
      dated('DATE_OF_BIRTH'),
      dated('EXPIRATION_DATE'),
      dated('DATE_OF_ISSUE'),
      field('ID_TYPE', idType === 'DRIVERS_LICENSE' ? 'DRIVER LICENSE FRONT' : idType === 'ID_CARD' ? 'ID CARD' : 'OTHER', 90),
      field('ADDRESS', value('ADDRESS').text, value('ADDRESS').confidence),
      field('MRZ_CODE', '', 0),
    ],
    mrz: { format: 'NONE', valid: false, lines: [], checkDigits: { documentNumber: null, birthDate: null, expirationDate: null, composite: null } },
  };
}
