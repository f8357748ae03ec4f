import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import type { TenantSessions } from '../db/tenant-sessions.ts';
import type { GraphQLParams } from 'graphql-yoga';
import type { BodyState } from '../../rest/json-body.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { type AuthState, authenticateRequests } from './authenticate.ts';
import { graphqlMultipart } from './graphql-multipart.ts';
import { graphqlJson } from './graphql-json.ts';
import { createMaskError } from './mask-error.ts';
import { servePublicFiles } from './public-files.ts';
import { createRestRouter } from '../../rest/adapter.ts';
import { routes } from '../../rest/routes.ts';
import { AppError, ERROR_STATUS, errorBody, GENERIC_SERVER_ERROR, InvalidFieldsError, notFound } from '../errors.ts';
import type { OnboardingService } from '../onboarding/onboarding-service.ts';
import { onboardingPages } from './onboarding-pages.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { apiDocs } from './api-docs.ts';
import { healthEndpoints } from './health.ts';
import type { RateLimits } from '../auth/rate-limit-leases.ts';
import { chargeAnswerBytes } from './answer-charge.ts';
import { rateLimit } from './rate-limit.ts';
import { createMetrics } from './metrics.ts';
import { databaseRefusal, RETRY_AFTER_SECONDS } from '../db/unavailable.ts';
import { FailedAuthThrottle } from './failed-auth-throttle.ts';
import { graphqlBodyParams } from './graphql-body.ts';
import { limitGraphiQLPageLoads, type PageLoadLimits } from './graphiql-page.ts';
import { readBodiesFirst } from './request-body.ts';
import { requestScope } from './request-scope.ts';
import type { GraphQLServer } from './yoga.ts';

const CLIENT_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Onboarding links are credentials: logs show `/onboarding/[token]` (whatever the segment, encoded or not). */
const withoutTokens = (path: string) => path.replace(/(\/onboarding\/)(?!(?:assets|send-email)(?:\/|$))[^/]+/g, '$1[token]');

