import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/webhooks/post-webhook.ts';
import { signatureHeader, verifySignature } from '../../src/webhooks/signature.ts';
import { checkEndpointUrl, guardedLookup, isPublicAddress } from '../../src/webhooks/target-guard.ts';

describe('webhook endpoint URLs (SSRF guard)', () => {
  it.each([
    ['http://example.com/hook', 'url: must use https'],
    ['https://localhost/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://api.localhost/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://127.0.0.1/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://10.1.2.3/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://172.20.0.1/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://192.168.1.1/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://169.254.169.254/latest/meta-data', 'url: must be a public address, not loopback or a private network'],
    ['https://[::1]/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://[::ffff:127.0.0.1]/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://[fd00::1]/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://0.0.0.0/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://2130706433/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://0x7f.1/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://[::ffff:a9fe:a9fe]/hook', 'url: must be a public address, not loopback or a private network'],
    // Site-local, IPv4-translated (SIIT), Teredo, CGNAT, benchmarking, 6to4 relay, reserved and broadcast.
    ['https://[fec0::1]/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://[::ffff:0:7f00:1]/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://100.64.0.1/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://198.18.0.1/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://192.88.99.1/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://240.0.0.1/hook', 'url: must be a public address, not loopback or a private network'],
    ['https://255.255.255.255/hook', 'url: must be a public address, not loopback or a private network'],
    // localhost with a trailing dot (the same name to DNS) and its subdomains, in any case.
    ['https://localhost./hook', 'url: must be a public address, not loopback or a private network'],
    ['https://LocalHost../hook', 'url: must be a public address, not loopback or a private network'],
    ['https://foo.localhost./hook', 'url: must be a public address, not loopback or a private network'],
    ['file:///etc/passwd', 'url: must be an absolute http(s) URL'],
    ['/relative', 'url: must be an absolute http(s) URL'],
  ])('refuses %s in production', (url, message) => {
    expect(() => checkEndpointUrl(url, false)).toThrow(message);
  });

  it('refuses user names and passwords in the URL, also where private networks are allowed', () => {
    for (const url of ['https://user:secret@hooks.example.com/in', 'https://token@hooks.example.com/in', 'http://u:p@127.0.0.1:8080/in']) {
      expect(() => checkEndpointUrl(url, true), url).toThrow('url: must not contain a user name or password; receivers verify deliveries by their signature (webhook-signature header)');
      expect(() => checkEndpointUrl(url, false), url).toThrow(/^url: must (not contain a user name|use https)/);
    }
  });

  it('accepts public https URLs, and private ones where allowed', () => {
    expect(checkEndpointUrl('https://hooks.example.com/in?x=1#frag', false)).toBe('https://hooks.example.com/in?x=1');
    expect(checkEndpointUrl('https://93.184.216.34/in', false)).toBe('https://93.184.216.34/in');
    expect(checkEndpointUrl('http://127.0.0.1:8080/in', true)).toBe('http://127.0.0.1:8080/in');
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    expect(isPublicAddress('100.64.0.1')).toBe(false);
    // IPv6 forms that carry an IPv4 address are judged by it.
    expect(isPublicAddress('::ffff:808:808')).toBe(true);
    for (const carried of ['::ffff:7f00:1', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe', '::7f00:1', '64:ff9b::a00:1', '2002:7f00:1::1', '::ffff:0:7f00:1', '::ffff:0:a9fe:a9fe']) {
      expect(isPublicAddress(carried), carried).toBe(false);
    }
  });
});

describe('posting a webhook', () => {
  let server: Server;
  let port = 0;
  /** Every request the server got, by path. */
  const received: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push(request.url ?? '');
      if (request.url === '/slow') return; // never answers
      if (request.url === '/redirect') return response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      if (request.url === '/long') return response.writeHead(500).end(`internal status page ${'x'.repeat(5000)}`);
      response.writeHead(204).end();
    });
    // Every loopback address, IPv4 and IPv6 (dual stack): whatever form a URL gives, a connection would arrive.
    await new Promise<void>((done) => server.listen(0, '::', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('refuses names that resolve to private addresses when sending (DNS is checked at connect time)', async () => {
    // localhost is refused by name before it resolves (next test); the lookup itself refuses what it resolves to.
    const lookupError = await new Promise<NodeJS.ErrnoException | null>((done) => guardedLookup(false)('localhost', {}, (error) => done(error)));
    expect(lookupError).toMatchObject({
      code: 'EADDRNOTPUBLIC', message: 'not sent: localhost resolves to no public address (loopback, private and reserved networks are refused)',
    });
    expect((await postWebhook(`http://localhost:${port}/`, '{}', {}, { timeoutMs: 2000, allowPrivateNetworks: true })).status).toBe(204);
  });

  // Host forms of loopback that reach this server (each is checked below where private networks are allowed).
  const loopbackForms = (p: number) => [
    `http://127.0.0.1:${p}/literal`, `http://2130706433:${p}/decimal`, `http://0x7f.1:${p}/hex`, `http://017700000001:${p}/octal`, `http://127.1:${p}/short`,
    `http://0.0.0.0:${p}/any`, `http://[::1]:${p}/ipv6`, `http://[::ffff:127.0.0.1]:${p}/mapped`, `http://[::]:${p}/ipv6-any`,
  ];

  it('refuses IP literals of private addresses in every host form before connecting: the target receives nothing', async () => {
    received.length = 0;
    const others = [`http://169.254.169.254:${port}/metadata`, `http://[fe80::1]:${port}/link-local`, `http://10.0.0.1:${port}/private`, `http://[fec0::1]:${port}/site-local`, `http://[::ffff:0:7f00:1]:${port}/translated`];
    for (const url of [...loopbackForms(port), ...others]) {
      const result = await postWebhook(url, '{}', {}, { timeoutMs: 2000, allowPrivateNetworks: false });
      expect(result, url).toMatchObject({ status: null, body: null });
      expect(result.error, url).toMatch(/^not sent: \S+ is not a public address \(loopback, private and reserved networks are refused\)$/);
    }
    expect(received).toEqual([]);
    // The same forms do reach the server where private networks are allowed: the refusal above is the guard's, not the network's.
    for (const url of loopbackForms(port)) {
      expect((await postWebhook(url, '{}', {}, { timeoutMs: 2000, allowPrivateNetworks: true })).status, url).toBe(204);
    }
    expect(received).toHaveLength(loopbackForms(port).length);
  });

  it('refuses localhost names however written before resolving them (not only when DNS fails)', async () => {
    received.length = 0;
    for (const host of ['localhost.', 'LOCALHOST', 'api.localhost', 'api.localhost.']) {
      const result = await postWebhook(`http://${host}:${port}/name`, '{}', {}, { timeoutMs: 2000, allowPrivateNetworks: false });
      expect(result, host).toMatchObject({ status: null, body: null, error: `not sent: ${host.toLowerCase()} is a loopback name` });
    }
    expect(received).toEqual([]);
  });

  it('keeps only the first characters of an answer for the delivery log', async () => {
    const result = await postWebhook(`http://127.0.0.1:${port}/long`, '{}', {}, { timeoutMs: 2000, allowPrivateNetworks: true });
    expect(result.status).toBe(500);
    // Enough for a receiver's error message; not a way to read another service's pages.
    expect(result.body!.length).toBeGreaterThanOrEqual(100);
    expect(result.body!.length).toBeLessThanOrEqual(200);
    expect(`internal status page ${'x'.repeat(5000)}`.startsWith(result.body!)).toBe(true);
  });

  it('bounds the exchange and does not follow redirects', async () => {
    const slow = await postWebhook(`http://127.0.0.1:${port}/slow`, '{}', {}, { timeoutMs: 300, allowPrivateNetworks: true });
    expect(slow).toMatchObject({ status: null, error: 'no answer within 300 ms' });
    expect(slow.durationMs).toBeLessThan(2000);
    expect((await postWebhook(`http://127.0.0.1:${port}/redirect`, '{}', {}, { timeoutMs: 2000, allowPrivateNetworks: true })).status).toBe(302);
  });

  it('signs `timestamp.body` so that the signature verifies only within the tolerance', () => {
    const now = Date.now();
    const header = signatureHeader('whsec_test', Math.floor(now / 1000), '{"a":1}');
    expect(verifySignature('whsec_test', header, '{"a":1}', 300, now)).toBe(true);
    expect(verifySignature('whsec_test', header, '{"a":2}', 300, now)).toBe(false);
    expect(verifySignature('whsec_test', header, '{"a":1}', 300, now + 301_000)).toBe(false);
    expect(verifySignature('whsec_test', 'garbage', '{"a":1}', 300, now)).toBe(false);
  });
});
