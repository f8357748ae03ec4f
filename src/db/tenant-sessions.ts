import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Logger } from 'pino';
import { type Prisma, PrismaClient } from '../generated/prisma/client.ts';
import { requestScope } from '../http/request-scope.ts';
import type { CounterTakes } from '../auth/rate-limit-leases.ts';
import { statementNames } from './client.ts';
import { ConnectionPool } from './connection-pool.ts';
import { OrganizationSlots } from './organization-slots.ts';
import type { RequestDatabaseLimits } from './request-limits.ts';

/** What opening a session checks: the presented key's hash, and what the request counts and records. */
export interface SessionRequest {
  keyHash: string;
  now: Date;
  /** What to add to the rate-limit counters of a window (src/auth/rate-limit-leases.ts); undefined when limits are off. */
  count?: CounterTakes;
  userId?: string;
  requestId?: string;
}

/** The key a session was opened with, as `authenticate_request` (migration 20261129000000) returns it. */
export interface SessionKeyRow {
  key_id: string;
  key_organization_id: string;
  key_permissions: string[];
  key_last_used_at: Date | null;
  key_label: string | null;
  key_prefix: string;
  key_count: number | null;
  organization_count: number | null;
}

/** A connection that serves one request as its tenant, until released. */
export interface TenantSession {
  /** What Prisma's transactions get: this connection, with their BEGIN and COMMIT dropped. */
  readonly transactionView: pg.PoolClient;
  /** The Prisma transaction the request reads through (kept with the connection: one per connection, renewed each minute). */
  transaction(): Promise<Prisma.TransactionClient>;
  /** Gives the connection back to the pool; later calls do nothing. */
  release(): void;
}

/** What a request connection keeps across the requests it serves in turn. */
interface ConnectionState {
  /** The connection as its Prisma transactions see it (transactionView). */
  view: pg.PoolClient;
  transaction?: ConnectionTransaction;
}

/** A connection authenticated for a request, not yet a session. */
interface Authenticated {
  client: pg.PoolClient;
  state: ConnectionState;
  key: SessionKeyRow;
}

/** A Prisma transaction bound to one connection, reused by the requests it serves in turn. */
interface ConnectionTransaction {
  client: Promise<Prisma.TransactionClient>;
  startedAt: number;
  end(): void;
}

// Prisma ends a transaction past its timeout; each is renewed well before.
const RENEW_AFTER_MS = 60_000;
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 10 * 60_000 };

// Statements Prisma sends around a transaction; a session is already set up
// and every read is one statement, so they need no round trip.
const TRANSACTION_CONTROL = /^(BEGIN|COMMIT|ROLLBACK|-- Implicit "COMMIT" query)$/;
const NOTHING = { command: '', rowCount: 0, oid: 0, rows: [], fields: [] };

function transactionView(client: pg.PoolClient): pg.PoolClient {
  // A request's resolvers read in parallel; their statements go to the
  // connection one after another from here (pg's own queue for a busy client
  // is deprecated and goes in pg 9).
  let previous: Promise<unknown> = Promise.resolve();
  return {
    query: (config: string | pg.QueryConfig, ...rest: unknown[]) => {
      const text = typeof config === 'string' ? config : config.text;
      if (TRANSACTION_CONTROL.test(text)) return Promise.resolve(NOTHING);
      const run = () => (client.query as (...args: unknown[]) => Promise<unknown>)(config, ...rest);
      const result = previous.then(run, run);
      previous = result.catch(() => {});
      return result;
    },
    release: () => {},
    on: (event: string, listener: (...args: unknown[]) => void) => client.on(event as 'error', listener),
    removeListener: (event: string, listener: (...args: unknown[]) => void) => client.removeListener(event as 'error', listener),
  } as unknown as pg.PoolClient;
}

