import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { getOperationAST, type ExecutionResult, Kind, type OperationDefinitionNode, print, type GraphQLSchema } from 'graphql';
import { declaredPermission } from '../auth/field-permission.ts';
import type { Permission } from '../auth/permissions.ts';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Context } from '../context.ts';
import type { Database } from '../db/client.ts';
import { AppError, badRequest, conflict, forbidden } from '../errors.ts';
import type { FileUpload } from '../files/file-service.ts';
import { measure, spool } from '../files/intake.ts';
import { type JobQueue, scheduleJob } from '../jobs/queue.ts';
import { withoutShownOnce } from '../schema/shown-once.ts';
import type { ServerContext } from './yoga.ts';

const TTL_MS = 24 * 3_600_000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
const CLEANUP_QUEUE = 'idempotency-cleanup';

// A claim without a result this old belongs to a request that never finished (its instance stopped).
const ABANDONED_AFTER_MS = 5 * 60_000;

type UploadVariable = { promise: Promise<FileUpload> };
const isUpload = (value: unknown): value is UploadVariable =>
  Boolean(value && typeof value === 'object' && 'promise' in value && (value as UploadVariable).promise instanceof Promise);

/**
 * Uploads count by their file name and content. A REST upload is already on
 * disk; a GraphQL multipart stream is parked in a temporary file first (and
 * the resolver then reads that file), since its bytes can be read only once.
 */
async function digestUploads(variables: unknown, cleanups: Array<() => Promise<void>>): Promise<unknown> {
  if (isUpload(variables)) {
    const file = await variables.promise;
    let path = file.localPath;
    if (!path) {
      const spooled = await spool(file.createReadStream(), Number.MAX_SAFE_INTEGER);
      cleanups.push(spooled.remove);
      path = file.localPath = spooled.path;
      file.createReadStream = () => createReadStream(spooled.path);
      return { upload: file.filename, sha256: spooled.sha256 };
    }
    return { upload: file.filename, sha256: (await measure(path, Number.MAX_SAFE_INTEGER)).sha256 };
  }
  if (Array.isArray(variables)) return Promise.all(variables.map((item) => digestUploads(item, cleanups)));
  if (variables && typeof variables === 'object' && !(variables instanceof Date)) {
    const entries = await Promise.all(Object.entries(variables).map(async ([name, value]) => [name, await digestUploads(value, cleanups)] as const));
    return Object.fromEntries(entries);
  }
  return variables;
}

/** The request as far as idempotency goes: operation and variables, uploads by name and content. */
function fingerprintOf(document: Parameters<typeof print>[0], operationName: string | null | undefined, variables: unknown): string {
  const json = JSON.stringify({ document: print(document), operationName: operationName ?? null, variables: variables ?? {} });
  return createHash('sha256').update(json).digest('hex');
}

/** A permission the operation's root fields declare that the key lacks: a replay is no way around it. */
function missingPermission(schema: GraphQLSchema, operation: OperationDefinitionNode, held: ReadonlySet<Permission>) {
  const fields = schema.getMutationType()?.getFields() ?? {};
  for (const selection of operation.selectionSet.selections) {
    const field = selection.kind === Kind.FIELD ? fields[selection.name.value] : undefined;
    const permission = field && declaredPermission(field);
    if (permission && !held.has(permission as Permission)) return permission;
  }
  return undefined;
}

/**
 * `Idempotency-Key` on a mutation (REST POSTs run as mutations, so both APIs
 * get it): the first request with a key runs and its successful result is
 * kept for 24 hours per organization; the same key with the same operation
 * and variables replays that result without running it again (header
 * `Idempotent-Replayed: true`), to a key that holds the operation's
 * permissions; with a different request it is a 422; while the first is
 * still running, a 409. Failed results are not kept (nothing was changed, so
 * a retry may run). Values shown once (link tokens, signing secrets) are not
 * kept: a replay has them as null.
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
      const cleanups: Array<() => Promise<void>> = [];
      let fingerprint: string;
      try {
        fingerprint = fingerprintOf(args.document, args.operationName, await digestUploads(args.variableValues, cleanups));
      } catch (error) {
        await Promise.all(cleanups.map((cleanup) => cleanup()));
        return stop(error instanceof AppError ? error : badRequest(`Could not read the upload: ${(error as Error).message}`));
      }
      const cleanUp = () => Promise.all(cleanups.map((cleanup) => cleanup().catch(() => {})));
      const since = new Date(Date.now() - TTL_MS);
      // Keys older than 24 hours are free again.
      await db.idempotencyKey.deleteMany({ where: { organizationId, key, createdAt: { lt: since } } });
      const claimed = await db.$executeRaw`
        INSERT INTO idempotency_keys (organization_id, key, fingerprint) VALUES (${organizationId}::uuid, ${key}, ${fingerprint})
        ON CONFLICT (organization_id, key) DO NOTHING`;
      if (!claimed) {
        await cleanUp();
        const earlier = await db.idempotencyKey.findUnique({ where: { organizationId_key: { organizationId, key } } });
        if (!earlier) return stop(conflict('Idempotency-Key: a request with this key just finished; retry'));
        if (earlier.fingerprint !== fingerprint) {
          return stop(new AppError('UNPROCESSABLE', 'Idempotency-Key: already used for a different request in the last 24 hours'));
        }
        if (earlier.result === null) {
          const abandoned = Date.now() - earlier.createdAt.getTime() > ABANDONED_AFTER_MS;
          return stop(conflict(abandoned
            ? 'Idempotency-Key: the request with this key did not finish (the server stopped), so whether it took effect is unknown; check, then retry with a new key'
            : 'Idempotency-Key: a request with this key is still running; retry later'));
        }
        const lacking = missingPermission(args.schema, operation, context.apiKey.permissions);
        if (lacking) return stop(forbidden(`Forbidden: this API key lacks the permission ${lacking}`));
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
              const kept = withoutShownOnce(args.schema, args.document, args.operationName, single.data);
              await db.idempotencyKey.update({ where: { organizationId_key: { organizationId, key } }, data: { result: { data: kept } as never } });
            }
          } catch (error) {
            logger.error({ err: error }, 'could not record an idempotent result');
          } finally {
            await cleanUp();
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
