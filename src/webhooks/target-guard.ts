import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { invalidInput } from '../errors.ts';

// Loopback, private, link-local (cloud metadata), shared, multicast and reserved ranges.
// IPv4-mapped IPv6 addresses (::ffff:a.b.c.d, however written) are checked as the IPv4 address they carry (BlockList does this).
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // ::/96 holds ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d; ::ffff:0:0:0/96 is IPv4-translated (SIIT),
  // 64:ff9b::/96 and 64:ff9b:1::/48 NAT64, 2002::/16 6to4, 2001::/32 Teredo (all reach IPv4 addresses; Teredo is
  // inside 2001::/23, the IETF protocol block); fec0::/10 is the deprecated site-local range, 3fff::/20 documentation.
  ['::', 96], ['::ffff:0:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16],
  ['3fff::', 20], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string) {
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The IP address a URL names, as the URL parser normalised it (2130706433, 0x7f.1 and 127.1 all become 127.0.0.1); null for a name. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/** localhost and its subdomains (RFC 6761), however written: trailing dots, any case (the URL parser lowercases). */
function isLocalhostName(hostname: string) {
  const name = hostname.replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * An endpoint URL the platform will post to. Unless private networks are
 * allowed (local development, tests), it must be HTTPS and must not name a
 * loopback or private address: a tenant must not reach the platform's own
 * network through its webhooks (SSRF). Every send checks the address again
 * (see refusedTarget and guardedLookup).
 */
export function checkEndpointUrl(value: string, allowPrivateNetworks: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidInput('url: must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidInput('url: must be an absolute http(s) URL');
  // Refused rather than stripped: stripping would silently break the receiver's
  // check, and keeping them would show a password back in every read and log.
  if (url.username || url.password) {
    throw invalidInput('url: must not contain a user name or password; receivers verify deliveries by their signature (webhook-signature header)');
  }
  if (!allowPrivateNetworks) {
    if (url.protocol !== 'https:') throw invalidInput('url: must use https');
    if (refusedTarget(url, false)) throw invalidInput('url: must be a public address, not loopback or a private network');
  }
  url.hash = '';
  return url.toString();
}

/**
 * Why a send to `url` must not connect, or null. Node connects to an IP
 * literal without calling `lookup`, so literals are checked here, before any
 * connection; names are checked by guardedLookup as they resolve. Endpoints
 * are checked when registered too, but one registered while private networks
 * were allowed (development) must not be reachable after a restart without.
 */
export function refusedTarget(url: URL, allowPrivateNetworks: boolean): string | null {
  if (allowPrivateNetworks) return null;
  if (isLocalhostName(url.hostname)) return `not sent: ${url.hostname} is a loopback name`;
  const address = literalAddress(url);
  return address && !isPublicAddress(address) ? `not sent: ${address} is not a public address (loopback, private and reserved networks are refused)` : null;
}

/** A DNS lookup for outgoing requests that refuses non-public addresses (checked at connect time, so DNS rebinding cannot slip past). */
export function guardedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = allowPrivateNetworks ? addresses : addresses.filter((entry) => isPublicAddress(entry.address));
      if (!allowed.length) {
        return callback(Object.assign(new Error(`not sent: ${hostname} resolves to no public address (loopback, private and reserved networks are refused)`), { code: 'EADDRNOTPUBLIC' }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
