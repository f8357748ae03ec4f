import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { invalidInput } from '../errors.ts';

// Loopback, private, link-local (cloud metadata), shared, multicast and reserved ranges.
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 127], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string) {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * An endpoint URL the platform will post to. Unless private networks are
 * allowed (local development, tests), it must be HTTPS and must not name a
 * loopback or private address: a tenant must not reach the platform's own
 * network through its webhooks (SSRF). Names are checked again when sending,
 * after DNS resolution (see guardedLookup).
 */
export function checkEndpointUrl(value: string, allowPrivateNetworks: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidInput('url: must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidInput('url: must be an absolute http(s) URL');
  if (!allowPrivateNetworks) {
    if (url.protocol !== 'https:') throw invalidInput('url: must use https');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && !isPublicAddress(host))) {
      throw invalidInput('url: must be a public address, not loopback or a private network');
    }
  }
  url.hash = '';
  return url.toString();
}

/** A DNS lookup for outgoing requests that refuses non-public addresses (checked at connect time, so DNS rebinding cannot slip past). */
export function guardedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = allowPrivateNetworks ? addresses : addresses.filter((entry) => isPublicAddress(entry.address));
      if (!allowed.length) {
        return callback(Object.assign(new Error(`${hostname} resolves to no public address`), { code: 'EADDRNOTPUBLIC' }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
