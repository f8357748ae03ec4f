import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { type JobQueue, scheduleJob } from '../jobs/queue.ts';
import type { RateLimits, RequestCounts } from '../auth/rate-limit-leases.ts';
import type { AuthState } from './authenticate.ts';

const CLEANUP_QUEUE = 'rate-limit-cleanup';

/**
 * Fixed-window limits per API key and per organization, counted in
 * PostgreSQL with the authentication (src/auth/rate-limit-leases.ts), so
 * every instance enforces the same numbers. A request counts one point
 * there; an expensive GraphQL operation counts more once its cost is known
 * (src/http/operation-limits.ts, docs/api-limits.md). Every
 * answer carries RateLimit-Limit, -Remaining and -Reset for the tighter of
 * the two; past a limit the answer is 429 with Retry-After, in the shared
 * error shape.
 */
export function rateLimit(limits: RateLimits): Middleware<AuthState> {
  return async (ctx, next) => {
    const counts = ctx.state.requestCounts;
    // Counted only when limits are on (src/http/authenticate.ts).
    if (counts) showRateLimit(ctx, counts, limits.windowSeconds);
    await next();
  };
}

/**
 * Sets RateLimit-Limit, -Remaining and -Reset for the binding limit (one that
 * refused the request, else the one with the fewest requests left); past a
 * limit, Retry-After and a 429. Also after an expensive GraphQL operation
 * was charged its extra points (src/http/operation-limits.ts).
 */
export function showRateLimit(ctx: Pick<Context, 'set'>, counts: RequestCounts, windowSeconds: number) {
  const windowMs = windowSeconds * 1000;
  const candidates = [
    { scope: 'API key', use: counts.key },
    { scope: 'organization', use: counts.organization },
  ].flatMap(({ scope, use }) => (use ? [{ scope, ...use }] : []));
  if (!candidates.length) return;
  const binding = candidates.reduce((a, b) => (!b.admitted && a.admitted) || (b.admitted === a.admitted && b.limit - b.used < a.limit - a.used) ? b : a);
  const reset = Math.max(1, Math.ceil((counts.windowStart.getTime() + windowMs - Date.now()) / 1000));
  ctx.set('RateLimit-Limit', String(binding.limit));
  ctx.set('RateLimit-Remaining', String(Math.max(0, binding.limit - binding.used)));
  ctx.set('RateLimit-Reset', String(reset));
  if (!binding.admitted) {
    ctx.set('Retry-After', String(reset));
    throw new AppError('TOO_MANY_REQUESTS', `Too many requests: the ${binding.scope} limit is ${binding.limit} per ${windowSeconds} s; retry in ${reset} s`);
  }
}

/** Adds `take` to one shared counter of a window (count_rate_limit_take) and answers its new count. */
export function takeFromCounters(db: Database) {
  return async (bucket: string, window: Date, take: number) => {
    const [row] = await db.$queryRaw<Array<{ count: number }>>`SELECT count_rate_limit_take(${bucket}, ${window}, ${take}) AS count`;
    return row!.count;
  };
}

/** Deletes counters of windows that ended over an hour ago, every ten minutes, on one instance. */
export async function attachRateLimitCleanup(queue: JobQueue, db: Database, logger: Logger) {
  await scheduleJob(queue, CLEANUP_QUEUE, '*/10 * * * *', async () => {
    const { count } = await db.rateLimitWindow.deleteMany({ where: { windowStart: { lt: new Date(Date.now() - 86_400_000 - 3_600_000) } } });
    if (count) logger.debug({ count }, 'old rate-limit windows deleted');
  });
}
