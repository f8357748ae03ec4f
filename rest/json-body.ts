import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { AppError, badRequest } from '../src/errors.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

function hasBody(ctx: Context): boolean {
  const length = ctx.request.length;
  return (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
}

/** The JSON object body of a request ({} when there is none). */
export async function readJsonObject(ctx: Context, limit: string): Promise<Record<string, unknown>> {
  if (!hasBody(ctx)) return {};
  const mediaType = ctx.get('content-type').split(';')[0]?.trim() ?? '';
  if (!JSON_TYPE.test(mediaType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  }
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit, length: ctx.request.length });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit}`);
    throw badRequest('Request body could not be read');
  }
  let text: string;
  try {
    // JSON is UTF-8 (RFC 8259): refuse other bytes rather than store replacement characters.
    text = UTF8.decode(bytes);
  } catch {
    throw badRequest('Request body is not valid UTF-8');
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON in request body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}
