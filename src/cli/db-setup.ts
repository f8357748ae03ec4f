// Administrator command, run once per database (and again after a
// pg_upgrade): `ADMIN_DATABASE_URL=... DATABASE_URL=... npm run db:setup`.
// Sets a PostgreSQL server up so the service runs as a role of its own that
// row-level security holds (docs/database.md). Connection strings come from
// the environment, not the command line, so their passwords stay out of `ps`.
import { serviceRoleOf, setUpDatabase } from '../db/database-setup.ts';

const USAGE = `Usage: ADMIN_DATABASE_URL=<a superuser's connection string> DATABASE_URL=<the service's> npm run db:setup

Creates (or updates) the service's login role and database named in DATABASE_URL:
not a superuser, not exempt from row-level security, owner of its database, member
of compliance_tenant and compliance_system; the extensions pg_trgm and btree_gist;
the LEAKPROOF marks. Objects the administrator owns in that database are handed to
the service's role. Safe to run again. See docs/database.md.`;

const adminUrl = process.env.ADMIN_DATABASE_URL;
const databaseUrl = process.env.DATABASE_URL;
if (!adminUrl || !databaseUrl) {
  console.error(databaseUrl || adminUrl ? USAGE : `${USAGE}\n\nWithout DATABASE_URL the service's embedded PostgreSQL sets itself up at every start.`);
  process.exit(2);
}
try {
  const service = serviceRoleOf(databaseUrl);
  const result = await setUpDatabase(adminUrl, service);
  console.log(`Role ${service.role} and database ${service.database} are set up for the service.`);
  if (result.handedOver.length) console.log(`Handed over to ${service.role}:\n  ${result.handedOver.join('\n  ')}`);
  if (result.leakproofMissing.length) {
    console.log(
      `Not a superuser, so these functions are not marked LEAKPROOF (status filters and search then read every row of an organization); a superuser runs:\n  ${result.leakproofMissing.map((signature) => `ALTER FUNCTION ${signature} LEAKPROOF;`).join('\n  ')}`,
    );
  }
} catch (error) {
  console.error(`db:setup failed: ${(error as Error).message}`);
  process.exit(1);
}
