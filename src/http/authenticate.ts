import type { Middleware } from 'koa';
import { type AuthenticatedKey, authenticate, hashApiKey, isWellFormedKey } from '../auth/api-keys.ts';
import { limited, type RateLimits, RateLimitLeases, type RequestCounts } from '../auth/rate-limit-leases.ts';
import type { Database } from '../db/client.ts';
import type { TenantSessions } from '../db/tenant-sessions.ts';
import { AppError, badRequest, unauthenticated } from '../errors.ts';
import type { FailedAuthThrottle } from './failed-auth-throttle.ts';
import { showRateLimit } from './rate-limit.ts';
import { requestScope } from './request-scope.ts';

export interface AuthState {
  apiKey: AuthenticatedKey | null;
  /** The integrator's user the key acts for (X-User-Id), recorded in the audit trail. */
  userId?: string;
  /** This request's count in the rate-limit window, when limits are on (src/http/rate-limit.ts). */
  requestCounts?: RequestCounts;
}

const USER_ID = /^[\x21-\x7e](?:[\x20-\x7e]{0,198}[\x21-\x7e])?$/;
const MULTIPART = /^multipart\/form-data\b/i;

/**
 * Resolves X-API-Key once per request, before any handler runs, so a caller
 * without a valid key learns nothing else (401 comes first; only bodies other
 * than uploads are read before, src/http/request-body.ts, so that no slow
 * body holds the connection taken here). The same
 * round trip places the request in the rate-limit window (taking from the
 * shared counters when this instance needs a block) and opens the request's
 * tenant session (src/db/tenant-sessions.ts), which serves its reads and is
 * released when the request ends (at once for writes: REST methods other
 * than GET and uploads; GraphQL mutations let go of it when they start).
 * REST routes stop here; /graphql answers the 401 in GraphQL's shape from its
 * context factory (src/http/yoga.ts), after serving GraphiQL's page to browsers.
 */
export function authenticateRequests(sessions: TenantSessions, db: Database, limits: RateLimits, failures?: FailedAuthThrottle): Middleware<AuthState> {
  const leases = limited(limits) ? new RateLimitLeases(limits) : undefined;
  return async (ctx, next) => {
    const givenUser = ctx.get('x-user-id');
    const userValid = !givenUser || USER_ID.test(givenUser);
    const scope = requestScope.getStore();
    const presented = ctx.get('x-api-key');
    // Keys worth a lookup are throttled per address once too many failed (src/http/failed-auth-throttle.ts).
    const keyHash = (failures || leases) && isWellFormedKey(presented) ? hashApiKey(presented) : undefined;
    const wait = keyHash && failures ? failures.retryAfter(ctx.ip, keyHash) : 0;
    if (wait) {
      ctx.set('Retry-After', String(wait));
      throw new AppError('TOO_MANY_REQUESTS', `Too many failed authentications from this address; retry in ${wait} s`);
    }
    // A key known to be past its limit in this window is refused before any round trip.
    const refusal = keyHash && leases ? leases.knownRefusal(keyHash) : undefined;
    if (refusal) showRateLimit(ctx, refusal, limits.windowSeconds);
    const found = await authenticate(sessions, db, presented, {
      leases,
      keyHash,
      userId: userValid ? givenUser || undefined : undefined,
      requestId: scope?.requestId,
    });
    if (keyHash && failures) found ? failures.succeeded(keyHash) : failures.failed(ctx.ip, keyHash);
    try {
      ctx.state.apiKey = found?.key ?? null;
      ctx.state.requestCounts = found?.counts;
      if (!ctx.state.apiKey && ctx.path.startsWith('/v1/')) throw unauthenticated();
      if (found && !userValid) throw badRequest('X-User-Id: must be 1 to 200 printable ASCII characters');
      ctx.state.userId = userValid ? givenUser || undefined : undefined;
      const reads = ctx.method === 'GET' || (ctx.path === '/graphql' && !MULTIPART.test(ctx.get('content-type')));
      if (found && scope && reads) scope.tenantSession = found.session;
      else found?.session.release();
      await next();
    } finally {
      found?.session.release();
      if (scope) scope.tenantSession = undefined;
    }
  };
}