/** Koa serves `/graphql` (yoga, with GraphiQL) and the `/v1` REST routes. */
export function createApp(options: {
  graphql: GraphQLServer;
  schema: GraphQLSchema;
  db: Database;
  sessions: TenantSessions;
  store: ObjectStore;
  logger: Logger;
  onboarding: OnboardingService;
  queue: JobQueue;
  rateLimits: RateLimits;
  /** One more rate-limit point per this many bytes of an answer (src/http/answer-charge.ts); 0: off. */
  answerBytesPerPoint: number;
  metricsToken?: string;
  bodyLimit: string;
  maxUploadBytes: number;
  /** How long a body may take to arrive (src/http/request-body.ts). */
  bodyTimeoutMs: number;
  /** Failed authentications allowed per client address (src/http/failed-auth-throttle.ts). */
  failedAuth: { burst: number; perMinute: number };
  /** GraphiQL page loads allowed per client address (src/http/graphiql-page.ts). */
  graphiqlPageLoads: PageLoadLimits;
}) {
  const { graphql, schema, db, sessions, store, logger, onboarding, queue, rateLimits, metricsToken, bodyLimit, maxUploadBytes } = options;
  const failedAuth = new FailedAuthThrottle(options.failedAuth);
  const metrics = createMetrics(queue);
  const app = new Koa<AuthState & BodyState & { graphqlParams?: GraphQLParams }>();

  // Request id: the caller's X-Request-Id when it is sane, else a new one.
  app.use(async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const requestId = CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', requestId);
    ctx.request.headers['x-request-id'] = requestId;
    const started = performance.now();
    await requestScope.run({ requestId }, async () => {
      await next();
      logger.info(
        { method: ctx.method, path: withoutTokens(ctx.path), status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    });
  });

  // Outside the error mapper, so the final status is what gets counted.
  app.use(metrics.measure);

  // Every 503 (database busy or unreachable, not ready) says when to come back.
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 503 && !ctx.response.get('Retry-After')) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
  });

  // Every failure outside GraphQL's own responses gets the shared error shape.
  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw notFound(`Cannot ${ctx.method} ${ctx.path}`);
      }
    } catch (caught) {
      // Outside GraphQL (authentication, onboarding pages) the same rule: no database is a 503.
      const error = (!(caught instanceof AppError) && databaseRefusal(caught)) || caught;
      const status = statusOf(error);
      // A 503 we chose (busy, a share used up) is the service refusing under load, not a fault: a warning without a stack.
      if (status === 503 && error instanceof AppError) logger.warn(`refused: ${error.message}`);
      else if (status >= 500) logger.error({ err: error }, 'unhandled error');
      // Typed errors say what happened (503 included); anything else at 5xx is masked.
      const message =
        error instanceof AppError || (status < 500 && error instanceof Error) ? (error as Error).message : GENERIC_SERVER_ERROR;
      ctx.status = status;
      ctx.body = ctx.path === '/graphql'
        // GraphQL callers get GraphQL's shape (429, 503 and the like come before the GraphQL server runs).
        ? { errors: [{ message, extensions: { code: error instanceof AppError ? error.code : codeOf(status) } }] }
        : { ...errorBody(status, message), ...(error instanceof InvalidFieldsError ? { fields: error.fields } : {}) };
      if (status === 413 || status === 408) hangUpAfterResponse(ctx);
    }
  });

  // Bodies arrive before anything takes a database connection for the request.
  app.use(readBodiesFirst({ limit: bodyLimit, timeoutMs: options.bodyTimeoutMs }));

  app.use(healthEndpoints({ db, store, metrics: metrics.registry, metricsToken }));

  app.use(servePublicFiles(store));
  app.use(onboardingPages(onboarding, { bodyLimit, maxUploadBytes }));
  app.use(apiDocs());
  app.use(limitGraphiQLPageLoads(options.graphiqlPageLoads));

  app.use(authenticateRequests(sessions, db, rateLimits, failedAuth));
  app.use(rateLimit(rateLimits));
  app.use(chargeAnswerBytes(db, options.answerBytesPerPoint));
  app.use(graphqlMultipart({ maxUploadBytes }));

  app.use(graphqlJson({ graphql, maskError: createMaskError(schema, logger), bodyLimit }));

  app.use(async (ctx, next) => {
    if (ctx.path !== '/graphql') return next();
    // The body was read ahead (src/http/request-body.ts): yoga gets its parameters, not the spent stream.
    const graphqlParams = ctx.state.graphqlParams ?? graphqlBodyParams(ctx);
    const response = await graphql.handleNodeRequestAndResponse(ctx.req, ctx.res, { koa: ctx, graphqlParams });
    if (response.status === 415 && !response.body) {
      // yoga refuses a body it cannot read with an empty answer; callers get the shared shape.
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type: send application/json (or multipart/form-data for uploads)');
    }
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.append(key, value));
    // Answers are whole JSON documents (or GraphiQL's page): sent as one buffer
    // with a length, cheaper than piping a stream.
    ctx.body = Buffer.from(await response.arrayBuffer());
    if (response.status === 413) hangUpAfterResponse(ctx);
  });

  const rest = createRestRouter({ graphql, schema, routes, bodyLimit, maxUploadBytes });
  app.use(rest.routes());
  app.use(rest.allowedMethods({ throw: true }));
  return app;
}

/** Does not read the rest of an oversized body: answers, then closes the connection. */
function hangUpAfterResponse(ctx: Koa.Context) {
  if (ctx.req.complete) return;
  ctx.set('Connection', 'close');
  ctx.res.once('finish', () => ctx.req.socket.destroy());
}

/** The error code of an HTTP status (the first code with that status), for errors that are not typed. */
function codeOf(status: number): string {
  return Object.entries(ERROR_STATUS).find(([, value]) => value === status)?.[0] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}

function statusOf(error: unknown): number {
  if (error instanceof AppError) return error.status;
  const status = (error as { status?: unknown }).status;
  // http-errors from Koa and the router (405, 501, ...) are client-facing.
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request line or headers too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Chunk extensions too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout'],
};

/**
 * Requests Node's HTTP parser refuses before Koa sees them (URL or headers too
 * large, malformed lines) get the shared error shape too; for `clientError`.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  const response = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Malformed HTTP request'];
  const body = JSON.stringify(errorBody(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
