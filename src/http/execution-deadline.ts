import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../errors.ts';

// The cost estimate (src/http/operation-cost.ts) can be wrong about bytes and
// CPU; this bounds a query whatever it was estimated at. graphql-tools'
// executor checks its abort signal between fields; the signal below also
// reads the clock whenever it is checked, so a long synchronous stretch of
// resolvers (rendering, big lists) stops at the next field, not when the
// event loop gets round to a timer.

/** A 400: the query ran past GRAPHQL_MAX_QUERY_MS and was stopped (also as `extensions.limit`). */
export class QueryTooSlowError extends AppError {
  constructor(maximum: number) {
    super('BAD_REQUEST', `Query too slow: stopped after ${maximum} ms (GRAPHQL_MAX_QUERY_MS); select fewer fields or smaller pages; see docs/api-limits.md`);
    this.extensions.limit = { name: 'time', maximum, found: `over ${maximum}` };
  }
}

/** An abort signal that is aborted, with `reason`, once `ms` have passed: by a timer, or whenever it is looked at after that. */
function deadlineSignal(ms: number, reason: () => Error, outer: AbortSignal | undefined) {
  const controller = new AbortController();
  const signal = controller.signal;
  const end = performance.now() + ms;
  const abort = () => {
    if (!signal.aborted) controller.abort(reason());
  };
  const timer = setTimeout(abort, ms);
  timer.unref();
  outer?.addEventListener('abort', () => controller.abort(outer.reason), { once: true });
  const checked = new Proxy(signal, {
    get(target, property) {
      if (property === 'aborted' || property === 'reason' || property === 'throwIfAborted') {
        if (performance.now() >= end) abort();
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { signal: checked, stop: () => clearTimeout(timer), expired: () => signal.reason instanceof QueryTooSlowError };
}

/**
 * Stops a query (not a mutation: those wait on mail, screening and analysis
 * by design and are bounded by their cost) that runs longer than `maxMs`,
 * answering one 400 instead of a partial result.
 */
export function useExecutionDeadline(maxMs: number): Plugin {
  return {
    onExecute({ args }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      // graphql-tools' executor reads `signal` from the arguments (yoga's own cancellation sets it the same way).
      const execution = args as typeof args & { signal?: AbortSignal };
      const deadline = deadlineSignal(maxMs, () => new QueryTooSlowError(maxMs), execution.signal);
      execution.signal = deadline.signal;
      return {
        onExecuteDone({ result, setResult }) {
          deadline.stop();
          if (deadline.expired() && !(Symbol.asyncIterator in result)) setResult({ errors: [new QueryTooSlowError(maxMs)] });
        },
      };
    },
  };
}
