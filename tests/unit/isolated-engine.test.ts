import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedLocalEngine } from '../../src/analysis/engines/isolated.ts';
import { scannedPdf, textPdf } from '../helpers/sample-files.ts';

const engine = isolatedLocalEngine({ engine: { maxPages: 5, maxMegapixels: 40, ocr: 'tesseract.js' }, timeoutMs: 20_000, logger: pino({ level: 'silent' }) });
afterAll(() => engine.stop());

describe('local engine in its own process', () => {
  it('analyzes in the child and survives the child dying mid-analysis', async () => {
    const pdf = await textPdf([['Hello from the child']]);
    const blocks = await engine.analyze({ data: pdf, contentType: 'application/pdf', key: 'k' });
    expect(blocks.find((b) => b.BlockType === 'LINE')?.Text).toBe('Hello from the child');
    const firstPid = engine.pid;
    expect(firstPid).toBeGreaterThan(0);
    expect(firstPid).not.toBe(process.pid);

    // A slow OCR job; the engine process is killed while it runs, as a crash would.
    const slow = engine.analyze({ data: await scannedPdf(['Killed midway']), contentType: 'application/pdf', key: 'k' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(engine.pid!, 'SIGKILL');
    await expect(slow).rejects.toMatchObject({ status: 422, message: 'file: the analysis engine failed on this file' });

    // A fresh engine process takes the next job.
    const again = await engine.analyze({ data: pdf, contentType: 'application/pdf', key: 'k' });
    expect(again.length).toBe(blocks.length);
    expect(engine.pid).not.toBe(firstPid);
  }, 60_000);

  it('gives up on an analysis past the time limit, and keeps serving', async () => {
    const quick = isolatedLocalEngine({ engine: { maxPages: 5, maxMegapixels: 40, ocr: 'tesseract.js' }, timeoutMs: 50, logger: pino({ level: 'silent' }) });
    try {
      await expect(quick.analyze({ data: await scannedPdf(['Too slow']), contentType: 'application/pdf', key: 'k' })).rejects.toMatchObject({
        status: 422,
        message: 'file: the analysis took longer than 0.05 s',
      });
    } finally {
      await quick.stop();
    }
  }, 30_000);
});
