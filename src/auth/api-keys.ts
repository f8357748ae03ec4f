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

export async function authenticate(db: Database, presented: string | null | undefined, now = new Date()): Promise<AuthenticatedKey | null> {
  // Cheap shape check first: garbage never reaches the database.
  if (!presented || !presented.startsWith(KEY_PREFIX) || presented.length > 200) return null;
  const key = await db.apiKey.findUnique({
    where: { hash: hashApiKey(presented) },
    select: { id: true, organizationId: true, permissions: true, revokedAt: true, expiresAt: true, lastUsedAt: true, label: true, prefix: true },
  });
  if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= now)) return null;
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // Not awaited: the request does not wait for bookkeeping, and a lost update only makes it older.
    db.apiKey
      .updateMany({ where: { id: key.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }] }, data: { lastUsedAt: now } })
      .catch(() => {});
  }
  return {
    id: key.id,
    organizationId: key.organizationId,
    name: key.label || `API key ${key.prefix}`,
    permissions: new Set(key.permissions.filter(isPermission)),
  };
}
