import pg from 'pg';
import type { Logger } from 'pino';
import { markLeakproofOperators } from './leakproof-operators.ts';

/** The role requests switch to: row-level security keeps it to one organization's rows. */
export const TENANT_ROLE = 'compliance_tenant';
/** The role whose policies let the service's own work reach every row (migration 20261202000000). */
export const SYSTEM_ROLE = 'compliance_system';
/** Extensions the migrations use, made here so the service's role needs no right to create them. */
const EXTENSIONS = ['pg_trgm', 'btree_gist'];

/** The login role the service connects as, and the database it owns. */
export interface ServiceRole {
  role: string;
  password: string;
  database: string;
  /** Tests only: the role may create databases (some tests make throwaway ones). */
  createDatabases?: boolean;
}

export interface SetUpResult {
  /** Objects the administrator owned in the database, now the service role's (`ALTER ... OWNER` statements). */
  handedOver: string[];
  /** Functions still to be marked LEAKPROOF (the administrator is not a superuser). */
  leakproofMissing: string[];
}

/** A connection string to `database` on the administrator's server as the administrator. */
export function inDatabase(adminUrl: string, database: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** The service's connection string: the administrator's server, the service's role and database. */
export function serviceUrl(adminUrl: string, service: ServiceRole) {
  const url = new URL(inDatabase(adminUrl, service.database));
  url.username = encodeURIComponent(service.role);
  url.password = encodeURIComponent(service.password);
  return url.toString();
}

/** The role, password and database a service connection string names. */
export function serviceRoleOf(databaseUrl: string): ServiceRole {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.slice(1));
  if (!url.username || !database) throw new Error('The service connection string must name a role and a database');
  return { role: decodeURIComponent(url.username), password: decodeURIComponent(url.password), database };
}

/**
 * Warns when the service connects as a role that row-level security does not
 * hold: a superuser or a BYPASSRLS role passes every policy, so the
 * database's own backstop of organization scoping is off. Answers whether it is one.
 */
export async function warnIfExempt(databaseUrl: string, logger: Logger) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: [role] } = await client.query<{ name: string; superuser: boolean; bypassRls: boolean }>(
      'SELECT rolname AS name, rolsuper AS superuser, rolbypassrls AS "bypassRls" FROM pg_roles WHERE rolname = current_user',
    );
    const exempt = Boolean(role?.superuser || role?.bypassRls);
    if (exempt) {
      logger.warn(
        { role: role!.name, superuser: role!.superuser, bypassRls: role!.bypassRls },
        'connected to PostgreSQL as a role that row-level security does not hold: give the service a role of its own (npm run db:setup, docs/database.md)',
      );
    }
    return exempt;
  } finally {
    await client.end();
  }
}

/**
 * What an administrator does once so that the service runs as a role that is
 * neither a superuser nor exempt from row-level security (docs/database.md):
 * the service's login role; the tenant and system roles it switches to or
 * acts through; its database, owned by it (it runs the migrations); the
 * extensions; the LEAKPROOF marks. Objects the administrator created in that
 * database (migrations once applied as a superuser) are handed over to the
 * service's role, which must own the tables to alter them. Run again, it
 * changes nothing but the role's password. The embedded PostgreSQL runs it at
 * every start, `npm run db:setup` for any other server.
 */
export async function setUpDatabase(adminUrl: string, service: ServiceRole): Promise<SetUpResult> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await ensureServiceRole(admin, service);
    await ensureDatabase(admin, service);
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ connectionString: inDatabase(adminUrl, service.database) });
  await client.connect();
  try {
    for (const extension of EXTENSIONS) await client.query(`CREATE EXTENSION IF NOT EXISTS ${extension}`);
    const handedOver = await handOver(client, service.role);
    const { missing } = await markLeakproofOperators(client);
    return { handedOver, leakproofMissing: missing };
  } finally {
    await client.end();
  }
}

