import type { Prisma } from '../generated/prisma/client.ts';
import type { Database } from './client.ts';
import { type Actor, enterTenant } from './tenant.ts';

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
  return db.$transaction(
    async (tx) => {
      await enterTenant(tx, organizationId, options.who);
      return work(tx);
    },
    // The wait for a connection is the client's (REQUEST_CONNECTION_WAIT_MS, src/db/client.ts).
    { timeout: options.timeoutMs ?? 15_000 },
  );
}
