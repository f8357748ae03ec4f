// Webhook deliveries are fair per organization: one organization's backlog
// (a failing, slow endpoint and its retries) does not hold up another's
// deliveries; disabling or deleting an endpoint cancels its backlog at once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';

/** How long the failing receiver takes to answer 500. */
const SLOW_MS = 500;

let database: Awaited<ReturnType<typeof scratchDatabase>>;
let service: RunningService;
let receiver: Server;
let receiverUrl = '';
/** Every request the receiver got: path and when its body arrived. */
const received: Array<{ path: string; at: number }> = [];
const arrivals = (path: string) => received.filter((request) => request.path === path);

let orgA: TestOrganization;
let orgB: TestOrganization;

beforeAll(async () => {
  // Paths under /slow answer 500 after SLOW_MS; the others 200 at once.
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, at: Date.now() });
      if (path.startsWith('/slow')) setTimeout(() => response.writeHead(500).end('down'), SLOW_MS);
      else response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // Its own database: no other test file's service dispatches these deliveries.
  database = await scratchDatabase('webhook_fairness');
  service = await startTestService({
    databaseUrl: database.url,
    env: {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_DISPATCH_INTERVAL_MS: '100',
      WEBHOOK_RETRY_DELAY_SECONDS: '1',
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_TIMEOUT_MS: '5000',
    },
  });
  orgA = await createOrganization(service.db, undefined, 'org-a');
  orgB = await createOrganization(service.db, undefined, 'org-b');
});
afterAll(async () => {
  await service?.stop();
  receiver.closeAllConnections();
  await new Promise<void>((done) => receiver.close(() => done()));
  await database?.drop();
});

async function endpoint(org: TestOrganization, path: string) {
  const created = await restClient(service.url, org.key)('POST', '/v1/webhook-endpoints', { url: receiverUrl + path, eventTypes: ['document.created'] });
  expect(created.status).toBe(201);
  return created.body.endpoint.id as string;
}

/** `count` document.created events of `org` in one statement, as the triggers write them: one delivery each per subscribed endpoint. */
async function emitEvents(org: TestOrganization, count: number) {
  await service.db.$executeRaw`
    SELECT emit_event(${org.id}::uuid, 'document.created', 'document', 'doc-' || n, '{}'::jsonb) FROM generate_series(1, ${count}::int) n`;
}

const pendingOf = (endpointId: string) => service.db.webhookDelivery.count({ where: { endpointId, status: 'PENDING' } });

/** Jobs still waiting in the queue for deliveries of `deliveryIds`. */
async function queuedJobs(deliveryIds: string[]) {
  const [row] = await service.db.$queryRawUnsafe<Array<{ count: number }>>(
    `SELECT count(*)::int AS count FROM "${service.queue.schemaName}".job
      WHERE name = 'webhook-delivery' AND state < 'active' AND data->>'deliveryId' = ANY($1::text[])`,
    deliveryIds,
  );
  return row!.count;
}

describe('webhook deliveries across organizations', () => {
  it('one organization\'s backlog to a failing endpoint does not hold up another\'s first attempt', async () => {
    const backlogged = await endpoint(orgA, '/slow/a');
    await endpoint(orgB, '/b');
    // Enough work for minutes: 400 deliveries x up to 3 attempts of SLOW_MS each, 4 workers.
    await emitEvents(orgA, 400);
    await waitFor(async () => arrivals('/slow/a').length >= 8, 'A\'s backlog to be worked', 15_000, 50);

    const emitted = Date.now();
    await emitEvents(orgB, 1);
    // Bounded far below A's backlog (400 x 500 ms / 4 workers = 50 s of first attempts alone, ahead of B in one FIFO).
    const [first] = await waitFor(async () => arrivals('/b').length > 0 && arrivals('/b'), 'B\'s delivery', 10_000, 50);
    const pendingOfA = await pendingOf(backlogged);
    console.info(`B's first attempt reached its receiver ${first!.at - emitted} ms after its event; A had ${pendingOfA} deliveries pending`);
    expect(pendingOfA).toBeGreaterThan(300);

    // B's delivery is recorded as delivered, at its first attempt.
    const restB = restClient(service.url, orgB.key);
    const [delivered] = await waitFor(async () => {
      const log = await restB('GET', '/v1/webhook-deliveries');
      return log.body.items[0]?.status === 'SUCCEEDED' && log.body.items;
    }, 'B\'s delivery to be recorded', 10_000, 50);
    expect(delivered).toMatchObject({ attemptCount: 1 });
  }, 60_000);

  it('disabling an endpoint cancels all its pending deliveries and their queued jobs at once; nothing is sent afterwards', async () => {
    const restA = restClient(service.url, orgA.key);
    // The first test's backlog goes first (and is itself cancelled in bulk).
    for (const item of (await restA('GET', '/v1/webhook-endpoints')).body.items) await restA('PATCH', `/v1/webhook-endpoints/${item.id}`, { enabled: false });

    const paused = await endpoint(orgA, '/slow/paused');
    await emitEvents(orgA, 300);
    const deliveryIds = (await service.db.webhookDelivery.findMany({ where: { endpointId: paused }, select: { id: true } })).map(({ id }) => id);
    expect(deliveryIds).toHaveLength(300);
    await waitFor(async () => arrivals('/slow/paused').length >= 1, 'the first attempts', 15_000, 50);

    expect((await restA('PATCH', `/v1/webhook-endpoints/${paused}`, { enabled: false })).body.enabled).toBe(false);
    const disabledAt = Date.now();
    // Cancelled with the change itself, not one job at a time.
    expect(await pendingOf(paused)).toBe(0);
    expect(await service.db.webhookDelivery.count({ where: { endpointId: paused, status: 'CANCELLED' } })).toBeGreaterThan(280);
    // Their jobs still waiting in the queue are cancelled by the next dispatch.
    await waitFor(async () => (await queuedJobs(deliveryIds)) === 0, 'the queued jobs to be cancelled', 5_000, 50);

    // Several dispatch intervals and retry delays later, nothing more reached the receiver
    // (a moment's grace for an attempt that had read its delivery just before the change).
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(arrivals('/slow/paused').filter((request) => request.at > disabledAt + 300)).toEqual([]);
    expect(await pendingOf(paused)).toBe(0);
  }, 60_000);

  it('deleting an endpoint takes its pending deliveries and their queued jobs with it', async () => {
    const restA = restClient(service.url, orgA.key);
    const doomed = await endpoint(orgA, '/slow/deleted');
    await emitEvents(orgA, 200);
    const deliveryIds = (await service.db.webhookDelivery.findMany({ where: { endpointId: doomed }, select: { id: true } })).map(({ id }) => id);
    await waitFor(async () => arrivals('/slow/deleted').length >= 1, 'the first attempts', 15_000, 50);

    expect((await restA('DELETE', `/v1/webhook-endpoints/${doomed}`)).status).toBe(200);
    const deletedAt = Date.now();
    expect(await service.db.webhookDelivery.count({ where: { id: { in: deliveryIds } } })).toBe(0);
    await waitFor(async () => (await queuedJobs(deliveryIds)) === 0, 'the queued jobs to be cancelled', 5_000, 50);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(arrivals('/slow/deleted').filter((request) => request.at > deletedAt + 300)).toEqual([]);
  }, 60_000);
});
