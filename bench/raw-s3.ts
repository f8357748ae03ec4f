// Bench helper: the raw AWS SDK doing the file benchmark's work (concurrent
// PutObject of local files, then concurrent GetObject), in its own process so
// its peak memory can be read on its own.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { EMBEDDED_CREDENTIALS } from '../src/storage/embedded-s3.ts';

const [endpoint, bucket, ...paths] = process.argv.slice(2);
const client = new S3Client({
  endpoint, region: 'us-east-1', forcePathStyle: true, credentials: EMBEDDED_CREDENTIALS,
  requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
});
const keys = paths.map((_, i) => `raw/${process.pid}-${i}.bin`);

// Memory before any transfer, so the bench can report what the work added.
const idleRss = process.memoryUsage().rss;
let started = performance.now();
await Promise.all(
  paths.map(async (path, i) => {
    const { size } = await stat(path!);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: keys[i], Body: createReadStream(path!), ContentLength: size }));
  }),
);
const uploadMs = performance.now() - started;

started = performance.now();
let downloaded = 0;
await Promise.all(
  keys.map(async (key) => {
    const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    for await (const chunk of result.Body as Readable) downloaded += (chunk as Buffer).length;
  }),
);
const downloadMs = performance.now() - started;
// maxRSS: the process's peak resident set, in kB.
const peakRss = process.resourceUsage().maxRSS * 1024;
process.stdout.write(`${JSON.stringify({ uploadMs, downloadMs, downloaded, idleRss, peakRss })}\n`);
