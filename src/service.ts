import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createDatabase, type Database } from './db/client.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';
import { answerClientError, createApp } from './http/app.ts';
import { httpServerOptions } from './http/server-options.ts';
import { requestDatabaseLimits } from './db/request-limits.ts';
import { attachIdempotencyCleanup } from './http/idempotency.ts';
import { attachRateLimitCleanup } from './http/rate-limit.ts';
import { createGraphQLServer } from './http/yoga.ts';
import { operationLimits } from './http/operation-limits.ts';
import { schema } from './schema/index.ts';
import { createLogger } from './logger.ts';
import { FileService } from './files/file-service.ts';
import { AnalysisService } from './analysis/analysis-service.ts';
import { selectEngine } from './analysis/engines/select.ts';
import { type JobQueue, startJobQueue } from './jobs/queue.ts';
import { selectMediaProvider } from './screening/media/select-provider.ts';
import { attachRescreening } from './screening/rescreen.ts';
import { ScreeningService } from './screening/screening-service.ts';
import { WatchlistService } from './screening/watchlist-service.ts';
import { connectObjectStore } from './storage/connect.ts';
import { resolve } from 'node:path';
import { createMailer } from './mail/mailer.ts';
import { TenantSessions } from './db/tenant-sessions.ts';
import { ensureLeakproofOperators } from './db/leakproof-operators.ts';
import { warnIfExempt } from './db/database-setup.ts';
import { onPort } from './port-in-use.ts';
import { attachOnboardingChecks } from './onboarding/after-submission.ts';
import { OnboardingService } from './onboarding/onboarding-service.ts';
import { attachWebhooks } from './webhooks/attach-webhooks.ts';

export interface RunningService {
  url: string;
  databaseUrl: string;
  db: Database;
  files: FileService;
  analysis: AnalysisService;
  watchlists: WatchlistService;
  screening: ScreeningService;
  onboarding: OnboardingService;
  queue: JobQueue;
  logger: Logger;
  stop(): Promise<void>;
}

/** Resolves the database (embedded when DATABASE_URL is unset) and applies migrations. */
export async function prepareDatabase(config: Config, logger: Logger) {
  let databaseUrl = config.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!databaseUrl) {
    const dataDir = resolve(config.DATA_DIR, 'postgres');
    logger.info({ dataDir, port: config.EMBEDDED_PG_PORT }, 'DATABASE_URL not set: starting embedded PostgreSQL');
    const embedded = await startEmbeddedPostgres({ dataDir, port: config.EMBEDDED_PG_PORT, onLog: (m) => logger.debug(m) });
    databaseUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  await warnIfExempt(databaseUrl, logger);
  const { applied } = await migrate(databaseUrl);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  await ensureLeakproofOperators(databaseUrl, logger);
  return { databaseUrl, stopEmbedded };
}

