// Charging an expensive request's extra points (src/auth/rate-limit-leases.ts):
// from what the instance holds when it can (no write), else from the shared
// counter; past the limit refused, the points staying counted. The counters
// are an in-memory stand-in here; tests/api/cost-rate-limits.test.ts uses
// the real ones.
import { describe, expect, it } from 'vitest';
import { RateLimitLeases, type TakeFromCounter } from '../../src/auth/rate-limit-leases.ts';

const IDS = { key: 'k1', organization: 'o1' };

function counters() {
  const counts = new Map<string, number>();
  const takes: Array<[string, number]> = [];
  const take: TakeFromCounter = async (bucket, _window, amount) => {
    takes.push([bucket, amount]);
    return counts.set(bucket, (counts.get(bucket) ?? 0) + amount).get(bucket)!;
  };
  /** One authenticated request, as authenticate_request counts it. */
  const request = (instance: RateLimitLeases) => {
    const reservation = instance.reserve('hash', 0);
    const add = (bucket: string, amount: number) => (amount > 0 ? counts.set(bucket, (counts.get(bucket) ?? 0) + amount).get(bucket)! : null);
    return reservation.settle(IDS, { key: add('key:k1', reservation.takes.key), organization: add('org:o1', reservation.takes.organization) });
  };
  return { counts, takes, take, request };
}

describe('charging by cost', () => {
  it('uses the block this instance holds without a write, then takes the rest from the shared counter', async () => {
    const shared = counters();
    const instance = new RateLimitLeases({ perKey: 1_000, perOrganization: 0, windowSeconds: 60 });
    shared.request(instance);
    // The second request takes a block of 999 / 16 = 62, capped at 50: 49 are held unused.
    const counts = shared.request(instance);
    expect(shared.counts.get('key:k1')).toBe(51);
    const charged = await counts.charge!(9, shared.take);
    expect(shared.takes).toEqual([]);
    expect(charged.key).toEqual({ limit: 1_000, used: 11, admitted: true });
    // 40 held; 45 more takes 5 from the counter.
    const more = await charged.charge!(45, shared.take);
    expect(shared.takes).toEqual([['key:k1', 5]]);
    expect(more.key).toEqual({ limit: 1_000, used: 56, admitted: true });
  });

  it('refuses what does not fit under the limit, counting it, and every instance sees it', async () => {
    const shared = counters();
    const limits = { perKey: 10, perOrganization: 20, windowSeconds: 60 };
    const [one, two] = [new RateLimitLeases(limits), new RateLimitLeases(limits)];
    const counts = shared.request(one);
    expect((await counts.charge!(5, shared.take)).key).toEqual({ limit: 10, used: 6, admitted: true });
    const refused = await shared.request(two).charge!(5, shared.take);
    expect(refused.key).toEqual({ limit: 10, used: 12, admitted: false });
    expect(refused.organization).toEqual({ limit: 20, used: 12, admitted: true });
    expect(shared.request(one).key?.admitted).toBe(false);
  });
});
