/** Limits per API key and per organization in fixed windows (0 turns a limit off). */
export interface RateLimits {
  perKey: number;
  perOrganization: number;
  windowSeconds: number;
}

/** What a request used of one limit: `used` counts it; past the limit it was refused. */
export interface LimitUse {
  limit: number;
  used: number;
  admitted: boolean;
}

/** Adds `take` to one shared counter (`key:<id>` or `org:<id>`) of a window and answers its new count. */
export type TakeFromCounter = (bucket: string, window: Date, take: number) => Promise<number>;

/** The request's place in the current window, per limit that is on (src/http/rate-limit.ts renders it). */
export interface RequestCounts {
  windowStart: Date;
  key?: LimitUse;
  organization?: LimitUse;
  /**
   * Counts `points` more for this request (an expensive GraphQL operation's
   * points beyond the one counted at authentication, src/http/operation-limits.ts)
   * and answers its place after them.
   */
  charge?(points: number, take: TakeFromCounter): Promise<RequestCounts>;
}

/** How many requests to add to each shared counter with this request's authentication (0: none). */
export interface CounterTakes {
  window: Date;
  key: number;
  organization: number;
}

/** A window's requests this instance has taken from one shared counter. */
interface Lease {
  windowStart: number;
  /** Requests taken within the limit. */
  granted: number;
  /** Of those, admitted so far. */
  admitted: number;
  /** The shared counter as last seen (every instance's takes). */
  total: number;
}

// A lease is a 16th of what is left of the limit (so 16 instances together
// hold back at most what is left), at least 1 (every request counted near the
// limit, as exact as one shared counter) and at most 50.
const LEASE_SHARE = 16;
const MAX_LEASE = 50;
// Keys and organizations remembered; past this the memory is dropped, which only costs a counting round trip.
const MAX_REMEMBERED = 10_000;

export const limited = (limits: RateLimits) => limits.perKey > 0 || limits.perOrganization > 0;

/** The start of the fixed window `now` falls in. */
export function currentWindow(limits: RateLimits, now = Date.now()) {
  const windowMs = limits.windowSeconds * 1000;
  return new Date(Math.floor(now / windowMs) * windowMs);
}

/**
 * Rate-limit counting shared by every instance without a write per request.
 * The counters live in PostgreSQL (`authenticate_request`, migration
 * 20261130000000); an instance takes a block of requests from a counter
 * when it has none left and admits that many before counting again. Far
 * from the limit the blocks are large (one write per up to 50 requests);
 * near it they shrink to 1, so the last requests of a window are counted
 * one by one across instances. Requests an instance took but did not use
 * count as used for the others (a block is never more than a 16th of what
 * was left), and are lost if it stops: the limits err on the strict side.
 */
export class RateLimitLeases {
  readonly #leases = new Map<string, Lease>();
  /** Which key and organization a key hash belongs to, learned from its authentications. */
  readonly #owners = new Map<string, { key: string; organization: string }>();

  constructor(readonly limits: RateLimits) {}

  /**
   * Reserves this request's place in the current window: from the blocks
   * this instance holds where it can, else by asking the counters for a new
   * block (the takes go with the authentication). `settle` completes it
   * with what the counters answered.
   */
  reserve(keyHash: string, now = Date.now()) {
    const window = currentWindow(this.limits, now);
    const owner = this.#owners.get(keyHash);
    const key = this.#takeOrReserve(owner && `key:${owner.key}`, this.limits.perKey, window.getTime());
    const organization = this.#takeOrReserve(owner && `org:${owner.organization}`, this.limits.perOrganization, window.getTime());
    const takes: CounterTakes = { window, key: key.take, organization: organization.take };
    const settle = (ids: { key: string; organization: string }, totals: { key: number | null; organization: number | null }): RequestCounts => {
      if (this.#owners.size >= MAX_REMEMBERED && !this.#owners.has(keyHash)) this.#forget();
      this.#owners.set(keyHash, ids);
      const counts: RequestCounts = { windowStart: window };
      if (this.limits.perKey > 0) counts.key = this.#settle(`key:${ids.key}`, this.limits.perKey, window.getTime(), key, totals.key);
      if (this.limits.perOrganization > 0) counts.organization = this.#settle(`org:${ids.organization}`, this.limits.perOrganization, window.getTime(), organization, totals.organization);
      counts.charge = (points, take) => this.#charge(ids, window, points, take);
      return counts;
    };
    return { takes, settle };
  }

  /**
   * The refusal of a key already known (on this instance) to be past one of
   * its limits in the current window, without asking the database: counters
   * only grow within a window, so the answer cannot change before it ends,
   * and a client hammering past its limit then costs no round trip at all.
   * Undefined when the key may still be admitted (or is unknown here).
   */
  knownRefusal(keyHash: string, now = Date.now()): RequestCounts | undefined {
    const owner = this.#owners.get(keyHash);
    if (!owner) return undefined;
    const windowStart = currentWindow(this.limits, now);
    const full = (bucket: string, limit: number): LimitUse | undefined => {
      const lease = limit > 0 ? this.#current(bucket, windowStart.getTime()) : undefined;
      return lease && lease.admitted >= lease.granted && lease.total >= limit ? { limit, used: Math.max(limit + 1, lease.total), admitted: false } : undefined;
    };
    const key = full(`key:${owner.key}`, this.limits.perKey);
    const organization = full(`org:${owner.organization}`, this.limits.perOrganization);
    if (!key && !organization) return undefined;
    return { windowStart, ...(key && { key }), ...(organization && { organization }) };
  }

  /**
   * Admits from the lease when it has a request left (take 0); refuses
   * without counting once the counter is known to be at the limit (counters
   * only grow within a window, so a client past its limit causes no writes);
   * else says how many to take.
   */
  #takeOrReserve(bucket: string | undefined, limit: number, windowStart: number): { take: number; reserved: boolean } {
    if (limit <= 0) return { take: 0, reserved: false };
    const lease = bucket === undefined ? undefined : this.#current(bucket, windowStart);
    if (lease && lease.admitted < lease.granted) {
      lease.admitted += 1;
      return { take: 0, reserved: true };
    }
    // An unknown counter (the key's first request here) is taken from one at a time.
    if (!lease) return { take: 1, reserved: false };
    const left = limit - lease.total;
    if (left <= 0) return { take: 0, reserved: false };
    return { take: Math.min(MAX_LEASE, Math.max(1, Math.floor(left / LEASE_SHARE))), reserved: false };
  }

