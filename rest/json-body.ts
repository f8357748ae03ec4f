import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { AppError, badRequest } from '../src/errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../src/http/json-depth.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** Where src/http/request-body.ts keeps a body it read ahead of the handler. */
export interface BodyState {
  requestBody?: Buffer;
}

export function hasBody(ctx: Context): boolean {
  const length = ctx.request.length;
  return (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
}

export function isJsonBody(ctx: Context): boolean {
  return JSON_TYPE.test(ctx.get('content-type').split(';')[0]?.trim() ?? '');
}

/**
 * The whole body, at most `limit`, within `timeoutMs` (a slow client gets
 * 408 rather than holding the request open).
 */
export async function readBody(ctx: Context, options: { limit: string; timeoutMs: number }): Promise<Buffer> {
  const reading = getRawBody(ctx.req, { limit: options.limit, length: ctx.request.length });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    if (!Number.isFinite(options.timeoutMs)) return;
    timer = setTimeout(() => reject(new AppError('REQUEST_TIMEOUT', `The request body did not arrive within ${options.timeoutMs / 1000} s`)), options.timeoutMs);
  });
  try {
    return await Promise.race([reading, late]);
  } catch (error) {
    // The reader fails too once the connection is closed after the answer.
    reading.catch(() => {});
    if (error instanceof AppError) throw error;
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${options.limit}`);
    throw badRequest('Request body could not be read');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The JSON object body of a request ({} when there is none): the body read
 * ahead (src/http/request-body.ts), else read here.
 */
export async function readJsonObject(ctx: Context, limit: string): Promise<Record<string, unknown>> {
  if (!hasBody(ctx)) return {};
  if (!isJsonBody(ctx)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  }
  const bytes = (ctx.state as BodyState).requestBody ?? (await readBody(ctx, { limit, timeoutMs: Number.POSITIVE_INFINITY }));
  return parseJsonObject(bytes);
}

/** A JSON object from the bytes of a body ({} for an empty one), refusing what is not one with a 400. */
export function parseJsonObject(bytes: Buffer): Record<string, unknown> {
  const text = utf8Text(bytes);
  if (text.trim() === '') return {};
  const parsed = parseJson(text, 'request body');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

export function utf8Text(bytes: Buffer): string {
  try {
    // JSON is UTF-8 (RFC 8259): refuse other bytes rather than store replacement characters.
    return UTF8.decode(bytes);
  } catch {
    throw badRequest('Request body is not valid UTF-8');
  }
}

/** JSON text parsed, or a 400 naming `what` when it is malformed or nested too deeply. */
export function parseJson(text: string, what: string): unknown {
  // Checked before parsing: what comes after parsing recurses as deep as the value.
  if (nestsDeeperThan(text)) throw badRequest(`The ${what} is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`);
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`Malformed JSON in ${what}`);
  }
}
