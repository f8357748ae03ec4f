import { describe, expect, it } from 'vitest';
import { clientNetwork, FailedAuthThrottle } from '../../src/http/failed-auth-throttle.ts';
import { nestsDeeperThan } from '../../src/http/json-depth.ts';

describe('failed authentication throttle', () => {
  it('allows a burst, then regains failures at its rate', () => {
    const throttle = new FailedAuthThrottle({ burst: 3, perMinute: 6 });
    const start = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfter('203.0.113.9', `wrong-${i}`, start)).toBe(0);
      throttle.failed('203.0.113.9', `wrong-${i}`, start);
    }
    // One failure back every 10 s.
    expect(throttle.retryAfter('203.0.113.9', 'wrong-3', start)).toBe(10);
    expect(throttle.retryAfter('203.0.113.9', 'wrong-3', start + 4_000)).toBe(6);
    expect(throttle.retryAfter('203.0.113.9', 'wrong-3', start + 10_000)).toBe(0);
    // Other addresses are not affected.
    expect(throttle.retryAfter('203.0.113.10', 'wrong-3', start)).toBe(0);
  });

  it('lets keys that worked through, until they fail', () => {
    const throttle = new FailedAuthThrottle({ burst: 1, perMinute: 1 });
    throttle.succeeded('good', 0);
    throttle.failed('198.51.100.1', 'wrong', 0);
    expect(throttle.retryAfter('198.51.100.1', 'wrong', 0)).toBe(60);
    expect(throttle.retryAfter('198.51.100.1', 'good', 0)).toBe(0);
    // A key that worked and then failed (revoked meanwhile) is throttled like any other.
    throttle.failed('198.51.100.1', 'good', 0);
    expect(throttle.retryAfter('198.51.100.1', 'good', 0)).toBeGreaterThan(0);
  });

  it('counts IPv6 clients by their /64 network, and IPv4-mapped addresses as IPv4', () => {
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8::5')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetwork('192.0.2.7')).toBe('192.0.2.7');
  });
});

describe('JSON nesting', () => {
  it('counts brackets outside strings only', () => {
    expect(nestsDeeperThan('[[1]]', 2)).toBe(false);
    expect(nestsDeeperThan('[[[1]]]', 2)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":[1]}}', 2)).toBe(true);
    expect(nestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\"[[[["}', 1)).toBe(false);
    expect(nestsDeeperThan('[{"a":1},{"b":2},[3]]', 2)).toBe(false);
  });
});
