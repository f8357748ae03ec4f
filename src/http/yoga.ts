import { createYoga, type GraphQLParams, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Context as KoaContext } from 'koa';
import type { Context } from '../context.ts';
import type { Database } from '../db/client.ts';
import type { TenantSessions } from '../db/tenant-sessions.ts';
import { forOrganization, SharedReadTransaction } from '../db/tenant.ts';
import type { AnalysisService } from '../analysis/analysis-service.ts';
import type { ScreeningService } from '../screening/screening-service.ts';
import type { WatchlistService } from '../screening/watchlist-service.ts';
import type { FileService } from '../files/file-service.ts';
import type { OnboardingService } from '../onboarding/onboarding-service.ts';
import { unauthenticated } from '../errors.ts';
import { useIdempotency } from './idempotency.ts';
import { useSharedReadTransaction } from './read-transaction.ts';
import { useInputChecks } from './input-errors.ts';
import { useExecutionDeadline } from './execution-deadline.ts';
import { type OperationLimits, useOperationLimits } from './operation-limits.ts';
import { offlineGraphiQL } from './graphiql-page.ts';
import { useAnswerSizeLimit } from './graphql-json.ts';
import { createMaskError } from './mask-error.ts';
import { currentRequestId } from './request-scope.ts';

import type { AuthState } from './authenticate.ts';

/** What the HTTP layer hands to every GraphQL execution. */
export interface ServerContext {
  koa: KoaContext & { state: AuthState };
  /** Already-parsed parameters (REST routes, multipart uploads): used instead of the body. */
  graphqlParams?: GraphQLParams;
}

export type GraphQLServer = YogaServerInstance<ServerContext, Context>;

const DEFAULT_QUERY = `# Put your key in the Headers tab: {"X-API-Key": "cpk_..."}
query RecentConsumerCases {
  consumerCases(limit: 5) {
    items { id email firstName lastName status createdAt }
    meta { total page limit totalPages }
  }
}
`;

const GRAPHIQL = { title: 'Compliance platform GraphQL', defaultQuery: DEFAULT_QUERY, headers: '{"X-API-Key": ""}' };

/** What an allowed origin may send and read (its own origin is set per request). */
const CORS = {
  credentials: false,
  methods: ['GET', 'POST'],
  allowedHeaders: ['Content-Type', 'Accept', 'X-API-Key', 'X-User-Id', 'X-Request-Id', 'Idempotency-Key'],
  exposedHeaders: ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Idempotent-Replayed'],
  maxAge: 600,
};

/**
 * The GraphQL pipeline. REST requests run through it too (rest/adapter.ts),
 * so authentication, organization scoping and error masking happen once.
 */
export function createGraphQLServer(options: {
  schema: GraphQLSchema;
  db: Database;
  /** The request pool: read requests read through their tenant session (src/db/tenant-sessions.ts). */
  sessions: TenantSessions;
  files: FileService;
  analysis: AnalysisService;
  watchlists: WatchlistService;
  screening: ScreeningService;
  onboarding: OnboardingService;
  webhooks: Context['webhooks'];
  logger: Logger;
  /** Depth, aliases, cost ... of one operation (src/http/operation-limits.ts). */
  limits: OperationLimits;
  /** Browser origins allowed to call /graphql cross-origin (CORS_ORIGINS); same-origin pages need none. */
  corsOrigins: readonly string[];
}): GraphQLServer {
  const { schema, db, sessions, files, analysis, watchlists, screening, onboarding, webhooks, logger, limits, corsOrigins } = options;
  const graphiql = offlineGraphiQL(GRAPHIQL);
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: GRAPHIQL,
    renderGraphiQL: graphiql.render,
    // Keys travel in a header, never cookies: no credentials, and only configured origins get CORS headers.
    cors: (request) => {
      const origin = request.headers.get('origin');
      return origin && corsOrigins.includes(origin) ? { ...CORS, origin: [origin] } : false;
    },
    logging: {
      debug: (...args) => logger.debug(args.map(String).join(' ')),
      info: (...args) => logger.info(args.map(String).join(' ')),
      warn: (...args) => logger.warn(args.map(String).join(' ')),
      // yoga reports every error it rewrites; client errors are not faults,
      // and unexpected ones were already logged by the error mapper.
      error: (...args) =>
        args[0] instanceof GraphQLError ? logger.debug(String(args[0])) : logger.error(args.map(String).join(' ')),
    },
    maskedErrors: { maskError: createMaskError(schema, logger) },
    plugins: [
      graphiql.plugin,
      useAnswerSizeLimit(),
      useInputChecks(),
      // Before idempotency: a refused operation claims no Idempotency-Key.
      useOperationLimits(limits, db),
      useExecutionDeadline(limits.maxQueryMs),
      useIdempotency(db, logger),
      useSharedReadTransaction(),
      {
        onRequestParse({ serverContext, setRequestParser }) {
          const params = (serverContext as Partial<ServerContext> | undefined)?.graphqlParams;
          if (params) setRequestParser(() => params);
        },
      },
    ],
    // The key was resolved by the HTTP layer (src/http/authenticate.ts); no
    // valid key means a 401 for the whole operation, before any field runs.
    context: ({ koa }): Context => {
      const apiKey = koa.state.apiKey;
      if (!apiKey) throw unauthenticated();
      const requestId = currentRequestId() ?? '';
      const who = { actor: apiKey.name, apiKeyId: apiKey.id, userId: koa.state.userId, requestId };
      const readTransaction = new SharedReadTransaction(sessions);
      return {
        requestId, apiKey, readTransaction, db: forOrganization(db, apiKey.organizationId, who, readTransaction),
        files, analysis, watchlists, screening, onboarding, webhooks,
      };
    },
  });
}
