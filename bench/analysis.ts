// Document analysis quality and speed on the generated corpus (bench/corpus.ts).
import { analyzeLocally, identifyLocally } from '../src/analysis/engines/local.ts';
import type { OcrBackendName } from '../src/analysis/engines/ocr/backend.ts';
import { stopOcr } from '../src/analysis/engines/ocr/recognize.ts';
import { deriveViews } from '../src/analysis/views.ts';
import type { Sample } from './corpus.ts';

const normalize = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** Share of ground-truth words found in the output (as a multiset). */
export function wordRecall(expected: string[], text: string): number {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().split(/\s+/)) counts.set(word, (counts.get(word) ?? 0) + 1);
  let found = 0;
  for (const word of expected.map((w) => w.toLowerCase())) {
    const left = counts.get(word) ?? 0;
    if (left > 0) {
      found++;
      counts.set(word, left - 1);
    }
  }
  return expected.length ? found / expected.length : 1;
}

/** Character error rate: edit distance over the reference length. */
export function characterErrorRate(reference: string, hypothesis: string): number {
  const a = normalize(reference);
  const b = normalize(hypothesis);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return a.length ? previous[b.length]! / a.length : 0;
}

function tableCellAccuracy(expected: string[][][], found: string[][][]): number {
  let total = 0;
  let right = 0;
  for (const [index, table] of expected.entries()) {
    const candidate = found[index] ?? [];
    for (const [r, row] of table.entries()) {
      for (const [c, cell] of row.entries()) {
        total++;
        if (normalize(candidate[r]?.[c] ?? '') === normalize(cell)) right++;
      }
    }
  }
  return total ? right / total : 1;
}

function keyValueF1(expected: Array<[string, string]>, found: Array<{ key: string; value: string }>): number {
  const want = new Set(expected.map(([k, v]) => `${normalize(k)}=${normalize(v)}`));
  const got = found.map((f) => `${normalize(f.key)}=${normalize(f.value)}`);
  const hits = got.filter((pair) => want.has(pair)).length;
  if (!want.size && !got.length) return 1;
  const precision = got.length ? hits / got.length : 0;
  const recall = want.size ? hits / want.size : 0;
  return precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
}

export interface AnalysisBenchRow {
  sample: string;
  category: Sample['category'];
  pages: number;
  seconds: number;
  wordRecall?: number;
  cer?: number;
  tableCells?: number;
  keyValueF1?: number;
  mrzFields?: number;
}

export interface AnalysisBenchRun {
  ocr: OcrBackendName;
  rows: AnalysisBenchRow[];
  /** Seconds spent starting OCR and pdf.js (once per engine process). */
  warmUpSeconds: number;
}

/** The local engine over the whole corpus with one OCR backend. */
export async function runAnalysisBench(ocr: OcrBackendName, corpus: Sample[]): Promise<AnalysisBenchRun> {
  const LIMITS = { maxPages: 30, maxMegapixels: 60, ocr };
  const rows: AnalysisBenchRow[] = [];
  // Warm OCR and pdf.js so the first sample does not pay their start-up (reported apart).
  const warmStarted = performance.now();
  await analyzeLocally(corpus.find((s) => s.category === 'clean-image')!.data, 'image/png', LIMITS);
  await analyzeLocally(corpus.find((s) => s.category === 'clean-pdf')!.data, 'application/pdf', LIMITS);
  const warmUpSeconds = (performance.now() - warmStarted) / 1000;
  for (const sample of corpus) {
    const started = performance.now();
    if (sample.passport) {
      const holder = sample.passport;
      const identity = await identifyLocally(sample.data, sample.contentType, LIMITS);
      const seconds = (performance.now() - started) / 1000;
      const value = (type: string) => identity.fields.find((f) => f.Type.Text === type)?.ValueDetection;
      const date = (yymmdd: string, century: number) => `${century + Number(yymmdd.slice(0, 2))}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4)}T00:00:00`;
      const checks = [
        value('FIRST_NAME')?.Text === holder.firstNames[0],
        value('LAST_NAME')?.Text === holder.lastName,
        value('MIDDLE_NAME')?.Text === holder.firstNames.slice(1).join(' '),
        value('DOCUMENT_NUMBER')?.Text === holder.documentNumber,
        value('DATE_OF_BIRTH')?.NormalizedValue?.Value === date(holder.birthDate, 1900),
        value('EXPIRATION_DATE')?.NormalizedValue?.Value === date(holder.expirationDate, 2000),
        value('NATIONALITY')?.Text === holder.nationality,
        identity.mrz.valid,
      ];
      rows.push({ sample: sample.name, category: sample.category, pages: 1, seconds, mrzFields: checks.filter(Boolean).length / checks.length });
      continue;
    }
    const blocks = await analyzeLocally(sample.data, sample.contentType, LIMITS);
    const seconds = (performance.now() - started) / 1000;
    const views = deriveViews(blocks);
    rows.push({
      sample: sample.name,
      category: sample.category,
      pages: sample.pages,
      seconds,
      wordRecall: wordRecall(sample.truth.words, views.textContent),
      cer: characterErrorRate(sample.truth.words.join(' '), views.textContent),
      tableCells: tableCellAccuracy(sample.truth.tables, views.tables.map((t) => t.rows)),
      keyValueF1: keyValueF1(sample.truth.forms, views.forms),
    });
  }
  await stopOcr();
  return { ocr, rows, warmUpSeconds };
}
