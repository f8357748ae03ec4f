// Regression guard for the engine's handling of bad scans (the bench measures
// the whole corpus; these are the cases that once failed).
import { afterAll, describe, expect, it } from 'vitest';
import { wordRecall } from '../../bench/analysis.ts';
import { buildCorpus } from '../../bench/corpus.ts';
import { analyzeLocally } from '../../src/analysis/engines/local.ts';
import { stopOcr } from '../../src/analysis/engines/ocr/recognize.ts';
import { deriveViews } from '../../src/analysis/views.ts';
import { OCR_BACKENDS } from '../helpers/ocr.ts';

afterAll(() => stopOcr());

// Tables compared by structure exactly, cell text as the bench scores it
// (case-insensitive: tesseract.js reads a lone "US" as "us").
const lower = (tables: string[][][]) => tables.map((t) => t.map((row) => row.map((cell) => cell.toLowerCase())));

describe.each(OCR_BACKENDS)('degraded scans, OCR by %s', async (ocr) => {
  const LIMITS = { maxPages: 5, maxMegapixels: 60, ocr };
  const corpus = await buildCorpus();
  const sample = (name: string) => corpus.find((s) => s.name === name)!;

  it('reads a speckled scan (median filter before OCR)', async () => {
    const noisy = sample('scan: noise');
    const views = deriveViews(await analyzeLocally(noisy.data, noisy.contentType, LIMITS));
    expect(wordRecall(noisy.truth.words, views.textContent)).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it.each(['scan: rotated-90', 'scan: upside-down'])('reads the page and its table when turned (%s)', async (name) => {
    const turned = sample(name);
    const views = deriveViews(await analyzeLocally(turned.data, turned.contentType, LIMITS));
    expect(wordRecall(turned.truth.words, views.textContent)).toBeGreaterThanOrEqual(0.95);
    // Sideways text read down the page has words but no usable rows: the table proves the page was turned upright.
    expect(lower(views.tables.map((t) => t.rows))).toEqual(lower(turned.truth.tables));
  }, 60_000);

  it('finds the table of a skewed scan (rows grouped after deskewing)', async () => {
    const skewed = sample('scan: skew');
    const views = deriveViews(await analyzeLocally(skewed.data, skewed.contentType, LIMITS));
    expect(lower(views.tables.map((t) => t.rows))).toEqual(lower(skewed.truth.tables));
  }, 60_000);
});
