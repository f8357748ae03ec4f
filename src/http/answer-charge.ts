import type { Middleware } from 'koa';
import type { Database } from '../db/client.ts';
import type { AuthState } from './authenticate.ts';
import { takeFromCounters } from './rate-limit.ts';

/**
 * Counts one more rate-limit point per `bytesPerPoint` bytes of an answer
 * (REST and GraphQL alike), after it is made: cost estimates rows before
 * execution, but what a large answer costs the service (serializing,
 * collecting and sending megabytes) is its size, known only now. This answer
 * is sent whatever the count; the client's next requests see the points, so
 * a tenant reading the largest answers it may gets proportionally fewer of
 * them. 0 turns it off. See docs/api-limits.md.
 */
export function chargeAnswerBytes(db: Database, bytesPerPoint: number): Middleware<AuthState> {
  const take = takeFromCounters(db);
  return async (ctx, next) => {
    await next();
    const counts = ctx.state.requestCounts;
    if (!bytesPerPoint || !counts?.charge) return;
    let body: unknown = ctx.body;
    if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function') {
      // What Koa would send for an object, made here once so that it can be measured.
      body = JSON.stringify(body);
      ctx.type = ctx.type || 'application/json';
      ctx.body = body;
    }
    const bytes = typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : 0;
    const points = Math.floor(bytes / bytesPerPoint);
    if (points > 0) ctx.state.requestCounts = await counts.charge(points, take);
  };
}
