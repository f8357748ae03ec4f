import type { Middleware } from 'koa';
import { type BodyState, hasBody, isJsonBody, readBody } from '../../rest/json-body.ts';

const MULTIPART = /^multipart\/form-data\b/i;

/**
 * Reads request bodies whole, within `timeoutMs` (else 408), before anything
 * else handles the request, and keeps them in `ctx.state.requestBody`: every
 * JSON body, and every body of a /graphql POST. So a slow client never holds
 * a database connection: requests take theirs when they authenticate, after
 * this (src/http/authenticate.ts), and reads keep it until they answer.
 * The price is that a caller without a valid key may send a body (at most
 * `limit`, within the timeout) before its 401.
 *
 * Uploads (multipart) are streamed by their handlers instead, and hold no
 * connection meanwhile; bodies of other media types are refused (415) unread.
 */
export function readBodiesFirst(options: { limit: string; timeoutMs: number }): Middleware<BodyState> {
  return async (ctx, next) => {
    const wanted = hasBody(ctx) && !MULTIPART.test(ctx.get('content-type')) && (isJsonBody(ctx) || (ctx.path === '/graphql' && ctx.method === 'POST'));
    if (wanted) ctx.state.requestBody = await readBody(ctx, options);
    await next();
  };
}
