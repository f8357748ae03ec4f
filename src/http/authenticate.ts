import type { Middleware } from 'koa';
import { type AuthenticatedKey, authenticate, type RequestCounts } from '../auth/api-keys.ts';
import type { Database } from '../db/client.ts';
import { unauthenticated } from '../errors.ts';
import { currentWindow, limited, type RateLimits } from './rate-limit.ts';

export interface AuthState {
  apiKey: AuthenticatedKey | null;
  /** This request's count in the rate-limit window, when limits are on (src/http/rate-limit.ts). */
  requestCounts?: RequestCounts;
}

/**
 * Resolves X-API-Key once per request, before anything reads the body, so a
 * caller without a valid key learns nothing else (401 comes first). The same
 * statement counts the request for the rate limits. REST routes stop here;
 * /graphql answers the 401 in GraphQL's shape from its context factory
 * (src/http/yoga.ts), after serving GraphiQL's page to browsers.
 */
export function authenticateRequests(db: Database, limits: RateLimits): Middleware<AuthState> {
  return async (ctx, next) => {
    const found = await authenticate(db, ctx.get('x-api-key'), { countIn: limited(limits) ? currentWindow(limits) : undefined });
    ctx.state.apiKey = found?.key ?? null;
    ctx.state.requestCounts = found?.counts;
    if (!ctx.state.apiKey && ctx.path.startsWith('/v1/')) throw unauthenticated();
    await next();
  };
}