/**
 * The read pool. Its connections are the `compliance_tenant` role,
 * read-only by default (set once, when a connection is first used). A request
 * with an API key takes one of them and authenticates on it, in one round
 * trip: `authenticate_request` checks the key, adds what the request takes
 * from the rate-limit counters and sets the organization and who acts as the connection's settings. Row-level security
 * applies to everything the request reads through it, and the reads need
 * neither BEGIN, a setup statement nor COMMIT (each is one statement,
 * read-only, as the tenant). The connection is the request's alone until it
 * is released, and every request sets it up afresh.
 *
 * `prisma` is a client over this pool for the request's reads
 * (src/db/tenant.ts SharedReadTransaction): its transactions run on the
 * current request's session, found through the request scope.
 */
export class TenantSessions {
  readonly prisma: PrismaClient;
  readonly #pool: pg.Pool;
  readonly #checkout: () => Promise<pg.PoolClient>;
  /** Connections already switched to the tenant role (read-only by default), with what they keep. */
  readonly #connections = new WeakMap<pg.PoolClient, ConnectionState>();
  /** Each organization's share of the pool; none without limits. */
  readonly #slots?: OrganizationSlots;

  /** `limits`: how long requests wait for a connection and for their statements (src/db/request-limits.ts); without, 10 s and none. */
  constructor(connectionString: string, size: number, logger: Logger, limits?: RequestDatabaseLimits) {
    if (limits && limits.connectionsPerOrganization < size) this.#slots = new OrganizationSlots(limits.connectionsPerOrganization, limits.connectionWaitMs);
    this.#pool = new ConnectionPool({
      connectionString,
      max: size,
      application_name: 'compliance-requests',
      // Past the wait, pg-pool gives up ("timeout exceeded when trying to connect"): 503 with Retry-After (src/db/unavailable.ts).
      connectionTimeoutMillis: limits?.connectionWaitMs ?? 10_000,
      // Every statement here is a request's: PostgreSQL's own limits, and the client's for when PostgreSQL does not answer at all.
      ...(limits && {
        statement_timeout: limits.statementTimeoutMs,
        lock_timeout: limits.lockTimeoutMs,
        idle_in_transaction_session_timeout: limits.idleInTransactionMs,
        queryTimeout: { ms: limits.queryTimeoutMs },
      }),
    });
    // A connection that fails while idle leaves the pool; the next request gets a new one.
    this.#pool.on('error', (error) => logger.warn({ err: error }, 'idle request connection failed'));
    this.#checkout = this.#pool.connect.bind(this.#pool) as () => Promise<pg.PoolClient>;
    // Prisma opens its transactions with connect(): the current request's session, never a free connection.
    this.#pool.connect = (() => {
      const session = requestScope.getStore()?.tenantSession;
      if (!session) return Promise.reject(new Error('No tenant session: reads through this client belong to an authenticated request'));
      return Promise.resolve(session.transactionView);
    }) as pg.Pool["connect"];
    this.#pool.query = (() => {
      throw new Error('Reads through this client run in a request\'s tenant session (a transaction)');
    }) as pg.Pool["query"];
    this.prisma = new PrismaClient({ adapter: new PrismaPg(this.#pool, { statementNameGenerator: statementNames() }) });
  }

  /**
   * Authenticates on a connection of the pool. With a usable key the
   * connection becomes a session (the caller releases it); without, it goes
   * back to the pool and the answer is null. An organization holds at most
   * its share of the pool (limits.connectionsPerOrganization): past it, the
   * connection goes back at once, the request waits for one of its
   * organization's sessions to end (or answers 503 naming the cap) and then
   * authenticates again, counting nothing more.
   */
  async open(request: SessionRequest): Promise<{ key: SessionKeyRow; session: TenantSession } | null> {
    const first = await this.#authenticate(request);
    if (!first) return null;
    const slots = this.#slots;
    const organizationId = first.key.key_organization_id;
    if (!slots) return this.#session(first);
    if (slots.tryTake(organizationId)) return this.#session(first, () => slots.give(organizationId));
    first.client.release();
    await slots.take(organizationId);
    try {
      const again = await this.#authenticate({ ...request, count: undefined });
      if (!again) {
        slots.give(organizationId);
        return null;
      }
      // The first answer holds what the request counted.
      return this.#session({ ...again, key: first.key }, () => slots.give(organizationId));
    } catch (error) {
      slots.give(organizationId);
      throw error;
    }
  }

  /** A session over an authenticated connection; `ended` runs once, when it is released. */
  #session({ client, state, key }: Authenticated, ended?: () => void): { key: SessionKeyRow; session: TenantSession } {
    let released = false;
    const session: TenantSession = {
      transactionView: state.view,
      transaction: () => this.#transactionOf(client, state),
      release: () => {
        if (released) return;
        released = true;
        client.release();
        ended?.();
      },
    };
    return { key, session };
  }

  /** Checks the key on a connection of the pool: the connection and the key, or null (connection given back) when the key is not usable. */
  async #authenticate(request: SessionRequest): Promise<Authenticated | null> {
    const client = await this.#checkout();
    try {
      const literal = (value: string) => client.escapeLiteral(value);
      // One Query message (simple protocol), so the statements run as one
      // transaction and the exchange is one round trip. A new connection
      // first becomes the tenant, read-only by default (session settings that
      // then stay: nothing sent on it changes them); a request that takes from
      // the rate-limit counters writes, so its transaction is made read-write
      // (most take nothing: src/auth/rate-limit-leases.ts). Every value is ours
      // or checked (hex hash, ISO dates, integers, X-User-Id and X-Request-Id
      // of printable ASCII) and quoted by the driver.
      const count = request.count;
      const writes = !!count && (count.key > 0 || count.organization > 0);
      const known = this.#connections.get(client);
      const setUp = known ? (writes ? ['SET TRANSACTION READ WRITE'] : []) : ['SET ROLE compliance_tenant', 'SET default_transaction_read_only = on'];
      const authentication = `SELECT * FROM authenticate_request(${literal(request.keyHash)}, ${literal(request.now.toISOString())}, ${
        count ? `${literal(count.window.toISOString())}, ${Math.trunc(count.key)}, ${Math.trunc(count.organization)}` : 'NULL, 0, 0'
      }, ${literal(request.userId ?? '')}, ${literal(request.requestId ?? '')})`;
      const answer = (await client.query([...setUp, authentication].join('; '))) as unknown as pg.QueryResult | pg.QueryResult[];
      const results = Array.isArray(answer) ? answer : [answer];
      const state = known ?? { view: transactionView(client) };
      if (!known) this.#connections.set(client, state);
      const key = results.at(-1)?.rows[0] as SessionKeyRow | undefined;
      if (!key) {
        client.release();
        return null;
      }
      return { client, state, key };
    } catch (error) {
      // A connection in an unknown state is not reused.
      client.release(error as Error);
      throw error;
    }
  }

  /**
   * The connection's Prisma transaction, started on first use (inside a
   * request, whose session it then finds) and kept: starting one costs more
   * than a read by id, and its BEGIN and COMMIT are no-ops here anyway. The
   * requests a connection serves never overlap, so Prisma never batches one
   * request's reads with another's.
   */
  #transactionOf(client: pg.PoolClient, state: ConnectionState): Promise<Prisma.TransactionClient> {
    let kept = state.transaction;
    if (kept && Date.now() - kept.startedAt > RENEW_AFTER_MS) {
      kept.end();
      kept = undefined;
    }
    if (!kept) {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      const started = new Promise<Prisma.TransactionClient>((resolve, reject) => {
        this.prisma.$transaction(async (tx) => {
          resolve(tx);
          await ended;
        }, TRANSACTION_OPTIONS).catch(reject);
      });
      const current: ConnectionTransaction = { client: started, startedAt: Date.now(), end };
      // A transaction that failed to start is not kept.
      started.catch(() => {
        if (state.transaction === current) state.transaction = undefined;
      });
      kept = state.transaction = current;
      client.once('end', end);
    }
    return kept.client;
  }

  async end() {
    await this.prisma.$disconnect();
    await this.#pool.end().catch(() => {});
  }
}
