// The leasing arithmetic against an in-memory stand-in for the shared
// counters (the real ones, in PostgreSQL, are exercised by
// tests/api/rate-limits.test.ts and tests/database/tenant-sessions.test.ts).
import { describe, expect, it } from 'vitest';
import { RateLimitLeases, type RateLimits, type RequestCounts } from '../../src/auth/rate-limit-leases.ts';

const IDS = { key: 'k1', organization: 'o1' };

/** What authenticate_request does with the takes: adds them and answers the new counts (null when nothing was taken). */
function sharedCounters() {
  const counts = new Map<string, number>();
  const add = (bucket: string, take: number) => (take > 0 ? counts.set(bucket, (counts.get(bucket) ?? 0) + take).get(bucket)! : null);
  return {
    counts,
    request(instance: RateLimitLeases, now: number) {
      const reservation = instance.reserve('hash-1', now);
      const window = reservation.takes.window.getTime();
      const totals = { key: add(`key:${window}`, reservation.takes.key), organization: add(`org:${window}`, reservation.takes.organization) };
      return { takes: reservation.takes, counts: reservation.settle(IDS, totals) };
    },
  };
}

const admitted = (counts: RequestCounts) =>
  (counts.key?.admitted ?? true) && (counts.organization?.admitted ?? true);

describe('rate-limit leases', () => {
  it('counts one by one near the limit: exact used counts, and past the limit refuses without counting', () => {
    const limits: RateLimits = { perKey: 5, perOrganization: 8, windowSeconds: 60 };
    const counters = sharedCounters();
    const instance = new RateLimitLeases(limits);
    const seen = [];
    for (let i = 0; i < 7; i++) {
      const { takes, counts } = counters.request(instance, 1_000);
      seen.push([takes.key, counts.key!.used, counts.key!.admitted]);
    }
    // Past the limit nothing more is counted (the counter is known to be full).
    expect(seen).toEqual([[1, 1, true], [1, 2, true], [1, 3, true], [1, 4, true], [1, 5, true], [0, 6, false], [0, 6, false]]);
    expect(counters.counts.get('key:0')).toBe(5);
  });

  it('far from the limit takes blocks, so most requests write nothing, and never admits more than the limit across instances', () => {
    const limits: RateLimits = { perKey: 2_000, perOrganization: 0, windowSeconds: 60 };
    const counters = sharedCounters();
    const instances = [new RateLimitLeases(limits), new RateLimitLeases(limits), new RateLimitLeases(limits)];
    let writes = 0;
    let admittedCount = 0;
    for (let i = 0; i < 2_600; i++) {
      const { takes, counts } = counters.request(instances[i % 3]!, 5_000);
      if (takes.key > 0) writes += 1;
      expect(takes.organization).toBe(0);
      expect(counts.organization).toBeUndefined();
      if (admitted(counts)) admittedCount += 1;
    }
    expect(admittedCount).toBeLessThanOrEqual(2_000);
    // Strict only by what the instances still hold: each holds at most a 16th of what was left.
    expect(admittedCount).toBeGreaterThan(2_000 - 3 * 2);
    expect(writes).toBeLessThan(2_600 / 5);
  });

  it('starts afresh in a new window', () => {
    const limits: RateLimits = { perKey: 3, perOrganization: 0, windowSeconds: 60 };
    const counters = sharedCounters();
    const instance = new RateLimitLeases(limits);
    for (let i = 0; i < 4; i++) counters.request(instance, 10_000);
    expect(admitted(counters.request(instance, 10_000).counts)).toBe(false);
    const next = counters.request(instance, 70_000);
    expect(next.counts).toMatchObject({ windowStart: new Date(60_000), key: { used: 1, admitted: true } });
  });

  it('reports what is used of the limit from the shared count, less what this instance holds unused', () => {
    const limits: RateLimits = { perKey: 1_600, perOrganization: 0, windowSeconds: 60 };
    const counters = sharedCounters();
    const instance = new RateLimitLeases(limits);
    // First request: unknown key, takes 1; second: a block of 1599 / 16 = 99, capped at 50.
    expect(counters.request(instance, 0).counts.key).toEqual({ limit: 1_600, used: 1, admitted: true });
    expect(counters.request(instance, 0)).toMatchObject({ takes: { key: 50 }, counts: { key: { used: 2, admitted: true } } });
    expect(counters.request(instance, 0)).toMatchObject({ takes: { key: 0 }, counts: { key: { used: 3, admitted: true } } });
    expect(counters.counts.get('key:0')).toBe(51);
  });
  it('knows a key past its limit without a round trip, until the window ends', () => {
    const limits: RateLimits = { perKey: 3, perOrganization: 0, windowSeconds: 60 };
    const counters = sharedCounters();
    const instance = new RateLimitLeases(limits);
    expect(instance.knownRefusal('hash-1', 1_000)).toBeUndefined(); // never seen here
    for (let i = 0; i < 2; i++) {
      expect(admitted(counters.request(instance, 1_000).counts)).toBe(true);
      // Room left: nothing known to refuse.
      expect(instance.knownRefusal('hash-1', 1_000)).toBeUndefined();
    }
    // The third fills the counter: the next is known to be refused here, as the counters would.
    expect(admitted(counters.request(instance, 1_000).counts)).toBe(true);
    expect(instance.knownRefusal('hash-1', 2_000)).toMatchObject({ key: { limit: 3, admitted: false } });
    expect(admitted(counters.request(instance, 2_000).counts)).toBe(false);
    expect(instance.knownRefusal('another-hash', 2_000)).toBeUndefined();
    // A new window starts afresh.
    expect(instance.knownRefusal('hash-1', 61_000)).toBeUndefined();
    expect(admitted(counters.request(instance, 61_000).counts)).toBe(true);
  });

  it('does not refuse from memory while this instance still holds requests of a block', () => {
    const limits: RateLimits = { perKey: 1_000, perOrganization: 0, windowSeconds: 60 };
    const counters = sharedCounters();
    const instance = new RateLimitLeases(limits);
    counters.request(instance, 1_000);
    counters.request(instance, 1_000); // takes a block of many
    // Another instance fills the shared counter to the limit meanwhile.
    counters.counts.set('key:0', 1_000);
    expect(instance.knownRefusal('hash-1', 1_000)).toBeUndefined();
  });
});
