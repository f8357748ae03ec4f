// What the two Koa baselines share, so they differ only in how the endpoints
// reach the data: the key lookup by hash (one SQL statement), the permission
// check, paging, the list envelope and the error shape.
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import pg from 'pg';

export type BaselineState = { organizationId: string; permissions: string[] };

export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const need = (state: BaselineState, permission: string) => {
  if (!state.permissions.includes(permission)) throw new HttpError(403, `Forbidden: lacks ${permission}`);
};

export type Page = { page: number; limit: number; offset: number };

export const page = (query: Record<string, unknown>): Page => {
  const pageNumber = Number(query.page ?? 1);
  const limit = Number(query.limit ?? 10);
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || !Number.isInteger(limit) || limit < 1 || limit > 100) throw new HttpError(400, 'Bad page');
  return { page: pageNumber, limit, offset: (pageNumber - 1) * limit };
};

export const listBody = (items: unknown[], total: number, window: Page) => ({
  success: true, items, meta: { total, page: window.page, limit: window.limit, totalPages: Math.ceil(total / window.limit) },
});

/** The request body as JSON (the baselines' only write takes one). */
export async function jsonBody(ctx: Koa.Context) {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string | undefined>;
}

/**
 * A Koa app that answers errors in the API's shape and authenticates every
 * request but /healthz through `keys`; the caller adds its routes to `router`
 * and then listens with `listen()` (PORT and HOST from the environment).
 */
export function baselineApp(keys: pg.Pool) {
  const app = new Koa<BaselineState>();
  const router = new Router<BaselineState>();
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
    const hash = createHash('sha256').update(ctx.get('x-api-key')).digest('hex');
    const { rows } = await keys.query<{ organization_id: string; permissions: string[] }>(
      'SELECT organization_id, permissions FROM api_keys WHERE hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())',
      [hash],
    );
    if (!rows[0]) throw new HttpError(401, 'Unauthorized');
    ctx.state.organizationId = rows[0].organization_id;
    ctx.state.permissions = rows[0].permissions;
    await next();
  });
  const listen = () => {
    app.use(router.routes());
    app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
  };
  return { router, listen };
}
