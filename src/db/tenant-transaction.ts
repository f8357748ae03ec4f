import type { Prisma } from '../generated/prisma/client.ts';
import type { Database } from './client.ts';
import type { Actor } from './tenant.ts';

export type TenantTransaction = Prisma.TransactionClient;

/**
 * Several statements that must succeed or fail together, as the
 * `compliance_tenant` role with the organization set, so row-level security
 * applies to every one of them (src/db/tenant.ts does the same per query).
 * Rows written here must carry their organizationId themselves.
 */
export function inTenantTransaction<T>(
  db: Database,
  organizationId: string,
  work: (tx: TenantTransaction) => Promise<T>,
  options: { timeoutMs?: number; who?: Actor } = {},
): Promise<T> {
  const actor = options.who?.actor ?? '';
  const requestId = options.who?.requestId ?? '';
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT set_config('role', 'compliance_tenant', TRUE), set_config('app.organization_id', ${organizationId}, TRUE),
        set_config('app.actor', ${actor}, TRUE), set_config('app.request_id', ${requestId}, TRUE)`;
      return work(tx);
    },
    { maxWait: 5_000, timeout: options.timeoutMs ?? 15_000 },
  );
}
