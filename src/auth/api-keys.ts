import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/client.ts';
import { isPermission, type Permission } from './permissions.ts';

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

/** How stale `lastUsedAt` may get: one write per key per minute, not one per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Requests counted so far in the current rate-limit window (src/http/rate-limit.ts), this one included. */
export interface RequestCounts {
  windowStart: Date;
  key: number;
  organization: number;
}

interface KeyRow {
  id: string;
  organization_id: string;
  permissions: string[];
  last_used_at: Date | null;
  label: string | null;
  prefix: string;
  key_count: number | null;
  organization_count: number | null;
}

/**
 * Looks the presented key up and, when `countIn` gives a rate-limit window
 * and the key is usable, counts the request for the key and its
 * organization, all in one statement: every request pays one database round
 * trip for both. Revoked and expired keys are not found (and not counted).
 */
export async function authenticate(
  db: Database,
  presented: string | null | undefined,
  options: { now?: Date; countIn?: Date } = {},
): Promise<{ key: AuthenticatedKey; counts?: RequestCounts } | null> {
  const now = options.now ?? new Date();
  // Cheap shape check first: garbage never reaches the database.
  if (!presented || !presented.startsWith(KEY_PREFIX) || presented.length > 200) return null;
  const windowStart = options.countIn ?? null;
  const [row] = await db.$queryRaw<KeyRow[]>`
    WITH usable AS (
      SELECT id, organization_id, permissions, last_used_at, label, prefix FROM api_keys
       WHERE hash = ${hashApiKey(presented)} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${now})
    ), counted AS (
      INSERT INTO rate_limit_windows (bucket, window_start, count)
      SELECT bucket, ${windowStart}::timestamptz, 1
        FROM usable, LATERAL (VALUES ('key:' || usable.id), ('org:' || usable.organization_id)) AS buckets (bucket)
       WHERE ${windowStart}::timestamptz IS NOT NULL
      ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
      RETURNING bucket, count
    )
    SELECT usable.id::text, usable.organization_id::text, usable.permissions, usable.last_used_at, usable.label, usable.prefix,
           (SELECT count FROM counted WHERE bucket = 'key:' || usable.id) AS key_count,
           (SELECT count FROM counted WHERE bucket = 'org:' || usable.organization_id) AS organization_count
      FROM usable`;
  if (!row) return null;
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    // Not awaited: the request does not wait for bookkeeping, and a lost update only makes it older.
    db.apiKey
      .updateMany({ where: { id: row.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }] }, data: { lastUsedAt: now } })
      .catch(() => {});
  }
  const key: AuthenticatedKey = {
    id: row.id,
    organizationId: row.organization_id,
    name: row.label || `API key ${row.prefix}`,
    permissions: new Set(row.permissions.filter(isPermission)),
  };
  return windowStart ? { key, counts: { windowStart, key: row.key_count ?? 0, organization: row.organization_count ?? 0 } } : { key };
}
