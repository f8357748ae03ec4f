import { createHash } from 'node:crypto';
import { getOperationAST, type ExecutionResult, print } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Context } from '../context.ts';
import type { Database } from '../db/client.ts';
import { AppError, badRequest, conflict } from '../errors.ts';
import { type JobQueue, scheduleJob } from '../jobs/queue.ts';
import type { ServerContext } from './yoga.ts';

const TTL_MS = 24 * 3_600_000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
const CLEANUP_QUEUE = 'idempotency-cleanup';

/** The request as far as idempotency goes: operation and variables (an upload counts by its file name). */
function fingerprintOf(document: Parameters<typeof print>[0], operationName: string | null | undefined, variables: unknown): string {
  const json = JSON.stringify({ document: print(document), operationName: operationName ?? null, variables: variables ?? {} }, (_key, value) =>
    value && typeof value === 'object' && 'promise' in value && typeof (value as { promise: unknown }).promise === 'object' ? '[upload]' : value);
  return createHash('sha256').update(json).digest('hex');
}

/**
 * `Idempotency-Key` on a mutation (REST POSTs run as mutations, so both APIs
 * get it): the first request with a key runs and its successful result is
 * kept for 24 hours per organization; the same key with the same operation
 * and variables replays that result without running it again (header
 * `Idempotent-Replayed: true`); with a different request it is a 422; while
 * the first is still running, a 409. Failed results are not kept (nothing was
 * changed, so a retry may run).
 */
export function useIdempotency(db: Database, logger: Logger): Plugin<ServerContext & Context> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as ServerContext & Context;
      const key = context.koa?.get('idempotency-key');
      const operation = getOperationAST(args.document, args.operationName);
      if (!key || operation?.operation !== 'mutation') return;
      const stop = (error: AppError) => setResultAndStopExecution({ errors: [error] } as ExecutionResult);
      if (!KEY_SHAPE.test(key)) return stop(badRequest('Idempotency-Key: must be 1 to 255 printable ASCII characters'));
      const organizationId = context.apiKey.organizationId;
      const fingerprint = fingerprintOf(args.document, args.operationName, args.variableValues);
      const since = new Date(Date.now() - TTL_MS);
      // Keys older than 24 hours are free again.
      await db.idempotencyKey.deleteMany({ where: { organizationId, key, createdAt: { lt: since } } });
      const claimed = await db.$executeRaw`
        INSERT INTO idempotency_keys (organization_id, key, fingerprint) VALUES (${organizationId}::uuid, ${key}, ${fingerprint})
        ON CONFLICT (organization_id, key) DO NOTHING`;
      if (!claimed) {
        const earlier = await db.idempotencyKey.findUnique({ where: { organizationId_key: { organizationId, key } } });
        if (!earlier) return stop(conflict('Idempotency-Key: a request with this key just finished; retry'));
        if (earlier.fingerprint !== fingerprint) {
          return stop(new AppError('UNPROCESSABLE', 'Idempotency-Key: already used for a different request in the last 24 hours'));
        }
        if (earlier.result === null) return stop(conflict('Idempotency-Key: a request with this key is still running; retry later'));
        context.koa.set('Idempotent-Replayed', 'true');
        return setResultAndStopExecution(earlier.result as ExecutionResult);
      }
      return {
        async onExecuteDone({ result }) {
          const single = result as ExecutionResult;
          try {
            if (single.errors?.length || !single.data) {
              await db.idempotencyKey.delete({ where: { organizationId_key: { organizationId, key } } });
            } else {
              await db.idempotencyKey.update({ where: { organizationId_key: { organizationId, key } }, data: { result: { data: single.data } as never } });
            }
          } catch (error) {
            logger.error({ err: error }, 'could not record an idempotent result');
          }
        },
      };
    },
  };
}

/** Deletes keys older than 24 hours, every ten minutes, on one instance. */
export async function attachIdempotencyCleanup(queue: JobQueue, db: Database) {
  await scheduleJob(queue, CLEANUP_QUEUE, '*/10 * * * *', () =>
    db.idempotencyKey.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - TTL_MS) } } }));
}
