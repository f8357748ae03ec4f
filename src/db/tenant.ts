import { getDatamodel } from '../generated/pothos-types.ts';
import type { Database } from './client.ts';

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
  requestId?: string;
}

/**
 * The statement that opens every tenant transaction: the `compliance_tenant`
 * role (row-level security), the organization, and who acts (audit trail).
 */
export function enterTenant(client: Pick<Database, '$executeRaw'>, organizationId: string, who?: Actor) {
  return client.$executeRaw`SELECT set_config('role', 'compliance_tenant', TRUE), set_config('app.organization_id', ${organizationId}, TRUE),
    set_config('app.actor', ${who?.actor ?? ''}, TRUE), set_config('app.request_id', ${who?.requestId ?? ''}, TRUE)`;
}

/**
 * The one place organization scoping happens. Every query on a tenant model
 * gets the organization in its filter (or its data, for creates), and runs in
 * a transaction as the `compliance_tenant` role with `app.organization_id`
 * set, so PostgreSQL's row-level security enforces the same rule, including
 * for nested relation loads that the filter above cannot reach. The actor
 * and request id go along for the audit trail (audit_events).
 */
export function forOrganization(db: Database, organizationId: string, who?: Actor) {
  return db.$extends({
    name: 'organization-scope',
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          const scopedArgs = TENANT_MODELS.has(model)
            ? scopeArgs(operation, args as AnyArgs, organizationId)
            : args;
          const [, result] = await db.$transaction([enterTenant(db, organizationId, who), query(scopedArgs as typeof args)]);
          return result;
        },
      },
    },
  });
}

export type TenantDatabase = ReturnType<typeof forOrganization>;
