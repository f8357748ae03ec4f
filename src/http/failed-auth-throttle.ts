import { isIPv4 } from 'node:net';

/** Most client addresses (and working keys) remembered; past it the least recently touched go. */
const MAX_ENTRIES = 50_000;
/** How long a key that worked stays exempt from its address's throttle. */
const WORKING_KEY_TTL_MS = 60 * 60_000;

/**
 * Failed authentications per client address, as token buckets: an address
 * may fail `burst` times at once and regains `perMinute` failures a minute;
 * past them its requests with unknown keys are refused (429) before any
 * database lookup. Keys that worked lately (on this instance) are exempt, so
 * an integrator whose address shares a flood (a NAT, a proxy) keeps working;
 * a key never seen working waits with the rest. IPv6 clients are counted by
 * their /64 network, which one client usually holds whole.
 *
 * Kept in memory, per instance: the point is that a failed key costs no
 * database round trip, which a shared counter in PostgreSQL would. With n
 * instances a client gets n times the allowance.
 */
export class FailedAuthThrottle {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  readonly #workingKeys = new Map<string, number>();

  constructor(private readonly options: { burst: number; perMinute: number }) {}

  /** Seconds `address` must wait before an attempt with `keyHash` (0: go ahead). */
  retryAfter(address: string, keyHash: string, now = Date.now()): number {
    const worked = this.#workingKeys.get(keyHash);
    if (worked !== undefined && now - worked < WORKING_KEY_TTL_MS) return 0;
    const tokens = this.#tokens(clientNetwork(address), now);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 60) / this.options.perMinute);
  }

  failed(address: string, keyHash: string, now = Date.now()) {
    this.#workingKeys.delete(keyHash);
    const network = clientNetwork(address);
    const tokens = this.#tokens(network, now);
    remember(this.#buckets, network, { tokens: Math.max(0, tokens - 1), at: now });
  }

  succeeded(keyHash: string, now = Date.now()) {
    remember(this.#workingKeys, keyHash, now);
  }

  #tokens(network: string, now: number): number {
    const bucket = this.#buckets.get(network);
    if (!bucket) return this.options.burst;
    const tokens = Math.min(this.options.burst, bucket.tokens + ((now - bucket.at) * this.options.perMinute) / 60_000);
    // A full bucket is the same as none.
    if (tokens >= this.options.burst) this.#buckets.delete(network);
    return tokens;
  }
}

/** Sets `key` as the most recent entry, dropping the oldest past MAX_ENTRIES. */
function remember<V>(map: Map<string, V>, key: string, value: V) {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as string);
}

/** The address as counted: IPv4 (mapped or not) as is, IPv6 by its /64 network. */
export function clientNetwork(address: string): string {
  const plain = address.replace(/%.*$/, '');
  const mapped = plain.replace(/^::ffff:/i, '');
  if (isIPv4(mapped)) return mapped;
  const [head = '', tail] = plain.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
