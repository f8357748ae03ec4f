import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new signing secret: 32 random bytes, shown to the organization once. */
export function generateWebhookSecret() {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** HMAC-SHA256 (hex) over `<timestamp>.<body>`, keyed with the endpoint's secret. */
export function signPayload(secret: string, timestamp: number, body: string) {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The `Webhook-Signature` header: `t=<unix seconds>,v1=<hex>`. */
export function signatureHeader(secret: string, timestamp: number, body: string) {
  return `t=${timestamp},v1=${signPayload(secret, timestamp, body)}`;
}

/**
 * The receiver's check (the README shows the same recipe): the signature
 * matches the raw body and the timestamp is within `toleranceSeconds`, so a
 * captured request cannot be replayed later.
 */
export function verifySignature(secret: string, header: string, body: string, toleranceSeconds = 300, now = Date.now()) {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds || !parts.v1) return false;
  const expected = Buffer.from(signPayload(secret, timestamp, body), 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
