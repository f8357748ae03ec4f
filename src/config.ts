import { z } from 'zod';
import { DEFAULT_WATCHLIST_SOURCES, WatchlistSourceSchema } from './screening/lists/sources.ts';

// Every setting comes from the environment; nothing is required, so a bare
// `npm start` runs on embedded defaults.
/** WATCHLIST_SOURCES: a JSON array of sources; unset: the publishers' own download addresses. */
const watchlistSources = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return DEFAULT_WATCHLIST_SOURCES;
    try {
      return z.array(WatchlistSourceSchema).parse(JSON.parse(value));
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `must be a JSON array of sources (${(error as Error).message.split('\n')[0]})` });
      return z.NEVER;
    }
  });

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.string().url().optional(),
  /** Folder for embedded services' data (embedded PostgreSQL, ...). */
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Largest accepted JSON request body. */
  BODY_LIMIT: z.string().default('1mb'),
  /** Longest a JSON (or other non-upload) request body may take to arrive; it is read before the request takes a database connection; past it 408. */
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Longest a request's line and headers may take to arrive; past it 408 and the connection is closed. */
  REQUEST_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** Longest a whole request may take to arrive, uploads included (MAX_UPLOAD_BYTES at 20 MB needs about 170 kB/s); past it 408 and the connection is closed. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  /** Longest a request waits for a database connection (or for its write transaction to start); past it 503 with Retry-After. */
  REQUEST_CONNECTION_WAIT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /**
   * Longest one statement of a request may run (PostgreSQL's statement_timeout on request connections; the service
   * gives up on any request query 2 s later, e.g. when PostgreSQL does not answer at all); past it 503 with Retry-After.
   * Jobs, migrations and watchlist loads are not bound by it.
   */
  REQUEST_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** Request connections one organization may hold at once (default: half of DATABASE_POOL_SIZE); past it its requests wait, then 503 with Retry-After. */
  REQUEST_CONNECTIONS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(200).optional(),
  /** Longest a request's statement waits for a lock (PostgreSQL's lock_timeout); past it 503 with Retry-After. */
  REQUEST_LOCK_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Failed authentications (wrong, revoked or expired keys) one client address may make in a burst, per instance; past them 429 without a database lookup. */
  FAILED_AUTH_BURST: z.coerce.number().int().min(1).default(20),
  /** How many more failed authentications per minute a client address regains. */
  FAILED_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** GraphiQL page loads (about 9 MB each, no key needed) one client address may make at once, and regains a minute. */
  GRAPHIQL_PAGE_BURST: z.coerce.number().int().min(1).default(10),
  GRAPHIQL_PAGES_PER_MINUTE: z.coerce.number().int().min(1).default(6),
  /** Public address of this service, for links to public files. */
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** S3-compatible endpoint; unset with no credentials: embedded server. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().min(3).default('compliance-files'),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style URLs (bucket in the path): on by default for custom endpoints. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  EMBEDDED_S3_PORT: z.coerce.number().int().min(0).max(65535).default(54330),
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).default(20 * 1024 * 1024),
  SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(604_800).default(900),
  /** `auto`: Textract when AWS credentials are configured, else local. */
  DOCUMENT_ANALYSIS_ENGINE: z.enum(['auto', 'local', 'textract']).default('auto'),
  TEXTRACT_REGION: z.string().optional(),
  WATCHLIST_SOURCES: watchlistSources,
  /** When the watchlists are refreshed (cron, UTC); `off` for never (refresh with `npm run watchlists`). */
  WATCHLIST_REFRESH_CRON: z.string().default('0 */6 * * *'),
  /**
   * Adverse media. `auto`: the HTTP provider when ADVERSE_MEDIA_URL is set,
   * else the local corpus when its folder exists, else none.
   */
  ADVERSE_MEDIA_PROVIDER: z.enum(['auto', 'off', 'local', 'http']).default('auto'),
  /** Folder of JSON (NewsAPI shape or an array) and RSS/Atom files; default <DATA_DIR>/media. */
  ADVERSE_MEDIA_CORPUS: z.string().optional(),
  /** News/search API address with {query} (and optionally {limit}, {apiKey}), e.g. a NewsAPI "everything" URL. */
  ADVERSE_MEDIA_URL: z.string().url().optional(),
  ADVERSE_MEDIA_FORMAT: z.enum(['newsapi', 'rss']).default('newsapi'),
  ADVERSE_MEDIA_API_KEY: z.string().optional(),
  ADVERSE_MEDIA_API_KEY_HEADER: z.string().default('X-Api-Key'),
  ADVERSE_MEDIA_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Outgoing mail server, e.g. smtp://user:pass@mail.example.com:587 or smtps://...; unset: .eml files in MAIL_OUTBOX_DIR. */
  SMTP_URL: z
    .string()
    .url()
    .refine((value) => /^smtps?:\/\//.test(value), { message: 'must start with smtp:// or smtps://' })
    .optional(),
  /** Longest exchange with the mail server for one message; past it the connection is dropped (502, nothing delivered or created). */
  SMTP_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(55_000).default(30_000),
  /** Where messages go when SMTP_URL is unset; default <DATA_DIR>/outbox. */
  MAIL_OUTBOX_DIR: z.string().optional(),
  /** Sender address of onboarding emails unless the request gives `from`. */
  MAIL_FROM: z.string().email().default('no-reply@localhost'),
  /**
   * Domains a request's `from` may use (comma-separated, e.g. "acme.com,acme.co.uk"), or `*` for
   * any; unset: MAIL_FROM's domain only, so the platform's mail server does not send as anyone
   * who asks. Bounces always go to MAIL_FROM (the envelope sender).
   */
  MAIL_ALLOWED_FROM_DOMAINS: z
    .string()
    .optional()
    .transform((value) =>
      value === undefined || value.trim() === '' ? undefined
      : value.trim() === '*' ? null
      : value.split(',').map((domain) => domain.trim().toLowerCase()).filter(Boolean)),
  /** Company name shown in onboarding emails and pages unless the request gives one; unset: the organization's name. */
  ONBOARDING_SENDER_COMPANY_NAME: z.string().min(1).max(100).optional(),
  /** How long an onboarding link stays valid. */
  ONBOARDING_TOKEN_TTL_HOURS: z.coerce.number().int().min(1).max(2160).default(168),
  /** Requests per window for one API key (REST and GraphQL together); 0: no limit. */
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(0).default(600),
  /** Requests per window for all keys of one organization together; 0: no limit. */
  RATE_LIMIT_PER_ORGANIZATION: z.coerce.number().int().min(0).default(1200),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** A request counts one rate-limit point per this much GraphQL cost (at least one); see docs/api-limits.md. */
  RATE_LIMIT_COST_PER_POINT: z.coerce.number().int().min(1).default(1000),
  /** An answer counts one more rate-limit point per this many bytes (0: off); see docs/api-limits.md. */
  RATE_LIMIT_BYTES_PER_POINT: z.coerce.number().int().min(0).default(262_144),
  /** Largest GraphQL document, in tokens (names, punctuation, values). */
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(5000),
  /** Deepest nesting of fields in a GraphQL operation (fragments add no level). */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).default(12),
  /** Most aliases in a GraphQL operation. */
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  /** Most fields in a GraphQL operation, counted as often as fragments repeat them. */
  GRAPHQL_MAX_FIELDS: z.coerce.number().int().min(10).default(2000),
  /** Highest estimated cost of a GraphQL operation: records it can return plus the work of expensive fields. */
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(10_000),
  /** Longest a GraphQL query (not a mutation) may run before it is stopped with a 400, whatever its estimated cost. */
  GRAPHQL_MAX_QUERY_MS: z.coerce.number().int().min(1).max(600_000).default(10_000),
  /** Browser origins allowed to call /graphql cross-origin (comma-separated, e.g. https://app.example.com); unset: none. */
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((value) => (value ?? '').split(',').map((origin) => origin.trim()).filter(Boolean))
    .refine((origins) => origins.every((origin) => URL.canParse(origin) && new URL(origin).origin === origin), {
      message: 'must be origins such as https://app.example.com (scheme, host and port only), comma-separated',
    }),
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** At shutdown, how long running jobs may finish before they are handed back to the queue. */
  JOB_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(300).default(20),
  /** PostgreSQL schema of the job queue (pg-boss); instances that share work share it. */
  JOB_QUEUE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier').default('pgboss'),
  /** How often the job queue looks for jobs whose worker died (expired active jobs) and schedules their retry. */
  JOB_QUEUE_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /**
   * Webhook endpoints on loopback or private networks, and plain http. Unset:
   * allowed except in production (a tenant must not reach the platform's own network).
   */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.enum(['true', 'false']).optional(),
  /** Attempts per delivery (the first and its retries, with exponential backoff from WEBHOOK_RETRY_DELAY_SECONDS). */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(10),
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** The whole exchange with a receiver, connection to last byte. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** How often each instance hands new deliveries to the job queue. */
  WEBHOOK_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** Webhook attempts each instance makes at once (each may wait up to WEBHOOK_TIMEOUT_MS on its receiver). */
  WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(64),
  /** Attempts one organization may have queued or running at once, across instances: the rest of the slots stay free for others. */
  WEBHOOK_MAX_IN_FLIGHT_PER_ORGANIZATION: z.coerce.number().int().min(1).max(1000).default(8),
  /** Events (and their deliveries) older than this are deleted. */
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** OCR of the local engine. `auto`: the `tesseract` program when installed with English data, else tesseract.js. */
  OCR_ENGINE: z.enum(['auto', 'tesseract', 'tesseract.js']).default('auto'),
  ANALYSIS_MAX_PAGES: z.coerce.number().int().min(1).default(30),
  /** Largest image, image in a PDF or rendered PDF page (a larger page is rendered at a lower resolution, down to 100 dpi). */
  ANALYSIS_MAX_MEGAPIXELS: z.coerce.number().min(0.1).default(40),
  /** How far a file's compressed data (PDF streams, PNG data, TIFF strips) may expand, in all (422 past it). */
  ANALYSIS_MAX_DECOMPRESSED_MB: z.coerce.number().int().min(1).default(256),
  /** Words an analysis may find on one page, and in the whole document (422 past them): results are kept and read back whole. */
  ANALYSIS_MAX_WORDS_PER_PAGE: z.coerce.number().int().min(1).default(3000),
  ANALYSIS_MAX_WORDS: z.coerce.number().int().min(1).default(30_000),
  /** Characters of all the words an analysis may find in a document (422 past it): 30 dense pages hold about 220,000. */
  ANALYSIS_MAX_TEXT_CHARS: z.coerce.number().int().min(1).default(500_000),
  /** Megabytes of blocks (JSON) an analysis may produce (422 past it); four fit the GraphQL cost limit. */
  ANALYSIS_MAX_BLOCKS_MB: z.coerce.number().min(0.001).default(14),
  /** Local-engine processes per instance: analyses that run at once. */
  ANALYSIS_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  /** Of those, how many one organization may use at once; unset: all but one (the rest stay free for others). */
  ANALYSIS_WORKERS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(64).optional(),
  /** Synchronous analyses of one organization that may wait for a worker on an instance; past it 429. */
  ANALYSIS_MAX_WAITING_PER_ORGANIZATION: z.coerce.number().int().min(0).default(4),
  /** Memory one engine process may take for an analysis beyond its start-up size; past it only that analysis fails (422). */
  ANALYSIS_WORKER_MEMORY_MB: z.coerce.number().int().min(64).default(1536),
  /** How long analyze-async waits for its job before answering 202. */
  ANALYSIS_WAIT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** Longest one local analysis may run before its engine process is killed (422). */
  ANALYSIS_TIMEOUT_MS: z.coerce.number().int().min(10).default(120_000),
  /**
   * How long an analyze-async job may run before the queue takes its worker for dead and retries it
   * (a crashed instance's job waits this long); keep it above ANALYSIS_TIMEOUT_MS.
   */
  ANALYSIS_JOB_EXPIRE_SECONDS: z.coerce.number().int().min(1).max(86_399).default(900),
});

export type Config = z.infer<typeof EnvSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${details}`);
  }
  return parsed.data;
}
