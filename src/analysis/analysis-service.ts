import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { forOrganization, type TenantDatabase } from '../db/tenant.ts';
import { AppError, notFound } from '../errors.ts';
import type { FileService } from '../files/file-service.ts';
import type { AnalysisKind } from '../generated/prisma/enums.ts';
import { type FairWorker, sendFair, workFair } from '../jobs/fair-queue.ts';
import { type JobQueue, scheduleJob } from '../jobs/queue.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import type { Block } from './blocks.ts';
import type { AnalysisEngine } from './engines/engine.ts';
import type { IdentityResult } from './identity.ts';
import { FairSlots } from './fair-slots.ts';
import { checkOutput, DEFAULT_OUTPUT_LIMITS, type OutputLimits } from './output-limits.ts';
import { deriveViews } from './views.ts';

export const ANALYSIS_QUEUE = 'document-analysis';

interface AnalysisJob {
  analysisId: string;
  organizationId: string;
}

export interface AnalysisServiceOptions {
  db: Database;
  store: ObjectStore;
  files: FileService;
  logger: Logger;
  engine: AnalysisEngine;
  /** How long analyze-async waits for its job before answering 202. */
  waitTimeoutMs: number;
  /** How long a queued analysis may run before the queue takes its worker for dead and retries it. */
  jobExpireSeconds?: number;
  /**
   * A RUNNING analysis not started again for this long was abandoned: its
   * instance died (a synchronous one has no job to retry it; a queued one
   * used up its retries). The sweep records it as FAILED.
   */
  abandonedAfterSeconds?: number;
  /**
   * Analyses this instance runs at once (the local engine's processes), how
   * many of them one organization may hold (the rest stay free for others),
   * and how many synchronous ones of one organization may wait for a slot.
   */
  slots?: { size: number; perOrganization?: number; maxWaitingPerOrganization?: number };
  /** How many words an analysis may produce (422 past them), whichever engine ran it. */
  outputLimits?: OutputLimits;
}

const ABANDONED_SWEEP_QUEUE = 'analysis-abandoned-sweep';

/**
 * Runs document analyses and records each run (document_analyses): inline
 * for the synchronous endpoints, through the job queue for analyze-async.
 */
export class AnalysisService {
  private queue: JobQueue | undefined;
  private worker: FairWorker | undefined;
  /** Synchronous analyses and queued jobs alike run in these, in turn per organization. */
  readonly slots: FairSlots;

  constructor(private readonly options: AnalysisServiceOptions) {
    // By default one organization may hold all slots but one, so that another's analysis finds one free.
    const { size = 1, perOrganization = Math.max(1, size - 1), maxWaitingPerOrganization } = options.slots ?? {};
    this.slots = new FairSlots({ size, perGroup: Math.min(size, perOrganization), maxWaitingPerGroup: maxWaitingPerOrganization });
  }

  /** Registers the queue worker; every instance works the shared queue, taking jobs in turn per organization. */
  async attach(queue: JobQueue) {
    this.queue = queue;
    await queue.createQueue(ANALYSIS_QUEUE);
    this.worker = workFair<AnalysisJob & { [field: string]: unknown }>(
      queue,
      ANALYSIS_QUEUE,
      { groupField: 'organizationId', slots: this.slots, pollingIntervalMs: 500, logger: this.options.logger },
      async (job, signal) => {
        await this.runJob(job.data, job.retryCount >= job.retryLimit, signal);
      },
    );
    await scheduleJob(queue, ABANDONED_SWEEP_QUEUE, '*/5 * * * *', () => this.failAbandoned());
  }

  /** Records analyses left RUNNING by a dead instance as FAILED, so none stays running forever. */
  async failAbandoned(now = new Date()) {
    const seconds = this.options.abandonedAfterSeconds ?? 2 * (this.options.jobExpireSeconds ?? 900) + 600;
    // Across organizations by design: the platform's own housekeeping.
    const { count } = await this.options.db.documentAnalysis.updateMany({
      where: { status: 'RUNNING', startedAt: { lt: new Date(now.getTime() - seconds * 1000) } },
      data: { status: 'FAILED', error: 'Interrupted: the instance running this analysis stopped; run it again', completedAt: now },
    });
    if (count) this.options.logger.warn({ count }, 'abandoned analyses recorded as failed');
    return count;
  }

  /**
   * Analyzes now, once the organization's turn for a slot comes, and returns
   * the finished record (a failure is recorded, then thrown). With
   * `refuseWhenBusy` (requests), too many of the organization's analyses
   * waiting already is a 429 that records nothing.
   */
  async analyzeNow(db: TenantDatabase, organizationId: string, fileKey: string, kind: AnalysisKind, options: { refuseWhenBusy?: boolean } = {}) {
    const file = await this.options.files.find(db, organizationId, fileKey);
    const release = await this.slots.acquire(organizationId, { refuseWhenFull: options.refuseWhenBusy });
    try {
      const analysis = await db.documentAnalysis.create({
        data: { organizationId, fileId: file.id, kind, status: 'RUNNING', startedAt: new Date() },
      });
      return await this.execute(db, analysis.id, file.key, file.contentType, false, kind === 'IDENTITY');
    } finally {
      release();
    }
  }

