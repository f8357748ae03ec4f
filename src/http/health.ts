import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';
import type { Database } from '../db/client.ts';
import { errorBody } from '../errors.ts';
import type { ObjectStore } from '../storage/object-store.ts';

const CHECK_TIMEOUT_MS = 3_000;

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'failing'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([probe(), new Promise((_resolve, reject) => { timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS); })]);
    return 'ok';
  } catch {
    return 'failing';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz`: the process answers (liveness). `/readyz`: the database and the
 * file store answer too (readiness; 503 in the error shape, naming what
 * fails). `/metrics`: Prometheus text. None needs an API key; put them on an
 * internal network or set METRICS_TOKEN for `/metrics`.
 */
export function healthEndpoints(options: { db: Database; store: ObjectStore; metrics: Registry; metricsToken?: string }): Middleware {
  const { db, store, metrics, metricsToken } = options;
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
    } else if (ctx.path === '/readyz') {
      const [database, storage] = await Promise.all([check(() => db.$queryRaw`SELECT 1`), check(() => store.checkReachable())]);
      const checks = { database, storage };
      const failing = Object.entries(checks).filter(([, state]) => state !== 'ok').map(([name]) => name);
      ctx.set('Cache-Control', 'no-store');
      if (failing.length) {
        ctx.status = 503;
        ctx.body = { ...errorBody(503, `Not ready: ${failing.join(' and ')} unreachable`), checks };
      } else {
        ctx.body = { status: 'ready', checks };
      }
    } else if (ctx.path === '/metrics') {
      if (metricsToken && ctx.get('authorization') !== `Bearer ${metricsToken}`) {
        ctx.status = 401;
        ctx.body = errorBody(401, 'Unauthorized');
        return;
      }
      ctx.type = metrics.contentType;
      ctx.body = await metrics.metrics();
    } else {
      return next();
    }
  };
}