  #settle(bucket: string, limit: number, windowStart: number, own: { take: number; reserved: boolean }, total: number | null): LimitUse {
    if (this.#leases.size >= MAX_REMEMBERED && !this.#leases.has(bucket)) this.#forget();
    let lease = this.#current(bucket, windowStart);
    if (!lease) {
      lease = { windowStart, granted: 0, admitted: 0, total: 0 };
      this.#leases.set(bucket, lease);
    }
    let admitted = own.reserved;
    if (own.take > 0 && total !== null) {
      // The part of the take that fits under the limit (the counter counted all of it).
      const within = Math.max(0, Math.min(own.take, limit - (total - own.take)));
      lease.granted += within;
      lease.total = Math.max(lease.total, total);
      if (within > 0) {
        lease.admitted += 1;
        admitted = true;
      }
    }
    // Used: every take seen on the counter, less what this instance holds unused.
    const used = admitted ? Math.min(limit, lease.total - (lease.granted - lease.admitted)) : Math.max(limit + 1, lease.total);
    return { limit, used, admitted };
  }

  /** Counts `points` more in each limit's counter of the request's window (see chargeCounter). */
  async #charge(ids: { key: string; organization: string }, window: Date, points: number, take: TakeFromCounter): Promise<RequestCounts> {
    const counts: RequestCounts = { windowStart: window };
    const [key, organization] = await Promise.all([
      this.limits.perKey > 0 ? this.#chargeCounter(`key:${ids.key}`, this.limits.perKey, window, points, take) : undefined,
      this.limits.perOrganization > 0 ? this.#chargeCounter(`org:${ids.organization}`, this.limits.perOrganization, window, points, take) : undefined,
    ]);
    if (key) counts.key = key;
    if (organization) counts.organization = organization;
    counts.charge = (more, takeMore) => this.#charge(ids, window, more, takeMore);
    return counts;
  }

  /**
   * Uses what this instance holds unused of the counter first (no write);
   * the rest is taken from the shared counter, so the limit holds across
   * instances. Points taken past the limit stay counted (the request is
   * refused; counters only grow within a window).
   */
  async #chargeCounter(bucket: string, limit: number, window: Date, points: number, take: TakeFromCounter): Promise<LimitUse> {
    const lease = this.#current(bucket, window.getTime());
    const held = lease ? lease.granted - lease.admitted : 0;
    if (lease && held >= points) {
      lease.admitted += points;
      return { limit, used: Math.min(limit, lease.total - (lease.granted - lease.admitted)), admitted: true };
    }
    const needed = points - held;
    if (lease) lease.admitted = lease.granted;
    const total = await take(bucket, window, needed);
    const within = Math.max(0, Math.min(needed, limit - (total - needed)));
    if (lease) {
      lease.granted += within;
      lease.admitted += within;
      lease.total = Math.max(lease.total, total);
    }
    if (within < needed) return { limit, used: Math.max(limit + 1, total), admitted: false };
    return { limit, used: Math.min(limit, lease ? lease.total - (lease.granted - lease.admitted) : total), admitted: true };
  }

  #current(bucket: string, windowStart: number): Lease | undefined {
    const lease = this.#leases.get(bucket);
    if (lease && lease.windowStart !== windowStart) {
      this.#leases.delete(bucket);
      return undefined;
    }
    return lease;
  }

  #forget() {
    this.#leases.clear();
    this.#owners.clear();
  }
}
