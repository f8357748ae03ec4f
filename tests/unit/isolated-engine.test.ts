import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedLocalEngine } from '../../src/analysis/engines/isolated.ts';
import { largePagePdf, slowScanPdf } from '../helpers/bombs.ts';
import { scannedPdf, textPdf } from '../helpers/sample-files.ts';

const logger = pino({ level: 'silent' });
const LIMITS = { maxPages: 5, maxMegapixels: 40, ocr: 'tesseract.js' } as const;
const engine = isolatedLocalEngine({ engine: LIMITS, timeoutMs: 20_000, logger });
afterAll(() => engine.stop());

/** The process group of a process, from /proc (null once it has gone). */
function processGroup(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): state, ppid, pgrp, ...
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return null;
  }
}

const alive = (pid: number) => processGroup(pid) !== null && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));

describe('local engine in its own process', () => {
  it('analyzes in the child and survives the child dying mid-analysis', async () => {
    const pdf = await textPdf([['Hello from the child']]);
    const blocks = await engine.analyze({ data: pdf, contentType: 'application/pdf', key: 'k' });
    expect(blocks.find((b) => b.BlockType === 'LINE')?.Text).toBe('Hello from the child');
    const [firstPid] = engine.pids;
    expect(firstPid).toBeGreaterThan(0);
    expect(firstPid).not.toBe(process.pid);

    // A slow OCR job; the engine process is killed while it runs, as a crash would.
    const slow = engine.analyze({ data: await scannedPdf(['Killed midway']), contentType: 'application/pdf', key: 'k' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(engine.pids[0]!, 'SIGKILL');
    await expect(slow).rejects.toMatchObject({ status: 422, message: 'file: the analysis engine failed on this file' });

    // A fresh engine process takes the next job.
    const again = await engine.analyze({ data: pdf, contentType: 'application/pdf', key: 'k' });
    expect(again.length).toBe(blocks.length);
    expect(engine.pids).not.toContain(firstPid);
  }, 60_000);

  it('runs in a process group of its own, so a Ctrl-C to the service\'s group does not reach it', async () => {
    await engine.analyze({ data: await textPdf([['grouped']]), contentType: 'application/pdf', key: 'k' });
    const [pid] = engine.pids;
    expect(processGroup(pid!)).toBe(pid);
    expect(processGroup(process.pid)).not.toBe(pid);
  }, 30_000);

  it('runs below the service in CPU priority, its own session included (autogroup)', async () => {
    await engine.analyze({ data: await textPdf([['niced']]), contentType: 'application/pdf', key: 'k' });
    const [pid] = engine.pids;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 19 (nice), counted after the command name.
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])).toBe(10);
    let autogroup: string | null = null;
    try {
      autogroup = readFileSync(`/proc/${pid}/autogroup`, 'utf8');
    } catch {
      // A kernel without autogroup: nice alone orders the processes.
    }
    if (autogroup !== null) expect(autogroup).toMatch(/ nice 10$/m);
  }, 30_000);

  it('gives up on an analysis past the time limit, and keeps serving', async () => {
    const quick = isolatedLocalEngine({ engine: LIMITS, timeoutMs: 50, logger });
    try {
      await expect(quick.analyze({ data: await scannedPdf(['Too slow']), contentType: 'application/pdf', key: 'k' })).rejects.toMatchObject({
        status: 422,
        message: 'file: the analysis took longer than 0.05 s',
      });
    } finally {
      await quick.stop();
    }
  }, 30_000);

  it('fails only the analysis that timed out, not the one waiting behind it for the same process', async () => {
    const one = isolatedLocalEngine({ engine: { ...LIMITS, maxPages: 30 }, timeoutMs: 8_000, logger, processes: 1 });
    try {
      // Many scanned pages: OCR takes well past the time limit.
      const slow = one.analyze({ data: await slowScanPdf(15), contentType: 'application/pdf', key: 'slow' });
      const next = one.analyze({ data: await textPdf([['Waiting behind']]), contentType: 'application/pdf', key: 'next' });
      await expect(slow).rejects.toMatchObject({ status: 422, message: 'file: the analysis took longer than 8 s' });
      const blocks = await next;
      expect(blocks.find((b) => b.BlockType === 'LINE')?.Text).toBe('Waiting behind');
    } finally {
      await one.stop();
    }
  }, 60_000);

  it('ends an analysis past the memory limit in its own process (422 naming the limit), then serves the next', async () => {
    // Rendering a 3000 x 3000 pt page at up to 100 megapixels takes more than 200 MB.
    const capped = isolatedLocalEngine({ engine: { ...LIMITS, maxMegapixels: 100 }, timeoutMs: 60_000, logger, memoryLimitMb: 200, processes: 1 });
    try {
      await expect(capped.analyze({ data: await largePagePdf(3000, 3000), contentType: 'application/pdf', key: 'big' })).rejects.toMatchObject({
        status: 422,
        message: 'file: the analysis needed more memory than the limit of 200 MB',
      });
      const blocks = await capped.analyze({ data: await textPdf([['Still here']]), contentType: 'application/pdf', key: 'next' });
      expect(blocks.find((b) => b.BlockType === 'LINE')?.Text).toBe('Still here');
    } finally {
      await capped.stop();
    }
  }, 60_000);

  it('stops its processes and waits until they have exited', async () => {
    const stopping = isolatedLocalEngine({ engine: LIMITS, timeoutMs: 20_000, logger, processes: 2 });
    await Promise.all([
      stopping.analyze({ data: await textPdf([['one']]), contentType: 'application/pdf', key: 'a' }),
      stopping.analyze({ data: await textPdf([['two']]), contentType: 'application/pdf', key: 'b' }),
    ]);
    const pids = stopping.pids;
    expect(pids).toHaveLength(2);
    await stopping.stop();
    expect(pids.filter(alive)).toEqual([]);
  }, 30_000);
});
