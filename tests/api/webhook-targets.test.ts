// Where private networks are not allowed (production's default), no webhook
// reaches loopback or a private network, whatever the endpoint's host form and
// however it got stored: one registered while they were allowed (development)
// stays unreachable after a restart without.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { generateWebhookSecret } from '../../src/webhooks/signature.ts';
import { restClient } from '../helpers/http.ts';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';

let database: Awaited<ReturnType<typeof scratchDatabase>>;
let service: RunningService;
let internal: Server;
let port = 0;
/** Requests that reached the "internal service". */
const reached: string[] = [];
let org: TestOrganization;

beforeAll(async () => {
  // An internal service on every loopback address (IPv4 and IPv6), with something to hide.
  internal = createServer((request, response) => {
    reached.push(request.url ?? '');
    request.resume();
    response.writeHead(200, { 'content-type': 'text/plain' }).end('internal admin page: database password is hunter2');
  });
  await new Promise<void>((done) => internal.listen(0, '::', done));
  port = (internal.address() as AddressInfo).port;
  // Its own database: no other test file's service (which allows private networks) sends these deliveries.
  database = await scratchDatabase('webhook_targets');
  service = await startTestService({
    databaseUrl: database.url,
    env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_DISPATCH_INTERVAL_MS: '100', WEBHOOK_MAX_ATTEMPTS: '1', WEBHOOK_TIMEOUT_MS: '3000' },
  });
  org = await createOrganization(service.db, undefined, 'ssrf');
});
afterAll(async () => {
  await service?.stop();
  internal.closeAllConnections();
  await new Promise<void>((done) => internal.close(() => done()));
  await database?.drop();
});

describe('webhook targets where private networks are not allowed', () => {
  it('sends nothing to an endpoint stored with a loopback address in any host form, and shows the tenant why, with no body', async () => {
    const urls = [
      `http://127.0.0.1:${port}/literal`, `http://localhost:${port}/name`, `http://2130706433:${port}/decimal`, `http://0x7f.1:${port}/hex`,
      `http://0.0.0.0:${port}/any`, `http://[::1]:${port}/ipv6`, `http://[::ffff:127.0.0.1]:${port}/mapped`,
    ];
    // As if registered in development (private networks allowed then): stored as given, never checked by this instance.
    const endpoints = new Map<string, string>();
    for (const url of urls) {
      const { id } = await service.db.webhookEndpoint.create({
        data: { organizationId: org.id, url, eventTypes: ['document.created'], secret: generateWebhookSecret() }, select: { id: true },
      });
      endpoints.set(id, url);
    }
    await service.db.$executeRaw`SELECT emit_event(${org.id}::uuid, 'document.created', 'document', 'probe', '{}'::jsonb)`;

    const rest = restClient(service.url, org.key);
    const finished = await waitFor(async () => {
      const log = await rest('GET', '/v1/webhook-deliveries?limit=100');
      return log.body.items.length === urls.length && log.body.items.every((d: { status: string }) => d.status !== 'PENDING') && log.body.items;
    }, 'every delivery\'s attempt', 20_000, 100);
    expect(reached).toEqual([]);
    for (const delivery of finished as Array<{ endpointId: string; status: string; attempts: Array<Record<string, unknown>> }>) {
      const url = endpoints.get(delivery.endpointId)!;
      expect(delivery.status, url).toBe('FAILED');
      expect(delivery.attempts, url).toHaveLength(1);
      expect(delivery.attempts[0], url).toMatchObject({ responseStatus: null, responseBody: null });
      expect(delivery.attempts[0]!.error, url).toMatch(/^not sent: \S+ (is not a|resolves to no) public address|^not sent: \S+ is a loopback name$/);
    }
  });
});
