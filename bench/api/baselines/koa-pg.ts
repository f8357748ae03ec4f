// Baseline 2, the ceiling of the data path: a minimal Koa + `pg` server doing
// the benchmarked endpoints' work by hand with the equivalent SQL. It looks the
// API key up by hash and checks the permission, filters by the key's
// organization, and answers the same JSON as the REST API (the benchmark
// compares the bodies), with a pool as large as the service's. No GraphQL, no
// ORM, no row-level security, no logging, metrics or rate limits.
import pg from 'pg';
import { baselineApp, HttpError, jsonBody, listBody, need, type Page, page, UUID } from './koa-baseline.ts';

// DATE as written, not a local-midnight Date.
pg.types.setTypeParser(1082, (value) => value);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });

const CASE_COLUMNS = `id, email, first_name AS "firstName", last_name AS "lastName", phone_number AS "phoneNumber",
  date_of_birth AS "dateOfBirth", nationality, address, status, created_at AS "createdAt", updated_at AS "updatedAt"`;
const TASK_COLUMNS = `t.id, t.title, t.description, t.due_date AS "dueDate", t.priority, t.status, t.completed_at AS "completedAt",
  t.business_case_id AS "businessCaseId", t.consumer_case_id AS "consumerCaseId",
  COALESCE((SELECT json_agg(json_build_object('userId', a.user_id, 'assignedAt', a.assigned_at) ORDER BY a.assigned_at, a.user_id)
              FROM task_assignees a WHERE a.task_id = t.id), '[]') AS assignees,
  t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

const { router, listen } = baselineApp(pool);

/** Every word must occur in one of the columns (case-insensitive), as the API's `search`. */
function searchFilter(search: unknown, columns: string[], params: unknown[]): string[] {
  const terms = String(search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8);
  return terms.map((term) => {
    params.push(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    return `(${columns.map((column) => `${column} ILIKE $${params.length}`).join(' OR ')})`;
  });
}

async function list(table: string, columns: string, where: string[], params: unknown[], window: Page) {
  const condition = where.join(' AND ');
  const [items, count] = await Promise.all([
    pool.query(`SELECT ${columns} FROM ${table} WHERE ${condition} ORDER BY created_at DESC, id DESC LIMIT ${window.limit} OFFSET ${window.offset}`, params),
    pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${table} WHERE ${condition}`, params),
  ]);
  return listBody(items.rows, count.rows[0]!.total, window);
}

router.get('/v1/consumer-cases', async (ctx) => {
  need(ctx.state, 'consumer_cases:read');
  const params: unknown[] = [ctx.state.organizationId];
  const where = ['organization_id = $1'];
  if (ctx.query.status) {
    params.push(ctx.query.status);
    where.push(`status = $${params.length}::"ConsumerCaseStatus"`);
  }
  where.push(...searchFilter(ctx.query.search, ['first_name', 'last_name', 'email'], params));
  ctx.body = await list('consumer_cases', CASE_COLUMNS, where, params, page(ctx.query));
});

router.get('/v1/consumer-cases/:id', async (ctx) => {
  need(ctx.state, 'consumer_cases:read');
  const id = ctx.params.id!;
  const { rows } = UUID.test(id)
    ? await pool.query(`SELECT ${CASE_COLUMNS} FROM consumer_cases WHERE id = $1 AND organization_id = $2`, [id, ctx.state.organizationId])
    : { rows: [] };
  if (!rows[0]) throw new HttpError(404, `Consumer case ${id} not found`);
  ctx.body = rows[0];
});

router.post('/v1/consumer-cases', async (ctx) => {
  need(ctx.state, 'consumer_cases:write');
  const input = await jsonBody(ctx);
  if (typeof input.email !== 'string' || !input.email.includes('@')) throw new HttpError(400, 'email: must be an email address');
  const { rows } = await pool.query(
    `INSERT INTO consumer_cases (id, organization_id, email, first_name, last_name, phone_number, date_of_birth, nationality, updated_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, now()) RETURNING ${CASE_COLUMNS}`,
    [ctx.state.organizationId, input.email, input.firstName, input.lastName, input.phoneNumber, input.dateOfBirth, input.nationality],
  );
  ctx.status = 201;
  ctx.body = rows[0];
});

router.get('/v1/tasks', async (ctx) => {
  need(ctx.state, 'tasks:read');
  const params: unknown[] = [ctx.state.organizationId];
  const where = ['t.organization_id = $1'];
  if (ctx.query.status) {
    params.push(ctx.query.status);
    where.push(`t.status = $${params.length}::"TaskStatus"`);
  }
  if (ctx.query.priority) {
    params.push(ctx.query.priority);
    where.push(`t.priority = $${params.length}::"TaskPriority"`);
  }
  ctx.body = await list('tasks t', TASK_COLUMNS, where, params, page(ctx.query));
});

listen();
