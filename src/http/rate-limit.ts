import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { type JobQueue, scheduleJob } from '../jobs/queue.ts';
import type { AuthState } from './authenticate.ts';

export interface RateLimits {
  perKey: number;
  perOrganization: number;
  windowSeconds: number;
}

const CLEANUP_QUEUE = 'rate-limit-cleanup';

/**
 * Fixed-window limits per API key and per organization, counted in
 * PostgreSQL (one upsert of both counters per request), so every instance
 * enforces the same numbers. Every answer carries RateLimit-Limit,
 * -Remaining and -Reset for the tighter of the two; past a limit the answer
 * is 429 with Retry-After, in the shared error shape.
 */
export function rateLimit(db: Database, limits: RateLimits): Middleware<AuthState> {
  return async (ctx, next) => {
    const key = ctx.state.apiKey;
    if (!key || (!limits.perKey && !limits.perOrganization)) return next();
    const windowMs = limits.windowSeconds * 1000;
    const windowStart = new Date(Math.floor(Date.now() / windowMs) * windowMs);
    const keyBucket = `key:${key.id}`;
    const orgBucket = `org:${key.organizationId}`;
    const rows = await db.$queryRaw<Array<{ bucket: string; count: number }>>`
      INSERT INTO rate_limit_windows (bucket, window_start, count)
      VALUES (${keyBucket}, ${windowStart}, 1), (${orgBucket}, ${windowStart}, 1)
      ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
      RETURNING bucket, count`;
    const countOf = (bucket: string) => rows.find((row) => row.bucket === bucket)?.count ?? 0;
    const candidates = [
      { scope: 'API key', limit: limits.perKey, used: countOf(keyBucket) },
      { scope: 'organization', limit: limits.perOrganization, used: countOf(orgBucket) },
    ].filter((candidate) => candidate.limit > 0);
    // The binding limit is the one with the fewest requests left.
    const binding = candidates.reduce((a, b) => (b.limit - b.used < a.limit - a.used ? b : a));
    const reset = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - Date.now()) / 1000));
    ctx.set('RateLimit-Limit', String(binding.limit));
    ctx.set('RateLimit-Remaining', String(Math.max(0, binding.limit - binding.used)));
    ctx.set('RateLimit-Reset', String(reset));
    if (binding.used > binding.limit) {
      ctx.set('Retry-After', String(reset));
      throw new AppError('TOO_MANY_REQUESTS', `Too many requests: the ${binding.scope} limit is ${binding.limit} per ${limits.windowSeconds} s; retry in ${reset} s`);
    }
    await next();
  };
}

/** Deletes counters of windows that ended over an hour ago, every ten minutes, on one instance. */
export async function attachRateLimitCleanup(queue: JobQueue, db: Database, logger: Logger) {
  await scheduleJob(queue, CLEANUP_QUEUE, '*/10 * * * *', async () => {
    const { count } = await db.rateLimitWindow.deleteMany({ where: { windowStart: { lt: new Date(Date.now() - 86_400_000 - 3_600_000) } } });
    if (count) logger.debug({ count }, 'old rate-limit windows deleted');
  });
}
