// Regression guard for the engine's handling of bad scans (the bench measures
// the whole corpus; these are the cases that once failed).
import { afterAll, describe, expect, it } from 'vitest';
import { wordRecall } from '../../bench/analysis.ts';
import { buildCorpus } from '../../bench/corpus.ts';
import { analyzeLocally } from '../../src/analysis/engines/local.ts';
import { stopOcr } from '../../src/analysis/engines/ocr.ts';
import { deriveViews } from '../../src/analysis/views.ts';

const LIMITS = { maxPages: 5, maxMegapixels: 60 };
afterAll(() => stopOcr());

describe('degraded scans', async () => {
  const corpus = await buildCorpus();
  const sample = (name: string) => corpus.find((s) => s.name === name)!;

  it('reads a speckled scan (median filter before OCR)', async () => {
    const noisy = sample('scan: noise');
    const views = deriveViews(await analyzeLocally(noisy.data, noisy.contentType, LIMITS));
    expect(wordRecall(noisy.truth.words, views.textContent)).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it('reads a page scanned sideways (tries the other orientations when the read is poor)', async () => {
    const turned = sample('scan: rotated-90');
    const views = deriveViews(await analyzeLocally(turned.data, turned.contentType, LIMITS));
    expect(wordRecall(turned.truth.words, views.textContent)).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it('finds the table of a skewed scan (rows grouped after deskewing)', async () => {
    const skewed = sample('scan: skew');
    const views = deriveViews(await analyzeLocally(skewed.data, skewed.contentType, LIMITS));
    // Structure exactly; cell text as the bench scores it (case-insensitive: OCR reads a skewed "US" as "us").
    const lower = (tables: string[][][]) => tables.map((t) => t.map((row) => row.map((cell) => cell.toLowerCase())));
    expect(lower(views.tables.map((t) => t.rows))).toEqual(lower(skewed.truth.tables));
  }, 60_000);
});
