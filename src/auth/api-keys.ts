import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/client.ts';
import type { TenantSession, TenantSessions } from '../db/tenant-sessions.ts';
import { isPermission, type Permission } from './permissions.ts';
import type { RateLimitLeases, RequestCounts } from './rate-limit-leases.ts';

const KEY_PREFIX = 'cpk_';
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;

export interface AuthenticatedKey {
  id: string;
  organizationId: string;
  /** How the key is named where its actions are recorded (notes' author): its label, else its display prefix. */
  name: string;
  permissions: ReadonlySet<Permission>;
}

/** 256 random bits; the result is shown once and never stored. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Keys carry 256 bits of entropy, so a fast hash is enough (no salt/KDF). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** Whether `presented` could be a key (looking it up is worth a database round trip). */
export function isWellFormedKey(presented: string | null | undefined): presented is string {
  return !!presented && presented.startsWith(KEY_PREFIX) && presented.length <= 200;
}

/** How stale `lastUsedAt` may get: one write per key per minute, not one per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Looks the presented key up on a connection of the request pool and, when
 * it is usable, places the request in the rate-limit window (with `leases`:
 * from this instance's blocks, or taking a new block from the key's and the
 * organization's counters) and makes that connection the request's tenant
 * session, all in one round trip (src/db/tenant-sessions.ts).
 * Revoked and expired keys are not found (and not counted). The caller
 * releases the session.
 */
export async function authenticate(
  sessions: TenantSessions,
  db: Database,
  presented: string | null | undefined,
  options: { now?: Date; leases?: RateLimitLeases; userId?: string; requestId?: string; /** hashApiKey(presented), when the caller has it. */ keyHash?: string } = {},
): Promise<{ key: AuthenticatedKey; counts?: RequestCounts; session: TenantSession } | null> {
  const now = options.now ?? new Date();
  // Cheap shape check first: garbage never reaches the database.
  if (!isWellFormedKey(presented)) return null;
  const keyHash = options.keyHash ?? hashApiKey(presented);
  const reservation = options.leases?.reserve(keyHash, now.getTime());
  const opened = await sessions.open({ keyHash, now, count: reservation?.takes, userId: options.userId, requestId: options.requestId });
  if (!opened) return null;
  const { key: row, session } = opened;
  if (!row.key_last_used_at || now.getTime() - row.key_last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    // Not awaited: the request does not wait for bookkeeping, and a lost update only makes it older.
    db.apiKey
      .updateMany({ where: { id: row.key_id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }] }, data: { lastUsedAt: now } })
      .catch(() => {});
  }
  const key: AuthenticatedKey = {
    id: row.key_id,
    organizationId: row.key_organization_id,
    name: row.key_label || `API key ${row.key_prefix}`,
    permissions: new Set(row.key_permissions.filter(isPermission)),
  };
  const counts = reservation?.settle({ key: row.key_id, organization: row.key_organization_id }, { key: row.key_count, organization: row.organization_count });
  return { key, counts, session };
}
