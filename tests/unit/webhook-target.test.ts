import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/webhooks/post-webhook.ts';
import { signatureHeader, verifySignature } from '../../src/webhooks/signature.ts';
import { checkEndpointUrl, isPublicAddress } from '../../src/webhooks/target-guard.ts';

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
    ['file:///etc/passwd', 'url: must be an absolute http(s) URL'],
    ['/relative', 'url: must be an absolute http(s) URL'],
  ])('refuses %s in production', (url, message) => {
    expect(() => checkEndpointUrl(url, false)).toThrow(message);
  });

  it('accepts public https URLs, and private ones where allowed', () => {
    expect(checkEndpointUrl('https://hooks.example.com/in?x=1#frag', false)).toBe('https://hooks.example.com/in?x=1');
    expect(checkEndpointUrl('https://93.184.216.34/in', false)).toBe('https://93.184.216.34/in');
    expect(checkEndpointUrl('http://127.0.0.1:8080/in', true)).toBe('http://127.0.0.1:8080/in');
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    expect(isPublicAddress('100.64.0.1')).toBe(false);
  });
});

describe('posting a webhook', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/slow') return; // never answers
      if (request.url === '/redirect') return response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      response.writeHead(204).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('refuses names that resolve to private addresses when sending (DNS is checked at connect time)', async () => {
    const result = await postWebhook(`http://localhost:${port}/`, '{}', {}, { timeoutMs: 2000, allowPrivateNetworks: false });
    expect(result).toMatchObject({ status: null, error: 'localhost resolves to no public address' });
    expect((await postWebhook(`http://localhost:${port}/`, '{}', {}, { timeoutMs: 2000, allowPrivateNetworks: true })).status).toBe(204);
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
