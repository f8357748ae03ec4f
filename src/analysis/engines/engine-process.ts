import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { AppError, type ErrorCode } from '../../errors.ts';
import type { Block } from '../blocks.ts';
import type { IdentityResult } from '../identity.ts';
import type { LocalEngineOptions } from './local.ts';

const WORKER = fileURLToPath(new URL('./local-worker.ts', import.meta.url));
/** How long a stopping process may take to exit before it is killed. */
const STOP_GRACE_MS = 5_000;

export interface EngineRequest {
  kind: 'analyze' | 'identify';
  data: Buffer;
  contentType: string;
  options: LocalEngineOptions;
}

export interface EngineResult {
  blocks?: Block[];
  identity?: IdentityResult;
}

/** What the worker sends back (src/analysis/engines/local-worker.ts). */
export type WorkerMessage =
  | { type: 'started'; id: number }
  | { type: 'done'; id: number; ok: true; blocks?: Block[]; identity?: IdentityResult }
  | { type: 'done'; id: number; ok: false; error: { code: string; message: string } };

/** The process ended before it began the request: nothing of the file ran, so another process may take it. */
export class RequestNotStarted extends Error {}

interface Running {
  id: number;
  started: boolean;
  resolve(result: EngineResult): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export interface EngineProcessOptions {
  timeoutMs: number;
  /** Memory the process may take beyond what it holds once started (its data segment, RLIMIT_DATA; and V8's heap). */
  memoryLimitMb: number;
  logger: Logger;
}

let nextId = 1;

/** What V8, Skia and C++ print as they abort for want of memory. */
const OUT_OF_MEMORY = /out of memory|allocation failed|Cannot allocate|bad_alloc|tryAllocPixels/i;

export const outOfMemory = (limitMb: number) => `file: the analysis needed more memory than the limit of ${limitMb} MB`;

/**
 * One process of the local engine, running one analysis at a time. It has
 * a process group of its own, so a terminal's Ctrl-C to the service does
 * not reach it (the service stops it after its analyses: `stop`), and a
 * memory limit, so that a file built to exhaust memory kills only this
 * process and fails only its own analysis.
 */
export class EngineProcess {
  readonly #child: ChildProcess;
  #running: Running | undefined;
  #exited = false;
  #killed = false;
  #stderrTail = '';
  readonly #exit: Promise<void>;

  constructor(private readonly options: EngineProcessOptions) {
    this.#child = fork(WORKER, [String(options.memoryLimitMb)], {
      execArgv: ['--import', 'tsx', `--max-old-space-size=${options.memoryLimitMb}`],
      detached: true,
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    this.#child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-4096);
    });
    this.#child.on('message', (message: WorkerMessage) => this.#receive(message));
    this.#exit = new Promise((resolve) => {
      const ended = (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.#exited) return;
        this.#exited = true;
        this.#ended(code, signal);
        resolve();
      };
      this.#child.on('exit', ended);
      this.#child.on('error', (error) => {
        options.logger.error({ err: error }, 'analysis engine process failed');
        // One that could not be started has no exit to wait for.
        if (this.#child.pid === undefined) ended(null, null);
      });
    });
  }

  get pid() {
    return this.#child.pid;
  }

  /** Alive and not given up on (a timed-out process is being killed). */
  get usable() {
    return !this.#exited && !this.#killed;
  }

  get busy() {
    return this.#running !== undefined;
  }

  /** Runs one request; a second one while busy is a programming error. */
  run(request: EngineRequest): Promise<EngineResult> {
    if (this.#running) throw new Error('engine process is busy');
    const id = nextId++;
    this.#stderrTail = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#finish(id)?.reject(new AppError('UNPROCESSABLE', `file: the analysis took longer than ${this.options.timeoutMs / 1000} s`));
        this.kill();
      }, this.options.timeoutMs);
      this.#running = { id, started: false, resolve, reject, timer };
      const { data, ...rest } = request;
      this.#child.send({ id, ...rest, data: new Uint8Array(data.buffer, data.byteOffset, data.length) }, (error) => {
        if (error) this.#finish(id)?.reject(new RequestNotStarted(error.message));
      });
    });
  }

  /** Kills the process and everything it started (its OCR programs). */
  kill() {
    this.#killed = true;
    signalGroup(this.#child, 'SIGKILL');
  }

  /** Asks the process to end (its request, if any, fails), and kills it if it has not within a few seconds. */
  async stop() {
    this.#finish(this.#running?.id)?.reject(new AppError('SERVICE_UNAVAILABLE', 'The analysis engine is stopping'));
    if (this.#exited) return;
    this.#killed = true;
    signalGroup(this.#child, 'SIGTERM');
    const timer = setTimeout(() => this.kill(), STOP_GRACE_MS);
    await this.#exit;
    clearTimeout(timer);
  }

  #finish(id: number | undefined): Running | undefined {
    const running = this.#running;
    if (!running || running.id !== id) return undefined;
    clearTimeout(running.timer);
    this.#running = undefined;
    return running;
  }

  #receive(message: WorkerMessage) {
    if (message.type === 'started') {
      if (this.#running?.id === message.id) this.#running.started = true;
      return;
    }
    const running = this.#finish(message.id);
    if (!running) return;
    if (message.ok) running.resolve({ blocks: message.blocks, identity: message.identity });
    else if (message.error.code === 'INTERNAL_SERVER_ERROR') running.reject(new Error(message.error.message));
    else running.reject(new AppError(message.error.code as ErrorCode, message.error.message));
  }

  #ended(code: number | null, signal: NodeJS.Signals | null) {
    const running = this.#finish(this.#running?.id);
    if (!running) return;
    if (!running.started) {
      running.reject(new RequestNotStarted(`the engine process ended before the analysis began (${signal ?? code})`));
      return;
    }
    this.options.logger.error({ code, signal }, 'analysis engine process died during an analysis');
    running.reject(new AppError('UNPROCESSABLE', OUT_OF_MEMORY.test(this.#stderrTail) ? outOfMemory(this.options.memoryLimitMb) : 'file: the analysis engine failed on this file'));
  }
}

/** Signals the process's group (it leads one: `detached`), so its own children go too. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}
