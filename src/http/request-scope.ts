import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request values that log lines pick up without threading them through calls. */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}
