// `npm run bench`: runs the benchmarks and writes bench/results.md.
import { cpus, totalmem, type } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { runFileBench } from './files.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fixed = (value: number) => value.toFixed(1);

const machine = `${type()} ${process.arch}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`Machine: ${machine}`);

const files = await runFileBench();
const pick = (side: 'app' | 'raw', metric: 'uploadMBps' | 'downloadMBps' | 'peakMB') => median(files.rounds.map((r) => r[side][metric]));
const rows = [
  ['Upload throughput (MB/s)', 'uploadMBps'],
  ['Download throughput (MB/s)', 'downloadMBps'],
  ['Peak memory above idle (MB)', 'peakMB'],
] as const;
const table = rows.map(([label, metric]) => {
  const app = pick('app', metric);
  const raw = pick('raw', metric);
  return `| ${label} | ${fixed(app)} | ${fixed(raw)} | ${(app / raw).toFixed(2)} |`;
});
const perRound = files.rounds
  .map((r, i) => `| ${i + 1} | ${fixed(r.app.uploadMBps)} / ${fixed(r.raw.uploadMBps)} | ${fixed(r.app.downloadMBps)} / ${fixed(r.raw.downloadMBps)} | ${fixed(r.app.peakMB)} / ${fixed(r.raw.peakMB)} |`)
  .join('\n');

const report = `# Benchmark results

Written by \`npm run bench\` on ${new Date().toISOString()}.
Machine: ${machine}. Loopback only; figures from one run, side by side.

## Files: ${files.files} concurrent uploads and downloads of ${files.fileBytes / 1e6} MB

The app: REST \`POST /v1/files/upload/public\` (multipart, type detection, SHA-256,
store, record), then \`GET\` of each public URL (streamed from the store through the app).
The raw SDK: \`PutObject\` of the same files from disk, then \`GetObject\`, in its own
process. Both against the same embedded S3 server in a third process. Peak memory is
the process's peak resident set during the work minus its resident set just before.
Median of ${files.rounds.length} rounds.

| Metric | App | Raw S3 SDK | App / raw |
|---|---|---|---|
${table.join('\n')}

Per round (app / raw):

| Round | Upload MB/s | Download MB/s | Peak MB |
|---|---|---|---|
${perRound}
`;
await writeFile(new URL('./results.md', import.meta.url), report);
console.log(report);
