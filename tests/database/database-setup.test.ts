// The set-up an administrator runs once (src/db/database-setup.ts, through
// `npm run db:setup`; the embedded PostgreSQL runs it at every start): the
// service's role is neither a superuser nor exempt from row-level security,
// owns its database, migrates it, takes over what an earlier superuser set up,
// and the service warns when it connects as a role row-level security does not hold.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { inDatabase, serviceUrl, setUpDatabase } from '../../src/db/database-setup.ts';
import { migrate } from '../../src/db/migrate.ts';
import { prepareDatabase } from '../../src/service.ts';
import { capturedLogs } from '../helpers/logs.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const adminUrl = inject('adminDatabaseUrl');
const made: Array<{ role: string; database: string }> = [];

/** A role and database name of this run's own. */
function fresh(label: string) {
  const suffix = randomBytes(4).toString('hex');
  const names = { role: `${label}_${suffix}`, password: randomBytes(9).toString('base64url'), database: `${label}_db_${suffix}` };
  made.push(names);
  return names;
}

async function query<Row extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  for (const { role, database } of made) {
    await query(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await query(adminUrl, `DROP ROLE IF EXISTS ${role}`);
  }
});

describe('database set-up', () => {
  it('makes a login role that is neither a superuser nor exempt from row-level security, owning its database, which it then migrates', async () => {
    const service = fresh('setup');
    await setUpDatabase(adminUrl, service);
    const url = serviceUrl(adminUrl, service);
    const [role] = await query(url, `SELECT r.rolsuper, r.rolbypassrls, r.rolcreaterole, pg_get_userbyid(d.datdba) = current_user AS owner,
        pg_has_role(current_user, 'compliance_tenant', 'SET') AS tenant, pg_has_role(current_user, 'compliance_system', 'USAGE') AS system
      FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()`);
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false, rolcreaterole: false, owner: true, tenant: true, system: true });
    // Every migration, the first's GRANT ... TO CURRENT_USER included, as that role.
    const { applied } = await migrate(url);
    expect(applied.length).toBeGreaterThan(15);
    const [{ leakproof }] = (await query<{ leakproof: boolean }>(url, "SELECT bool_and(proleakproof) AS leakproof FROM pg_proc WHERE oid IN ('pg_catalog.enum_eq(anyenum, anyenum)'::regprocedure, 'pg_catalog.texticlike(text, text)'::regprocedure)")) as [{ leakproof: boolean }];
    expect(leakproof).toBe(true);
    // Run again, it changes nothing.
    expect(await setUpDatabase(adminUrl, service)).toEqual({ handedOver: [], leakproofMissing: [] });
  });

  it('hands over what a superuser set up before (an embedded cluster of an earlier version), so the service\'s role works on', async () => {
    const service = fresh('legacy');
    await query(adminUrl, `CREATE DATABASE ${service.database}`);
    const legacyUrl = inDatabase(adminUrl, service.database);
    // Migrated as a superuser, with a job queue's schema beside.
    await migrate(legacyUrl);
    await query(legacyUrl, `CREATE SCHEMA jobs; CREATE TYPE jobs.mood AS ENUM ('calm'); CREATE TABLE jobs.queue (id bigserial PRIMARY KEY, mood jobs.mood);
      CREATE FUNCTION jobs.answer() RETURNS int LANGUAGE sql AS 'SELECT 42'`);
    const { handedOver } = await setUpDatabase(adminUrl, service);
    expect(handedOver).toEqual(expect.arrayContaining([
      `ALTER SCHEMA jobs OWNER TO ${service.role}`, `ALTER TABLE jobs.queue OWNER TO ${service.role}`, `ALTER TABLE consumer_cases OWNER TO ${service.role}`,
    ]));
    const owners = await query<{ owner: string }>(legacyUrl, `SELECT DISTINCT pg_get_userbyid(owner) AS owner FROM (
        SELECT nspowner AS owner FROM pg_namespace WHERE nspname = 'jobs'
        UNION ALL SELECT relowner FROM pg_class WHERE relnamespace IN ('jobs'::regnamespace, 'public'::regnamespace)
        UNION ALL SELECT typowner FROM pg_type WHERE typnamespace IN ('jobs'::regnamespace, 'public'::regnamespace) AND typtype = 'e'
        UNION ALL SELECT p.proowner FROM pg_proc p WHERE p.pronamespace IN ('jobs'::regnamespace, 'public'::regnamespace)
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')) AS o`);
    expect(owners).toEqual([{ owner: service.role }]);
    // Extensions stay their own (pg_trgm's functions are not handed over).
    const [extension] = await query<{ owner: string }>(legacyUrl, "SELECT pg_get_userbyid(proowner) AS owner FROM pg_proc WHERE proname = 'similarity'");
    expect(extension!.owner).not.toBe(service.role);
    // The service's role reads and writes through its system role (row-level security is forced).
    const url = serviceUrl(adminUrl, service);
    expect((await migrate(url)).applied).toEqual([]);
    const [organization] = await query<{ id: string }>(url, "INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'legacy') RETURNING id");
    await query(url, "INSERT INTO consumer_cases (id, organization_id, email, updated_at) VALUES (gen_random_uuid(), $1, 'a@example.com', now())", [organization!.id]);
    expect(await query(url, 'SELECT count(*)::int AS count FROM consumer_cases')).toEqual([{ count: 1 }]);
  });

  it('is what `npm run db:setup` runs, with the connection strings from the environment', async () => {
    const service = fresh('cli');
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'db:setup'], {
      cwd: ROOT, env: { ...process.env, ADMIN_DATABASE_URL: adminUrl, DATABASE_URL: serviceUrl(adminUrl, service) },
    });
    expect(stdout).toContain(`Role ${service.role} and database ${service.database} are set up for the service.`);
    const [role] = await query(serviceUrl(adminUrl, service), 'SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user');
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
  });
});

describe('the service at start', () => {
  const warnings = async (databaseUrl: string) => {
    const { logger, lines } = capturedLogs();
    await prepareDatabase(loadConfig({ DATABASE_URL: databaseUrl }), logger);
    return lines.map((line) => JSON.parse(line)).filter((line) => line.level === 40 && /row-level security does not hold/.test(line.msg));
  };

  it('warns when it connects as a superuser, naming the role', async () => {
    const [{ name }] = (await query<{ name: string }>(adminUrl, 'SELECT current_user AS name')) as [{ name: string }];
    expect(await warnings(adminUrl)).toEqual([expect.objectContaining({ role: name, superuser: true })]);
  });

  it('says nothing of the kind as the service\'s own role', async () => {
    expect(await warnings(inject('databaseUrl'))).toEqual([]);
  });
});
