import type { Middleware } from 'koa';
import { type AuthenticatedKey, authenticate } from '../auth/api-keys.ts';
import type { Database } from '../db/client.ts';
import { unauthenticated } from '../errors.ts';

export interface AuthState {
  apiKey: AuthenticatedKey | null;
}

/**
 * Resolves X-API-Key once per request, before anything reads the body, so a
 * caller without a valid key learns nothing else (401 comes first). REST
 * routes stop here; /graphql answers the 401 in GraphQL's shape from its
 * context factory (src/http/yoga.ts), after serving GraphiQL's page to browsers.
 */
export function authenticateRequests(db: Database): Middleware<AuthState> {
  return async (ctx, next) => {
    ctx.state.apiKey = await authenticate(db, ctx.get('x-api-key'));
    if (!ctx.state.apiKey && ctx.path.startsWith('/v1/')) throw unauthenticated();
    await next();
  };
}
