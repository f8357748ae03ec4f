// The database-level backstop: with the application's filters out of the
// picture (raw SQL as the tenant role), PostgreSQL alone keeps organizations apart.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';

const client = new pg.Client({ connectionString: inject('databaseUrl') });
const orgA = randomUUID();
const orgB = randomUUID();
const caseA = randomUUID();
const taskA = randomUUID();
const fileA = randomUUID();

/** Runs `sql` in a transaction as the tenant role of `organizationId`. */
async function asTenant<Row extends pg.QueryResultRow>(organizationId: string | null, sql: string, params: unknown[] = []) {
  await client.query('BEGIN');
  try {
    await client.query("SELECT set_config('role', 'compliance_tenant', TRUE), set_config('app.organization_id', $1, TRUE)", [organizationId ?? '']);
    const result = await client.query<Row>(sql, params);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

beforeAll(async () => {
  await client.connect();
  await client.query('INSERT INTO organizations (id, name) VALUES ($1, $2), ($3, $4)', [orgA, `rls-a-${orgA}`, orgB, `rls-b-${orgB}`]);
  await client.query(
    "INSERT INTO consumer_cases (id, organization_id, email, updated_at) VALUES ($1, $2, 'a@example.com', now())",
    [caseA, orgA],
  );
  await client.query("INSERT INTO tasks (id, organization_id, title, consumer_case_id, updated_at) VALUES ($1, $2, 'A task', $3, now())", [taskA, orgA, caseA]);
  await client.query(
    "INSERT INTO files (id, organization_id, key, visibility, file_name, content_type, size, sha256) VALUES ($1, $2, $3, 'PRIVATE', 'a.pdf', 'application/pdf', 1, repeat('0', 64))",
    [fileA, orgA, `private/${orgA}/${fileA}.pdf`],
  );
});

afterAll(async () => {
  await client.query('DELETE FROM organizations WHERE id IN ($1, $2)', [orgA, orgB]);
  await client.end();
});

describe('row-level security', () => {
  it('shows an organization its own rows', async () => {
    const { rows } = await asTenant(orgA, 'SELECT id FROM consumer_cases WHERE id = $1', [caseA]);
    expect(rows).toHaveLength(1);
  });

  it('hides other organizations rows from reads, updates and deletes', async () => {
    expect((await asTenant(orgB, 'SELECT id FROM consumer_cases WHERE id = $1', [caseA])).rows).toHaveLength(0);
    expect((await asTenant(orgB, 'SELECT id FROM tasks WHERE id = $1', [taskA])).rows).toHaveLength(0);
    expect((await asTenant(orgB, "UPDATE consumer_cases SET email = 'x@y.z' WHERE id = $1", [caseA])).rowCount).toBe(0);
    expect((await asTenant(orgB, 'DELETE FROM tasks WHERE id = $1', [taskA])).rowCount).toBe(0);
    const { rows } = await client.query('SELECT email FROM consumer_cases WHERE id = $1', [caseA]);
    expect(rows[0].email).toBe('a@example.com');
  });

  it('hides files and refuses documents that point at another organization\'s file', async () => {
    expect((await asTenant(orgB, 'SELECT id FROM files WHERE id = $1', [fileA])).rows).toHaveLength(0);
    await expect(
      asTenant(orgB, "INSERT INTO documents (id, organization_id, file_id, type, updated_at) VALUES ($1, $2, $3, 'PASSPORT', now())", [randomUUID(), orgB, fileA]),
    ).rejects.toThrow(/row-level security/);
  });

  it('shows nothing when no organization is set', async () => {
    expect((await asTenant(null, 'SELECT id FROM consumer_cases')).rows).toHaveLength(0);
  });

  it('refuses rows written for another organization', async () => {
    await expect(
      asTenant(orgB, "INSERT INTO consumer_cases (id, organization_id, email, updated_at) VALUES ($1, $2, 'b@example.com', now())", [randomUUID(), orgA]),
    ).rejects.toThrow(/row-level security/);
    await expect(asTenant(orgA, 'UPDATE consumer_cases SET organization_id = $1 WHERE id = $2', [orgB, caseA])).rejects.toThrow(/row-level security/);
  });

  it('refuses a task that links a case of another organization', async () => {
    await expect(
      asTenant(orgB, "INSERT INTO tasks (id, organization_id, title, consumer_case_id, updated_at) VALUES ($1, $2, 'steal', $3, now())", [randomUUID(), orgB, caseA]),
    ).rejects.toThrow(/row-level security/);
  });

  it('hides other organizations from joins (nested relation loads)', async () => {
    const { rows } = await asTenant(orgB, 'SELECT t.id, c.email FROM tasks t LEFT JOIN consumer_cases c ON c.id = t.consumer_case_id');
    expect(rows).toEqual([]);
  });

  it('covers every tenant-readable table with an organization_id: row-level security on, with a policy', async () => {
    const { rows } = await client.query<{ table: string; rls: boolean; policies: number }>(`
      SELECT c.relname AS table, c.relrowsecurity AS rls,
             (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies
      FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'organization_id'
      WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace
        AND has_table_privilege('compliance_tenant', c.oid, 'SELECT') ORDER BY 1`);
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(rows.filter((r) => !r.rls || r.policies === 0)).toEqual([]);
  });

  it('refuses a screening that links a case of another organization, and keeps hit decisions append-only', async () => {
    await expect(
      asTenant(orgB, `INSERT INTO screenings (id, organization_id, target, subject_key, consumer_case_id, name, kind, threshold, algorithm_version, list_versions, requested_by, outcome, hit_count)
        VALUES ($1, $2, 'CONSUMER_CASE', 'x', $3, 'x', 'PERSON', 0.8, 'v', '[]', 'me', 'NO_HITS', 0)`, [randomUUID(), orgB, caseA]),
    ).rejects.toThrow(/row-level security/);
    const decision = randomUUID();
    await asTenant(orgA, `INSERT INTO hit_decisions (id, organization_id, subject_key, source_id, external_id, entity_fingerprint, decision, reason, decided_by)
      VALUES ($1, $2, 'consumer_case:x', 'ofac', '1', repeat('0', 64), 'FALSE_POSITIVE', 'namesake', 'analyst')`, [decision, orgA]);
    await expect(asTenant(orgA, "UPDATE hit_decisions SET decision = 'TRUE_MATCH' WHERE id = $1", [decision])).rejects.toThrow(/permission denied/);
    await expect(asTenant(orgA, 'DELETE FROM hit_decisions WHERE id = $1', [decision])).rejects.toThrow(/permission denied/);
    expect((await asTenant(orgB, 'SELECT id FROM hit_decisions WHERE id = $1', [decision])).rows).toEqual([]);
  });

  it('keeps API keys and organizations away from the tenant role', async () => {
    await expect(asTenant(orgA, 'SELECT hash FROM api_keys')).rejects.toThrow(/permission denied/);
    await expect(asTenant(orgA, 'SELECT name FROM organizations')).rejects.toThrow(/permission denied/);
  });
});

describe('the service\'s own role (the test run connects as the service does)', () => {
  it('is neither a superuser nor exempt from row-level security, and owns the tables', async () => {
    const { rows: [role] } = await client.query(
      `SELECT rolsuper, rolbypassrls, (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'consumer_cases'::regclass) = current_user AS owner
         FROM pg_roles WHERE rolname = current_user`,
    );
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false, owner: true });
  });

  it('is held by row-level security on every table that has it (FORCE), and reaches rows only through the system role\'s policy', async () => {
    const { rows } = await client.query<{ table: string; forced: boolean; system: boolean }>(`
      SELECT c.relname AS table, c.relforcerowsecurity AS forced,
             EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid AND 'compliance_system'::regrole = ANY (p.polroles)) AS system
        FROM pg_class c WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace AND c.relrowsecurity ORDER BY 1`);
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(rows.filter((r) => !r.forced || !r.system)).toEqual([]);
    // Through its membership of compliance_system, which the tenant role never has.
    const { rows: [membership] } = await client.query(
      "SELECT pg_has_role(current_user, 'compliance_system', 'USAGE') AS service, pg_has_role('compliance_tenant', 'compliance_system', 'USAGE') AS tenant",
    );
    expect(membership).toEqual({ service: true, tenant: false });
  });

  it('sees no tenant rows without the system role, though it owns the tables', async () => {
    const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
    await admin.connect();
    try {
      const owner = admin.escapeIdentifier((await client.query<{ name: string }>('SELECT current_user AS name')).rows[0]!.name);
      const count = async (sql: string) => Number((await admin.query<{ count: string }>(sql, [orgA])).rows[0]!.count);
      await admin.query('BEGIN');
      try {
        await admin.query(`SET LOCAL ROLE ${owner}`);
        expect(await count('SELECT count(*) FROM consumer_cases WHERE organization_id = $1')).toBe(1);
        await admin.query('RESET ROLE');
        // Revoked for this transaction only (rolled back below).
        await admin.query(`REVOKE compliance_system FROM ${owner}`);
        await admin.query(`SET LOCAL ROLE ${owner}`);
        expect(await count('SELECT count(*) FROM consumer_cases WHERE organization_id = $1')).toBe(0);
        expect(await count('SELECT count(*) FROM files WHERE organization_id = $1')).toBe(0);
        expect(await count('SELECT count(*) FROM tasks WHERE organization_id = $1')).toBe(0);
        // Nor can it write them.
        await expect(admin.query("UPDATE consumer_cases SET email = 'x@y.z' WHERE organization_id = $1", [orgA])).resolves.toMatchObject({ rowCount: 0 });
      } finally {
        await admin.query('ROLLBACK');
      }
    } finally {
      await admin.end();
    }
  });
});

describe('migration runner', () => {
  it('is idempotent: a second run applies nothing', async () => {
    const result = await migrate(inject('databaseUrl'));
    expect(result.applied).toEqual([]);
    expect(result.alreadyApplied.length).toBeGreaterThan(0);
  });

  it('records migrations in Prisma\'s _prisma_migrations format', async () => {
    const { rows } = await client.query('SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
    }
  });
});
