import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';

export type Database = PrismaClient;

/**
 * The unscoped client: it connects as the configured role, which row-level
 * security does not restrict. Request handling never uses it directly; it goes
 * through `forOrganization` (src/db/tenant.ts).
 */
export function createDatabase(connectionString: string, poolSize = 10): Database {
  const adapter = new PrismaPg({ connectionString, max: poolSize });
  return new PrismaClient({ adapter });
}