  /** Queues an analysis and returns its record (its id is the job id). */
  async enqueue(db: TenantDatabase, organizationId: string, fileKey: string) {
    if (!this.queue) throw new AppError('SERVICE_UNAVAILABLE', 'The job queue is not running');
    const file = await this.options.files.find(db, organizationId, fileKey);
    const analysis = await db.documentAnalysis.create({ data: { organizationId, fileId: file.id, kind: 'DOCUMENT' } });
    await sendFair(this.queue, ANALYSIS_QUEUE, { analysisId: analysis.id, organizationId } satisfies AnalysisJob, 'organizationId', {
      retryLimit: 2,
      retryDelay: 5,
      expireInSeconds: this.options.jobExpireSeconds ?? 15 * 60,
    });
    this.worker?.notify();
    return analysis;
  }

  /** Waits until the analysis has finished or the wait timeout passes; returns its id and status. */
  async waitFor(db: TenantDatabase, id: string) {
    const deadline = Date.now() + this.options.waitTimeoutMs;
    for (;;) {
      const row = await db.documentAnalysis.findUniqueOrThrow({ where: { id }, select: { id: true, status: true } });
      if (row.status === 'SUCCEEDED' || row.status === 'FAILED' || Date.now() >= deadline) return row;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async runJob({ analysisId, organizationId }: AnalysisJob, lastAttempt: boolean, signal?: AbortSignal) {
    const db = forOrganization(this.options.db, organizationId, { actor: 'document analysis' });
    const analysis = await db.documentAnalysis.findUnique({ where: { id: analysisId }, include: { file: true } });
    // Gone (file deleted) or already finished by an earlier attempt: nothing to do.
    if (!analysis || analysis.status === 'SUCCEEDED' || analysis.status === 'FAILED') return;
    await db.documentAnalysis.update({ where: { id: analysisId }, data: { status: 'RUNNING', startedAt: new Date() } });
    try {
      // Handed back at shutdown (signal aborted): another instance runs it again, so it is not over.
      await this.execute(db, analysisId, analysis.file.key, analysis.file.contentType, !lastAttempt || Boolean(signal?.aborted), false, signal);
    } catch (error) {
      // Client-side problems (corrupt file, limits) are final; others retry.
      if (!isFileProblem(error)) throw error;
    }
  }

  /** Runs the engine and records the outcome; `retryable` failures go back to QUEUED for the queue's retry. */
  private async execute(db: TenantDatabase, id: string, key: string, contentType: string, retryable = false, identity = false, signal?: AbortSignal) {
    try {
      const object = await this.options.store.get(key);
      if (!object) throw notFound(`File ${key} not found`);
      const data = await readAll(object.body);
      const { engine } = this.options;
      const input = { data, contentType, key };
      let blocks: Block[];
      let identityResult: IdentityResult | undefined;
      if (identity) {
        identityResult = await engine.identify(input);
        blocks = [];
      } else {
        blocks = await engine.analyze(input);
        checkOutput(blocks, this.options.outputLimits ?? DEFAULT_OUTPUT_LIMITS);
      }
      const views = deriveViews(blocks);
      const readViews = { tables: views.tables, forms: views.forms, ...(identityResult ? { identity: identityResult } : {}) };
      return await db.documentAnalysis.update({
        where: { id },
        data: {
          status: 'SUCCEEDED', engine: engine.name, completedAt: new Date(), pageCount: views.pageCount, blockCount: views.blockCount,
          tableCount: views.tables.length, formCount: views.forms.length, textContent: views.textContent,
          result: { blocks, ...readViews } as never,
          // Apart from the blocks too, so that reading them does not load every word.
          views: readViews as never,
        },
      });
    } catch (error) {
      const message = error instanceof AppError ? error.message : 'The analysis failed unexpectedly';
      if (!(error instanceof AppError)) this.options.logger.error({ err: error, analysisId: id }, 'analysis failed');
      const final = (isFileProblem(error) && !signal?.aborted) || !(retryable || signal?.aborted);
      await db.documentAnalysis.update({
        where: { id },
        data: final ? { status: 'FAILED', error: message, completedAt: new Date() } : { status: 'QUEUED', error: message },
      });
      throw error;
    }
  }
}

/** A failure the file (or the client) caused: final, whereas the engine stopping or crashing is worth another try. */
const isFileProblem = (error: unknown) => error instanceof AppError && error.status < 500;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