/** Starts the whole service: database, GraphQL, REST, HTTP listener. */
export async function startService(config: Config, logger = createLogger(config.LOG_LEVEL)): Promise<RunningService> {
  const { databaseUrl, stopEmbedded } = await prepareDatabase(config, logger);
  const db = createDatabase(databaseUrl, config.DATABASE_POOL_SIZE, requestDatabaseLimits(config));
  // Requests authenticate on a pool of their own and read through that connection (src/db/tenant-sessions.ts).
  const sessions = new TenantSessions(databaseUrl, config.DATABASE_POOL_SIZE, logger, requestDatabaseLimits(config));
  const storage = await onPort('EMBEDDED_S3_PORT', config.EMBEDDED_S3_PORT, () => connectObjectStore(config, logger));
  let url = '';
  const files = new FileService({
    store: storage.store,
    logger,
    maxUploadBytes: config.MAX_UPLOAD_BYTES,
    signedUrlTtlSeconds: config.SIGNED_URL_TTL_SECONDS,
    publicBaseUrl: () => config.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? url,
  });
  const engine = selectEngine(config, logger);
  const analysis = new AnalysisService({
    db, store: storage.store, files, logger,
    engine,
    slots: { size: config.ANALYSIS_WORKERS, perOrganization: config.ANALYSIS_WORKERS_PER_ORGANIZATION, maxWaitingPerOrganization: config.ANALYSIS_MAX_WAITING_PER_ORGANIZATION },
    waitTimeoutMs: config.ANALYSIS_WAIT_TIMEOUT_MS,
    outputLimits: { maxWordsPerPage: config.ANALYSIS_MAX_WORDS_PER_PAGE, maxWords: config.ANALYSIS_MAX_WORDS, maxTextChars: config.ANALYSIS_MAX_TEXT_CHARS, maxBlocksBytes: Math.round(config.ANALYSIS_MAX_BLOCKS_MB * 1024 * 1024) },
    jobExpireSeconds: config.ANALYSIS_JOB_EXPIRE_SECONDS,
    // Past every retry of a queued one (expiry, maintenance, delay) with room to spare.
    abandonedAfterSeconds: 2 * config.ANALYSIS_JOB_EXPIRE_SECONDS + config.JOB_QUEUE_MAINTENANCE_SECONDS + 300,
  });
  const watchlists = new WatchlistService({
    db, logger, sources: config.WATCHLIST_SOURCES, cron: config.WATCHLIST_REFRESH_CRON === 'off' ? null : config.WATCHLIST_REFRESH_CRON,
  });
  const screening = new ScreeningService({
    db, logger, sourceIds: () => watchlists.sources.map((s) => s.id), media: await selectMediaProvider(config, logger),
  });
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, sendTimeoutMs: config.SMTP_SEND_TIMEOUT_MS, outboxDir: config.MAIL_OUTBOX_DIR ?? resolve(config.DATA_DIR, 'outbox'), logger });
  const onboarding = new OnboardingService({
    db, mailer, files, logger,
    publicBaseUrl: () => config.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? url,
    tokenTtlHours: config.ONBOARDING_TOKEN_TTL_HOURS,
    defaultFrom: config.MAIL_FROM,
    allowedFromDomains: config.MAIL_ALLOWED_FROM_DOMAINS === undefined
      ? [config.MAIL_FROM.slice(config.MAIL_FROM.lastIndexOf('@') + 1).toLowerCase()]
      : config.MAIL_ALLOWED_FROM_DOMAINS,
    defaultCompanyName: config.ONBOARDING_SENDER_COMPANY_NAME,
  });
  const queue = await startJobQueue(databaseUrl, logger, config.JOB_QUEUE_SCHEMA, config.JOB_QUEUE_MAINTENANCE_SECONDS);
  await analysis.attach(queue);
  await attachRescreening(queue, { db, logger, screening });
  await watchlists.attach(queue);
  await attachOnboardingChecks(queue, { db, analysis, screening, logger });
  await attachRateLimitCleanup(queue, db, logger);
  await attachIdempotencyCleanup(queue, db);
  onboarding.attach(queue);
  const webhookSettings = {
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS ? config.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true' : config.NODE_ENV !== 'production',
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
    retryDelaySeconds: config.WEBHOOK_RETRY_DELAY_SECONDS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  };
  const stopWebhookDispatch = await attachWebhooks(queue, {
    db, logger, ...webhookSettings, dispatchIntervalMs: config.WEBHOOK_DISPATCH_INTERVAL_MS, retentionDays: config.EVENT_RETENTION_DAYS,
    maxInFlight: config.WEBHOOK_MAX_IN_FLIGHT, maxInFlightPerOrganization: config.WEBHOOK_MAX_IN_FLIGHT_PER_ORGANIZATION,
  });
  const graphql = createGraphQLServer({
    schema, db, sessions, files, analysis, watchlists, screening, onboarding, logger, webhooks: { allowPrivateNetworks: webhookSettings.allowPrivateNetworks },
    limits: operationLimits(config), corsOrigins: config.CORS_ORIGINS,
  });
  const app = createApp({
    graphql, schema, db, sessions, logger, store: storage.store, onboarding, queue, metricsToken: config.METRICS_TOKEN,
    rateLimits: { perKey: config.RATE_LIMIT_PER_KEY, perOrganization: config.RATE_LIMIT_PER_ORGANIZATION, windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS },
    answerBytesPerPoint: config.RATE_LIMIT_BYTES_PER_POINT,
    bodyLimit: config.BODY_LIMIT, maxUploadBytes: config.MAX_UPLOAD_BYTES, bodyTimeoutMs: config.REQUEST_BODY_TIMEOUT_MS,
    failedAuth: { burst: config.FAILED_AUTH_BURST, perMinute: config.FAILED_AUTH_PER_MINUTE },
    graphiqlPageLoads: { burst: config.GRAPHIQL_PAGE_BURST, perMinute: config.GRAPHIQL_PAGES_PER_MINUTE },
  });
  const server: Server = createServer(httpServerOptions(config), app.callback());
  server.on('clientError', answerClientError);
  const stop = async () => {
    // Stop accepting, let in-flight requests finish, then release the pool.
    await new Promise<void>((done) => server.close(() => done()));
    await stopWebhookDispatch();
    await queue.stopGracefully(config.JOB_SHUTDOWN_GRACE_SECONDS * 1000, logger);
    mailer.close();
    await engine.stop?.();
    await db.$disconnect();
    await sessions.end();
    await storage.stop();
    await stopEmbedded?.();
  };
  try {
    await onPort('PORT', config.PORT, () => new Promise<void>((done, fail) => server.once('error', fail).listen(config.PORT, config.HOST, done)));
  } catch (error) {
    // Nothing the start made is left running (the embedded PostgreSQL included).
    await stop();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  url = `http://${host}:${port}`;
  return {
    url,
    files,
    analysis,
    watchlists,
    screening,
    onboarding,
    queue,
    databaseUrl,
    db,
    logger,
    stop,
  };
}