async function ensureServiceRole(admin: pg.Client, service: ServiceRole) {
  const role = admin.escapeIdentifier(service.role);
  const password = `PASSWORD ${admin.escapeLiteral(service.password)}`;
  const { rows: [self] } = await admin.query<{ name: string }>('SELECT current_user AS name');
  if (self!.name === service.role) throw new Error(`Run the set-up as an administrator, not as the service's role ${service.role}`);
  const { rows: [existing] } = await admin.query<{ rolsuper: boolean; rolbypassrls: boolean; rolcanlogin: boolean; rolcreatedb: boolean }>(
    'SELECT rolsuper, rolbypassrls, rolcanlogin, rolcreatedb FROM pg_roles WHERE rolname = $1',
    [service.role],
  );
  if (!existing) {
    // CREATE ROLE's defaults: NOSUPERUSER NOBYPASSRLS NOCREATEROLE NOCREATEDB.
    await admin.query(`CREATE ROLE ${role} LOGIN ${service.createDatabases ? 'CREATEDB' : ''} ${password}`);
  } else {
    // Only what differs: naming SUPERUSER or BYPASSRLS at all needs a superuser.
    const changes = [
      existing.rolsuper && 'NOSUPERUSER',
      existing.rolbypassrls && 'NOBYPASSRLS',
      !existing.rolcanlogin && 'LOGIN',
      service.createDatabases && !existing.rolcreatedb && 'CREATEDB',
    ].filter(Boolean);
    await admin.query(`ALTER ROLE ${role} ${changes.join(' ')} ${password}`);
  }
  for (const name of [TENANT_ROLE, SYSTEM_ROLE]) {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE ROLE ${name} NOLOGIN`);
  }
  // The first migration grants the tenant role to CURRENT_USER, which
  // PostgreSQL 16 and later allow only to a holder of ADMIN OPTION.
  await admin.query(`GRANT ${TENANT_ROLE} TO ${role} WITH ADMIN OPTION`);
  await admin.query(`GRANT ${SYSTEM_ROLE} TO ${role}`);
}

async function ensureDatabase(admin: pg.Client, service: ServiceRole) {
  const { rows: [database] } = await admin.query<{ owner: string }>(
    'SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1',
    [service.database],
  );
  const name = admin.escapeIdentifier(service.database);
  const role = admin.escapeIdentifier(service.role);
  if (!database) await admin.query(`CREATE DATABASE ${name} OWNER ${role}`);
  else if (database.owner !== service.role) await admin.query(`ALTER DATABASE ${name} OWNER TO ${role}`);
}

/**
 * Gives the service's role what the administrator owns in the database,
 * outside PostgreSQL's own schemas and extensions: schemas, tables, views,
 * sequences of their own (a column's sequence goes with its table), types,
 * functions. Answers the statements it ran.
 */
async function handOver(client: pg.Client, role: string) {
  const { rows } = await client.query<{ statement: string }>(
    `WITH me AS (SELECT oid FROM pg_roles WHERE rolname = current_user),
     mine AS (
       SELECT 'SCHEMA' AS kind, quote_ident(n.nspname) AS name, 'pg_namespace'::regclass AS catalog, n.oid, n.oid AS namespace
         FROM pg_namespace n WHERE n.nspowner = (SELECT oid FROM me) AND n.nspname <> 'public'
       UNION ALL
       SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
              c.oid::regclass::text, 'pg_class'::regclass, c.oid, c.relnamespace
         FROM pg_class c WHERE c.relowner = (SELECT oid FROM me) AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
       UNION ALL
       SELECT 'TYPE', t.oid::regtype::text, 'pg_type'::regclass, t.oid, t.typnamespace
         FROM pg_type t WHERE t.typowner = (SELECT oid FROM me) AND t.typtype IN ('e', 'd')
       UNION ALL
       SELECT 'ROUTINE', p.oid::regprocedure::text, 'pg_proc'::regclass, p.oid, p.pronamespace
         FROM pg_proc p WHERE p.proowner = (SELECT oid FROM me)
     )
     SELECT format('ALTER %s %s OWNER TO %I', kind, name, $1::text) AS statement
       FROM mine JOIN pg_namespace n ON n.oid = mine.namespace
      WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
        -- Extension members stay the extension's; owned sequences follow their table.
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = mine.catalog AND d.objid = mine.oid AND d.deptype IN ('e', 'a', 'i'))
      ORDER BY kind = 'SCHEMA' DESC, statement`,
    [role],
  );
  for (const { statement } of rows) await client.query(statement);
  return rows.map((row) => row.statement);
}
