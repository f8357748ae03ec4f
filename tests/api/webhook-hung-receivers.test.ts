// Receivers that never answer hold an attempt for the whole WEBHOOK_TIMEOUT_MS.
// One organization's hung attempts are capped (WEBHOOK_MAX_IN_FLIGHT_PER_ORGANIZATION)
// below the instance's slots (WEBHOOK_MAX_IN_FLIGHT), so another organization's
// delivery starts while they all still hang, not when one of them times out.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';

/** Far longer than the test waits for anything: an attempt of A's never ends by itself while it runs. */
const TIMEOUT_MS = 60_000;
const PER_ORGANIZATION = 3;

let database: Awaited<ReturnType<typeof scratchDatabase>>;
let service: RunningService;
let receiver: Server;
let receiverUrl = '';
/** Requests to /hung paths, held open. */
const hung: Array<{ request: IncomingMessage; response: ServerResponse }> = [];
const answered: Array<{ path: string; at: number }> = [];
const openHung = () => hung.filter(({ request }) => !request.socket.destroyed).length;

let orgA: TestOrganization;
let orgB: TestOrganization;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    if (request.url?.startsWith('/hung')) hung.push({ request, response });
    else request.on('end', () => {
      answered.push({ path: request.url ?? '/', at: Date.now() });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  database = await scratchDatabase('webhook_hung');
  service = await startTestService({
    databaseUrl: database.url,
    env: {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_DISPATCH_INTERVAL_MS: '100',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_MAX_IN_FLIGHT: '8',
      WEBHOOK_MAX_IN_FLIGHT_PER_ORGANIZATION: String(PER_ORGANIZATION),
      // Hung attempts are handed back at once when the service stops.
      JOB_SHUTDOWN_GRACE_SECONDS: '0',
    },
  });
  orgA = await createOrganization(service.db, undefined, 'hung-a');
  orgB = await createOrganization(service.db, undefined, 'hung-b');
});
afterAll(async () => {
  await service?.stop();
  receiver?.closeAllConnections();
  await new Promise<void>((done) => receiver.close(() => done()));
  await database?.drop();
});

async function endpoint(org: TestOrganization, path: string) {
  const created = await restClient(service.url, org.key)('POST', '/v1/webhook-endpoints', { url: receiverUrl + path, eventTypes: ['document.created'] });
  expect(created.status).toBe(201);
}

async function emitEvents(org: TestOrganization, count: number) {
  await service.db.$executeRaw`
    SELECT emit_event(${org.id}::uuid, 'document.created', 'document', 'doc-' || n, '{}'::jsonb) FROM generate_series(1, ${count}::int) n`;
}

describe('webhook receivers that never answer', () => {
  it('hold at most their organization\'s share of attempts; another organization\'s delivery starts while they hang', async () => {
    for (const path of ['/hung/1', '/hung/2', '/hung/3']) await endpoint(orgA, path);
    await endpoint(orgB, '/b');
    await emitEvents(orgA, 30);
    // A's attempts start up to its cap, and no further (its 87 other deliveries wait in the table).
    await waitFor(async () => openHung() >= PER_ORGANIZATION, 'A\'s attempts to reach its cap', 20_000, 50);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(openHung()).toBe(PER_ORGANIZATION);

    const emitted = Date.now();
    await emitEvents(orgB, 1);
    const delivered = await waitFor(async () => answered.find(({ path }) => path === '/b'), 'B\'s delivery while A\'s attempts hang', 20_000, 50);
    console.info(`B's delivery reached its receiver ${delivered.at - emitted} ms after its event, beside ${openHung()} hung attempts of A`);
    // Not one of A's attempts ended before B's was made: B did not wait for a slot that A held.
    expect(openHung()).toBe(PER_ORGANIZATION);
    const attemptsOfA = await service.db.webhookDeliveryAttempt.count({ where: { organizationId: orgA.id } });
    expect(attemptsOfA).toBe(0);
  }, 90_000);
});
