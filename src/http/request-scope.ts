import { AsyncLocalStorage } from 'node:async_hooks';
import type { TenantSession } from '../db/tenant-sessions.ts';

/** Per-request values that log lines and the read path pick up without threading them through calls. */
export interface RequestScope {
  requestId: string;
  /** The connection the request authenticated on, serving its reads (src/db/tenant-sessions.ts). */
  tenantSession?: TenantSession;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}

/** Gives the request's session back to the pool early: the request will not read through it (mutations, uploads). */
export function releaseTenantSession() {
  const scope = requestScope.getStore();
  scope?.tenantSession?.release();
  if (scope) scope.tenantSession = undefined;
}
