import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: 43 characters that fit in a link unescaped. */
export function generateOnboardingToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this is stored: a leaked table gives no working links. 256-bit tokens need no salt or KDF. */
export function hashOnboardingToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Shape check before any lookup, so garbage never reaches the database. */
export function isOnboardingTokenShape(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
