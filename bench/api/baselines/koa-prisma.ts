// Baseline 3, the floor of the chosen data layer: the Koa + pg baseline's
// endpoints with the same key lookup (one SQL statement by hash), but every
// read and write of the endpoint through Prisma, set up as the service sets it
// up (driver adapter over pg, named prepared statements: src/db/client.ts).
// No GraphQL, row-level security, logging, metrics or rate limits. It answers
// the same JSON (the benchmark compares the bodies), so the gap between it and
// Koa + pg is what Prisma itself costs, and the gap between it and the service
// is what the GraphQL pipeline and the service's middleware cost.
import pg from 'pg';
import { createDatabase } from '../../../src/db/client.ts';
import type { Prisma } from '../../../src/generated/prisma/client.ts';
import { textSearch } from '../../../src/db/text-search.ts';
import { baselineApp, HttpError, jsonBody, listBody, need, page, UUID } from './koa-baseline.ts';

const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);
const keys = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: poolSize });
const db = createDatabase(process.env.DATABASE_URL!, poolSize);

const CASE_SELECT = {
  id: true, email: true, firstName: true, lastName: true, phoneNumber: true, dateOfBirth: true, nationality: true, address: true, status: true, createdAt: true, updatedAt: true,
} satisfies Prisma.ConsumerCaseSelect;
const TASK_SELECT = {
  id: true, title: true, description: true, dueDate: true, priority: true, status: true, completedAt: true, businessCaseId: true, consumerCaseId: true,
  assignees: { select: { userId: true, assignedAt: true }, orderBy: [{ assignedAt: 'asc' }, { userId: 'asc' }] }, createdAt: true, updatedAt: true,
} satisfies Prisma.TaskSelect;
const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

type CaseRow = Prisma.ConsumerCaseGetPayload<{ select: typeof CASE_SELECT }>;
// The API's shape and key order (a calendar date as written), as Koa + pg answers it.
const caseBody = (row: CaseRow) => ({
  id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName, phoneNumber: row.phoneNumber,
  dateOfBirth: row.dateOfBirth?.toISOString().slice(0, 10) ?? null, nationality: row.nationality, address: row.address, status: row.status,
  createdAt: row.createdAt, updatedAt: row.updatedAt,
});

const { router, listen } = baselineApp(keys);

router.get('/v1/consumer-cases', async (ctx) => {
  need(ctx.state, 'consumer_cases:read');
  const window = page(ctx.query);
  const where: Prisma.ConsumerCaseWhereInput = {
    organizationId: ctx.state.organizationId,
    ...(ctx.query.status ? { status: ctx.query.status as Prisma.ConsumerCaseWhereInput['status'] } : {}),
    ...textSearch(ctx.query.search as string | undefined, ['firstName', 'lastName', 'email'] as const),
  };
  const [rows, total] = await Promise.all([
    db.consumerCase.findMany({ where, select: CASE_SELECT, orderBy: NEWEST_FIRST, take: window.limit, skip: window.offset }),
    db.consumerCase.count({ where }),
  ]);
  ctx.body = listBody(rows.map(caseBody), total, window);
});

router.get('/v1/consumer-cases/:id', async (ctx) => {
  need(ctx.state, 'consumer_cases:read');
  const id = ctx.params.id!;
  const row = UUID.test(id) ? await db.consumerCase.findFirst({ where: { id, organizationId: ctx.state.organizationId }, select: CASE_SELECT }) : null;
  if (!row) throw new HttpError(404, `Consumer case ${id} not found`);
  ctx.body = caseBody(row);
});

router.post('/v1/consumer-cases', async (ctx) => {
  need(ctx.state, 'consumer_cases:write');
  const input = await jsonBody(ctx);
  if (typeof input.email !== 'string' || !input.email.includes('@')) throw new HttpError(400, 'email: must be an email address');
  const row = await db.consumerCase.create({
    data: {
      organizationId: ctx.state.organizationId, email: input.email, firstName: input.firstName, lastName: input.lastName, phoneNumber: input.phoneNumber,
      dateOfBirth: input.dateOfBirth ? new Date(input.dateOfBirth) : undefined, nationality: input.nationality,
    },
    select: CASE_SELECT,
  });
  ctx.status = 201;
  ctx.body = caseBody(row);
});

router.get('/v1/tasks', async (ctx) => {
  need(ctx.state, 'tasks:read');
  const window = page(ctx.query);
  const where: Prisma.TaskWhereInput = {
    organizationId: ctx.state.organizationId,
    ...(ctx.query.status ? { status: ctx.query.status as Prisma.TaskWhereInput['status'] } : {}),
    ...(ctx.query.priority ? { priority: ctx.query.priority as Prisma.TaskWhereInput['priority'] } : {}),
  };
  const [rows, total] = await Promise.all([
    db.task.findMany({ where, select: TASK_SELECT, orderBy: NEWEST_FIRST, take: window.limit, skip: window.offset }),
    db.task.count({ where }),
  ]);
  ctx.body = listBody(rows, total, window);
});

listen();
