// Baseline 2, the ceiling of the data path: a minimal Koa + `pg` server doing
// the benchmarked endpoints' work by hand with the equivalent SQL. It looks the
// API key up by hash and checks the permission, filters by the key's
// organization, and answers the same JSON as the REST API (the benchmark
// compares the bodies), with a pool as large as the service's. No GraphQL, no
// ORM, no row-level security, no logging, metrics or rate limits.
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import pg from 'pg';

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
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type State = { organizationId: string; permissions: string[] };
const app = new Koa<State>();
const router = new Router<State>();

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

app.use(async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    ctx.status = status;
    ctx.body = { statusCode: status, message: (error as Error).message, error: status === 404 ? 'Not Found' : 'Error' };
  }
});

app.use(async (ctx, next) => {
  if (ctx.path === '/healthz') {
    ctx.body = { ok: true };
    return;
  }
  const presented = ctx.get('x-api-key');
  const hash = createHash('sha256').update(presented).digest('hex');
  const { rows } = await pool.query<{ organization_id: string; permissions: string[] }>(
    'SELECT organization_id, permissions FROM api_keys WHERE hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())',
    [hash],
  );
  if (!rows[0]) throw new HttpError(401, 'Unauthorized');
  ctx.state.organizationId = rows[0].organization_id;
  ctx.state.permissions = rows[0].permissions;
  await next();
});

const need = (state: State, permission: string) => {
  if (!state.permissions.includes(permission)) throw new HttpError(403, `Forbidden: lacks ${permission}`);
};

const page = (query: Record<string, unknown>) => {
  const pageNumber = Number(query.page ?? 1);
  const limit = Number(query.limit ?? 10);
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || !Number.isInteger(limit) || limit < 1 || limit > 100) throw new HttpError(400, 'Bad page');
  return { page: pageNumber, limit, offset: (pageNumber - 1) * limit };
};

/** Every word must occur in one of the columns (case-insensitive), as the API's `search`. */
function searchFilter(search: unknown, columns: string[], params: unknown[]): string[] {
  const terms = String(search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8);
  return terms.map((term) => {
    params.push(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    return `(${columns.map((column) => `${column} ILIKE $${params.length}`).join(' OR ')})`;
  });
}

async function list(table: string, columns: string, where: string[], params: unknown[], window: ReturnType<typeof page>) {
  const condition = where.join(' AND ');
  const [items, count] = await Promise.all([
    pool.query(`SELECT ${columns} FROM ${table} WHERE ${condition} ORDER BY created_at DESC, id DESC LIMIT ${window.limit} OFFSET ${window.offset}`, params),
    pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${table} WHERE ${condition}`, params),
  ]);
  const total = count.rows[0]!.total;
  return { success: true, items: items.rows, meta: { total, page: window.page, limit: window.limit, totalPages: Math.ceil(total / window.limit) } };
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
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string | undefined>;
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

app.use(router.routes());
app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
