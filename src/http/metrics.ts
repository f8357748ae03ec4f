import type { Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobQueue } from '../jobs/queue.ts';

/** The route a request matched, as a label with few values: never ids or tokens. */
const FIXED_PATHS = new Set(['/graphql', '/healthz', '/readyz', '/metrics']);

function routeLabel(ctx: { path: string; _matchedRoute?: unknown }): string {
  if (typeof ctx._matchedRoute === 'string') return ctx._matchedRoute;
  if (FIXED_PATHS.has(ctx.path)) return ctx.path;
  // Refused before routing (401, 404, 405, ...): grouped, since the path may hold anything.
  for (const prefix of ['/v1/', '/files/', '/onboarding/']) if (ctx.path.startsWith(prefix)) return `${prefix}*`;
  return 'other';
}

/**
 * Prometheus metrics: request counts and latencies by method, route and
 * status; job queue depth by queue (read on each scrape); Node's own process
 * metrics. One registry per service, so tests can run several services.
 */
export function createMetrics(queue: JobQueue) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total', help: 'HTTP requests by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const, registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds', help: 'HTTP request latency by method and route.',
    labelNames: ['method', 'route'] as const, registers: [registry],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  new Gauge({
    name: 'job_queue_depth', help: 'Jobs waiting or running, by queue.',
    labelNames: ['queue'] as const, registers: [registry],
    async collect() {
      this.reset();
      for (const { name } of await queue.getQueues()) {
        this.set({ queue: name }, await queue.getQueueSize(name, { before: 'completed' }));
      }
    },
  });

  const measure: Middleware = async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const route = routeLabel(ctx as never);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      requests.inc({ method: ctx.method, route, status: String(ctx.status) });
      duration.observe({ method: ctx.method, route }, seconds);
    }
  };
  return { registry, measure };
}
