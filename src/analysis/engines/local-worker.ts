// The local engine's process (src/analysis/engines/engine-process.ts):
// analyses run here so that a crash in native code (canvas rendering), a
// runaway page or a file that exhausts memory ends this process, not the
// server. Argument: the memory limit in MB.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { AppError } from '../../errors.ts';
import type { EngineRequest, WorkerMessage } from './engine-process.ts';
import { outOfMemory } from './engine-process.ts';
import { analyzeLocally, identifyLocally } from './local.ts';

const memoryLimitMb = Number(process.argv[2]);
const MB = 1024 * 1024;

/** Bytes of the process's data segment (heap, buffers, canvases): what RLIMIT_DATA counts. */
function dataSegment(): number | null {
  try {
    return Number(/^VmData:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024 || null;
  } catch {
    return null;
  }
}

/**
 * Limits the data segment to what the process holds now (code and libraries
 * loaded) plus the limit: past it allocations fail and the process ends
 * alone. util-linux's prlimit sets it (Node has no setrlimit); where it is
 * missing, only V8's heap is limited (--max-old-space-size).
 */
function limitMemory(): number | null {
  const now = dataSegment();
  if (!now || !memoryLimitMb) return null;
  const limit = now + memoryLimitMb * MB;
  try {
    execFileSync('prlimit', [`--pid=${process.pid}`, `--data=${limit}`], { stdio: 'ignore', timeout: 5_000 });
    return limit;
  } catch {
    process.emitWarning(`analysis worker: no memory limit beyond V8's heap (prlimit failed)`);
    return null;
  }
}

// pdf.js loads its worker code on the first document (its "fake worker" in
// Node): about 200 MB, loaded here first so that the limit counts only what analyses take.
const PDFJS_WORKER = 'pdfjs-dist/legacy/build/pdf.worker.mjs'; // (untyped module)
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(PDFJS_WORKER);
const limit = limitMemory();
// OCR is batch work: below the service's request handling on a busy machine
// (its tesseract children inherit this), so one organization's analyses do
// not stretch every other request's latency. Raising one's own niceness needs no rights.
try {
  setPriority(10);
} catch {
  // Not supported here: the worker runs at the service's priority.
}
lowerSessionPriority();

/**
 * The worker leads its own session (`detached`), and where the kernel groups
 * sessions for scheduling (autogroup, most desktop and server Linux), a
 * process's nice value counts only inside its session: each worker's session
 * would weigh as much as the whole service. Lowering the session's own weight
 * restores the order. The kernel takes one unprivileged change per 100 ms
 * machine-wide (EAGAIN), hence the retries.
 */
function lowerSessionPriority() {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync('/proc/self/autogroup', '10');
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return; // no autogroup here: nice alone applies
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 110);
    }
  }
}

/** Whether a failure was an allocation refused at the limit (rather than a bug or a bad file). */
function wasOutOfMemory(error: unknown): boolean {
  if (/allocation failed|out of memory|skia surface|Cannot allocate/i.test(String((error as Error)?.message ?? error))) return true;
  const now = dataSegment();
  return limit !== null && now !== null && now > limit - 64 * MB;
}

const send = (message: WorkerMessage) => process.send?.(message);

process.on('message', async (message: Omit<EngineRequest, 'data'> & { id: number; data: Uint8Array }) => {
  send({ type: 'started', id: message.id });
  try {
    const data = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
    const result =
      message.kind === 'identify'
        ? { identity: await identifyLocally(data, message.contentType, message.options) }
        : { blocks: await analyzeLocally(data, message.contentType, message.options) };
    send({ type: 'done', id: message.id, ok: true, ...result });
  } catch (error) {
    const typed =
      error instanceof AppError ? { code: error.code, message: error.message }
      : wasOutOfMemory(error) ? { code: 'UNPROCESSABLE', message: outOfMemory(memoryLimitMb) }
      : { code: 'INTERNAL_SERVER_ERROR', message: String((error as Error)?.message ?? error) };
    send({ type: 'done', id: message.id, ok: false, error: typed });
  }
});

// The service is gone (it died, or stopped without stopping this process): nothing more will come.
process.on('disconnect', () => process.exit(0));
