import type { Logger } from 'pino';
import { AppError } from '../../errors.ts';
import type { AnalysisEngine, EngineInput } from './engine.ts';
import { type EngineRequest, type EngineResult, EngineProcess, RequestNotStarted } from './engine-process.ts';
import type { LocalEngineOptions } from './local.ts';
import type { OcrBackendName } from './ocr/backend.ts';

/** Processes a request may lose before it begins (they died as they started) until the engine gives up on it. */
const MAX_LOST = 3;

interface Waiting {
  request: EngineRequest;
  /** Processes that ended before beginning it. */
  lost: number;
  resolve(result: EngineResult): void;
  reject(error: Error): void;
}

export interface IsolatedEngineOptions {
  engine: LocalEngineOptions;
  timeoutMs: number;
  logger: Logger;
  /** Engine processes: analyses that run at once. */
  processes?: number;
  /** Memory each process may take for an analysis (see EngineProcess). */
  memoryLimitMb?: number;
}

export type IsolatedEngine = AnalysisEngine & {
  stop(): Promise<void>;
  /** The engine processes' pids (diagnostics, tests). */
  readonly pids: number[];
  readonly ocr: OcrBackendName;
};

/**
 * The local engine in child processes: one analysis at a time per process,
 * a time and a memory limit per analysis, and a fresh process after a
 * crash or a timeout. A process that dies fails only the analysis it was
 * running; one handed to it that had not begun goes to another process.
 * The server itself never runs OCR or PDF rendering. Which analysis runs
 * next is decided before (AnalysisService's fair slots); here they are
 * taken in turn.
 */
export function isolatedLocalEngine(options: IsolatedEngineOptions): IsolatedEngine {
  const size = options.processes ?? 1;
  const processes: EngineProcess[] = [];
  const waiting: Waiting[] = [];
  let stopping = false;

  function idleProcess(): EngineProcess | undefined {
    for (let i = processes.length - 1; i >= 0; i--) if (!processes[i]!.usable && !processes[i]!.busy) processes.splice(i, 1);
    const idle = processes.find((p) => p.usable && !p.busy);
    if (idle || processes.length >= size) return idle;
    const started = new EngineProcess({ timeoutMs: options.timeoutMs, memoryLimitMb: options.memoryLimitMb ?? 0, logger: options.logger });
    processes.push(started);
    return started;
  }

  function dispatch() {
    while (waiting.length && !stopping) {
      const process = idleProcess();
      if (!process) return;
      const next = waiting.shift()!;
      process.run(next.request).then(next.resolve, (error: Error) => {
        if (error instanceof RequestNotStarted && ++next.lost < MAX_LOST) {
          // Nothing of it ran: the next process takes it.
          waiting.unshift(next);
        } else if (error instanceof RequestNotStarted) {
          options.logger.error({ err: error }, 'analysis engine processes end as they start');
          next.reject(new AppError('SERVICE_UNAVAILABLE', 'The analysis engine could not start; try again later'));
        } else {
          next.reject(error);
        }
      }).finally(dispatch);
    }
  }

  function run(kind: EngineRequest['kind'], input: EngineInput): Promise<EngineResult> {
    if (stopping) return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'The analysis engine is stopping'));
    return new Promise((resolve, reject) => {
      waiting.push({ request: { kind, data: input.data, contentType: input.contentType, options: options.engine }, lost: 0, resolve, reject });
      dispatch();
    });
  }

  return {
    name: 'local',
    ocr: options.engine.ocr,
    get pids() {
      return processes.filter((p) => p.usable && p.pid !== undefined).map((p) => p.pid!);
    },
    analyze: async (input) => (await run('analyze', input)).blocks ?? [],
    identify: async (input) => {
      const { identity } = await run('identify', input);
      if (!identity) throw new AppError('UNPROCESSABLE', 'file: no identity fields found');
      return identity;
    },
    /** Fails what has not begun, ends the processes (and what they run) and waits until they have exited. */
    stop: async () => {
      stopping = true;
      for (const entry of waiting.splice(0)) entry.reject(new AppError('SERVICE_UNAVAILABLE', 'The analysis engine is stopping'));
      await Promise.all(processes.splice(0).map((p) => p.stop()));
    },
  };
}
