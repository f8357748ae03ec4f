import { getDatamodel } from '../generated/pothos-types.ts';
import type { Database } from './client.ts';
import type { TenantSessions } from './tenant-sessions.ts';
import { requestScope } from '../http/request-scope.ts';
import type { Prisma } from '../generated/prisma/client.ts';

/** Models whose rows belong to one organization (they have `organizationId`). */
const TENANT_MODELS = new Set(
  Object.entries(getDatamodel().datamodel.models)
    .filter(([, model]) => model.fields.some((field) => field.name === 'organizationId'))
    .map(([name]) => name),
);

const FILTERED_OPERATIONS = new Set([
  'findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'findMany',
  'count', 'aggregate', 'groupBy', 'update', 'updateMany', 'delete', 'deleteMany', 'upsert',
]);

type AnyArgs = Record<string, unknown> & { where?: object; data?: unknown; create?: object };

/** Prisma's client property of each model (`consumerCase` → `ConsumerCase`). */
const MODEL_OF_DELEGATE = new Map(Object.keys(getDatamodel().datamodel.models).map((model) => [model[0]!.toLowerCase() + model.slice(1), model]));

/** The model operations a tenant client offers. */
const OPERATIONS = [
  'findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'findMany', 'create', 'createMany', 'createManyAndReturn',
  'update', 'updateMany', 'updateManyAndReturn', 'upsert', 'delete', 'deleteMany', 'count', 'aggregate', 'groupBy',
];

function scopeArgs(operation: string, args: AnyArgs, organizationId: string): AnyArgs {
  const scoped: AnyArgs = { ...args };
  if (FILTERED_OPERATIONS.has(operation)) {
    scoped.where = { ...args.where, organizationId };
  }
  if (operation === 'create') {
    scoped.data = { ...(args.data as object), organizationId };
  } else if (operation === 'createMany' || operation === 'createManyAndReturn') {
    const rows = Array.isArray(args.data) ? args.data : [args.data];
    scoped.data = rows.map((row) => ({ ...(row as object), organizationId }));
  } else if (operation === 'upsert') {
    scoped.create = { ...args.create, organizationId };
  }
  return scoped;
}

/** Who is acting, for the audit trail (the database's audit trigger reads these). */
export interface Actor {
  actor: string;
  /** The API key acting, when one is. */
  apiKeyId?: string;
  /** The integrator's user the key acts for (X-User-Id). */
  userId?: string;
  requestId?: string;
}

/**
 * The statement that opens every tenant transaction: the `compliance_tenant`
 * role (row-level security), the organization, and who acts (audit trail).
 */
export function enterTenant(client: Pick<Database, '$executeRaw'>, organizationId: string, who?: Actor, options: { readOnly?: boolean } = {}) {
  return client.$executeRaw`SELECT set_config('role', 'compliance_tenant', TRUE), set_config('app.organization_id', ${organizationId}, TRUE),
    set_config('app.actor', ${who?.actor ?? ''}, TRUE), set_config('app.request_id', ${who?.requestId ?? ''}, TRUE),
    set_config('app.api_key_id', ${who?.apiKeyId ?? ''}, TRUE), set_config('app.user_id', ${who?.userId ?? ''}, TRUE),
    set_config('transaction_read_only', ${options.readOnly ? 'on' : 'off'}, TRUE)`;
}

type TransactionClient = Prisma.TransactionClient;

// The longest a single operation may take; the wait for a connection is the client's (REQUEST_CONNECTION_WAIT_MS, src/db/client.ts).
const TRANSACTION_OPTIONS = { timeout: 60_000 };

/**
 * The reads of one read request (a GraphQL query operation), all through the
 * Prisma transaction of the request's tenant session
 * (src/db/tenant-sessions.ts): the connection it authenticated on, already
 * the tenant's, read-only, with the organization and who acts set, so a read
 * is one statement and one round trip. Active while the operation runs.
 */
export class SharedReadTransaction {
  active = false;

  /** `sessions`: where the current request's session is found; without, the transaction is never active (tools). */
  constructor(private readonly sessions?: TenantSessions) {}

  client(): Promise<TransactionClient> {
    const session = requestScope.getStore()?.tenantSession;
    if (!this.sessions || !session) return Promise.reject(new Error('No tenant session: reads through it belong to an authenticated request'));
    return session.transaction();
  }

  /** Ends the request's use of it (the transaction stays with its connection). */
  close() {
    this.active = false;
  }
}

/** Prisma's client property for a model name (`ConsumerCase` → `consumerCase`). */
const delegateOf = (client: TransactionClient, model: string) =>
  (client as unknown as Record<string, Record<string, (args: unknown) => Promise<unknown>>>)[model[0]!.toLowerCase() + model.slice(1)]!;

/**
 * The one place organization scoping happens. Every query on a tenant model
 * gets the organization in its filter (or its data, for creates), and runs in
 * a transaction as the `compliance_tenant` role with `app.organization_id`
 * set, so PostgreSQL's row-level security enforces the same rule, including
 * for nested relation loads that the filter above cannot reach. The actor
 * and request id go along for the audit trail (audit_events).
 *
 * Each query gets its own transaction, unless `shared` is given and active:
 * then they all run in that one (read requests; src/http/read-transaction.ts).
 */
export function forOrganization(db: Database, organizationId: string, who?: Actor, shared?: SharedReadTransaction): Database {
  const run = async (model: string, operation: string, args: AnyArgs | undefined) => {
    const scopedArgs = TENANT_MODELS.has(model) ? scopeArgs(operation, args ?? {}, organizationId) : args;
    // Through the transaction's own client: single statements whose query
    // plans Prisma caches (a batch led by a raw statement is compiled afresh every time).
    if (shared?.active) return delegateOf(await shared.client(), model)[operation]!(scopedArgs);
    return db.$transaction(async (tx) => {
      await enterTenant(tx, organizationId, who);
      return delegateOf(tx, model)[operation]!(scopedArgs);
    }, TRANSACTION_OPTIONS);
  };
  // A plain wrapper rather than a Prisma client extension: one is made per
  // request, and an extension's proxies and extra request pass cost more
  // than the query itself on a read by id.
  const delegates = new Map<string, object>();
  const delegate = (property: string, model: string) => {
    let found = delegates.get(property);
    if (!found) {
      found = Object.fromEntries(OPERATIONS.map((operation) => [operation, (args?: AnyArgs) => run(model, operation, args)]));
      delegates.set(property, found);
    }
    return found;
  };
  return new Proxy(db, {
    get(target, property) {
      const model = typeof property === 'string' ? MODEL_OF_DELEGATE.get(property) : undefined;
      if (model) return delegate(property as string, model);
      // Raw queries and the rest: the unscoped client's own (nothing tenant-owned is read that way).
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export type TenantDatabase = Database;
