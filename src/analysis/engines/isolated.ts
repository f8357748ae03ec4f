import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { AppError, type ErrorCode } from '../../errors.ts';
import type { Block } from '../blocks.ts';
import type { IdentityResult } from '../identity.ts';
import type { AnalysisEngine, EngineInput } from './engine.ts';
import type { LocalEngineOptions } from './local.ts';
import type { OcrBackendName } from './ocr/backend.ts';

const WORKER = fileURLToPath(new URL('./local-worker.ts', import.meta.url));

interface Pending {
  resolve(value: { blocks?: Block[]; identity?: IdentityResult }): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * The local engine in a child process: one analysis at a time per child,
 * a time limit per analysis, and a fresh child after a crash or a timeout.
 * The server itself never runs OCR or PDF rendering.
 */
export function isolatedLocalEngine(options: {
  engine: LocalEngineOptions;
  timeoutMs: number;
  logger: Logger;
}): AnalysisEngine & { stop(): Promise<void>; readonly pid: number | undefined; readonly ocr: OcrBackendName } {
  let child: ChildProcess | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let queue: Promise<unknown> = Promise.resolve();

  function failAll(error: Error) {
    for (const [id, entry] of pending) {
      clearTimeout(entry.timer);
      entry.reject(error);
      pending.delete(id);
    }
  }

  function start(): ChildProcess {
    const process = fork(WORKER, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    process.on('message', (message: { id: number; ok: boolean; blocks?: Block[]; identity?: IdentityResult; error?: { code: string; message: string } }) => {
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      clearTimeout(entry.timer);
      if (message.ok) entry.resolve(message);
      else if (message.error?.code === 'INTERNAL_SERVER_ERROR') entry.reject(new Error(message.error.message));
      else entry.reject(new AppError((message.error?.code ?? 'UNPROCESSABLE') as ErrorCode, message.error?.message ?? 'Analysis failed'));
    });
    process.on('exit', (code, signal) => {
      if (child === process) child = undefined;
      if (pending.size) {
        options.logger.error({ code, signal }, 'analysis engine process died');
        failAll(new AppError('UNPROCESSABLE', 'file: the analysis engine failed on this file'));
      }
    });
    return process;
  }

  function run(kind: 'analyze' | 'identify', input: EngineInput) {
    // One analysis at a time: OCR already uses a whole core.
    const result = queue.then(
      () =>
        new Promise<{ blocks?: Block[]; identity?: IdentityResult }>((resolve, reject) => {
          child ??= start();
          const id = nextId++;
          const timer = setTimeout(() => {
            pending.delete(id);
            reject(new AppError('UNPROCESSABLE', `file: the analysis took longer than ${options.timeoutMs / 1000} s`));
            child?.kill('SIGKILL');
          }, options.timeoutMs);
          pending.set(id, { resolve, reject, timer });
          child.send({ id, kind, data: input.data.toString('base64'), contentType: input.contentType, options: options.engine });
        }),
    );
    queue = result.catch(() => {});
    return result;
  }

  return {
    name: 'local',
    ocr: options.engine.ocr,
    /** The engine process's pid, if one is running (diagnostics, tests). */
    get pid() {
      return child?.pid;
    },
    analyze: async (input) => (await run('analyze', input)).blocks ?? [],
    identify: async (input) => {
      const { identity } = await run('identify', input);
      if (!identity) throw new AppError('UNPROCESSABLE', 'file: no identity fields found');
      return identity;
    },
    stop: async () => {
      failAll(new AppError('SERVICE_UNAVAILABLE', 'The analysis engine is stopping'));
      child?.kill('SIGTERM');
      child = undefined;
    },
  };
}
