// One bounded closed-loop run of autocannon against one server: each
// connection sends its next request when the last is answered, for a fixed
// time and at most a fixed count. A non-2xx answer, a GraphQL `errors` member,
// a connection error or a timeout is counted and fails the benchmark.
import autocannon from 'autocannon';
import type { HttpRequest } from './scenarios.ts';

export interface RunFigures {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  failures: number;
  /** The first failing answer, for the report. */
  sample?: string;
}

export async function drive(
  base: string,
  next: () => HttpRequest,
  options: { connections: number; seconds: number; maxRequests: number; timeoutSeconds: number },
): Promise<RunFigures> {
  let wrong = 0;
  let sample: string | undefined;
  const result = await autocannon({
    url: base,
    connections: options.connections,
    duration: options.seconds,
    maxOverallRequests: options.maxRequests,
    timeout: options.timeoutSeconds,
    requests: [
      {
        setupRequest: (request: autocannon.Request) => {
          const { method, path, headers, body } = next();
          return { ...request, method, path, headers, body };
        },
        onResponse: (status: number, body: string) => {
          const failed = status < 200 || status > 299 || body.startsWith('{"errors"') || body.includes('"errors":[');
          if (failed) {
            wrong++;
            sample ??= `${status} ${String(body).slice(0, 300)}`;
          }
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    perSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    // autocannon's own non-2xx count too, in case a response never reached onResponse.
    failures: Math.max(wrong, result.non2xx) + result.errors + result.timeouts,
    sample: sample ?? (result.errors || result.timeouts ? `${result.errors} errors, ${result.timeouts} timeouts` : undefined),
  };
}
