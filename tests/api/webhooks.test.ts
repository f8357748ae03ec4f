import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { failLostDeliveries } from '../../src/webhooks/delivery-worker.ts';
import { emitOverdueTasks } from '../../src/webhooks/overdue-tasks.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createKey, startTestService, twoOrganizations } from '../helpers/service.ts';
import { feedCaughtUp } from '../helpers/event-feed.ts';
import { waitFor } from '../helpers/wait.ts';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A receiver on loopback that records every request and answers as told (per path). */
class Receiver {
  readonly requests: Received[] = [];
  /** Statuses to answer per path, in order; after the list runs out, 200. */
  readonly script = new Map<string, number[]>();
  private server!: Server;
  url = '';

  async start() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.requests.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const status = this.script.get(path)?.shift() ?? 200;
        response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `failed with ${status}`);
      });
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  at(path: string) {
    return this.requests.filter((request) => request.path === path);
  }

  stop() {
    return new Promise<void>((done) => this.server.close(() => done()));
  }
}

/** The README's verification recipe, written out independently of the service's code. */
function verify(secret: string, signatureHeader: string, rawBody: string, toleranceSeconds = 300) {
  const fields = new Map(signatureHeader.split(',').map((part) => part.split('=') as [string, string]));
  const timestamp = Number(fields.get('t'));
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  const given = Buffer.from(fields.get('v1') ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

let service: RunningService;
let receiver: Receiver;
let orgs: Awaited<ReturnType<typeof twoOrganizations>>;
let rest: ReturnType<typeof restClient>;

beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
  service = await startTestService({
    env: {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_DISPATCH_INTERVAL_MS: '100',
      WEBHOOK_RETRY_DELAY_SECONDS: '1',
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_TIMEOUT_MS: '3000',
    },
  });
  orgs = await twoOrganizations(service);
  rest = orgs.restA;
});
afterAll(async () => {
  await service.stop();
  await receiver.stop();
});

let endpointCount = 0;
/** A fresh endpoint path on the receiver, subscribed to `eventTypes`. */
async function endpoint(eventTypes: string[], client = rest) {
  endpointCount += 1;
  const path = `/hooks/${endpointCount}`;
  const created = await client('POST', '/v1/webhook-endpoints', { url: receiver.url + path, eventTypes, description: `test ${endpointCount}` });
  expect(created.status).toBe(201);
  return { path, id: created.body.endpoint.id as string, secret: created.body.secret as string };
}

const parsed = (request: Received) => JSON.parse(request.body) as { id: string; type: string; data: Record<string, unknown>; resourceId: string };

describe('webhook endpoints', () => {
  it('shows the signing secret once, never in reads, lists or the audit trail', async () => {
    const { id, secret } = await endpoint(['consumer_case.created']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const read = await rest('GET', `/v1/webhook-endpoints/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, eventTypes: ['consumer_case.created'], enabled: true });
    expect(JSON.stringify(read.body)).not.toContain(secret);
    expect(JSON.stringify((await rest('GET', '/v1/webhook-endpoints?limit=100')).body)).not.toContain(secret);
    const rotated = await rest('POST', `/v1/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    const audit = await rest('GET', `/v1/audit-events?resourceType=webhook_endpoints&resourceId=${id}`);
    expect(audit.body.items.map((e: { action: string }) => e.action)).toEqual(['UPDATE', 'CREATE']);
    expect(JSON.stringify(audit.body)).not.toContain('whsec_');
  });

  it('refuses unknown event types, empty subscriptions, URLs that are not http(s) and URLs with credentials', async () => {
    const bad = [
      [{ url: `${receiver.url}/x`, eventTypes: ['consumer_case.exploded'] }, 'eventTypes.0: unknown event type "consumer_case.exploded"'],
      [{ url: `${receiver.url}/x`, eventTypes: [] }, 'eventTypes: give at least one event type (or "*")'],
      [{ url: `${receiver.url}/x`, eventTypes: ['task.assigned', 'task.assigned'] }, 'eventTypes: must not repeat a type'],
      [{ url: 'ftp://example.com/x', eventTypes: ['*'] }, 'url: must be an absolute http(s) URL'],
      [{ url: 'not a url', eventTypes: ['*'] }, 'url: must be an absolute http(s) URL'],
      // Credentials would be shown back in every read: refused, the signature is how a receiver checks the sender.
      [{ url: receiver.url.replace('://', '://hook:s3cret@'), eventTypes: ['*'] }, 'url: must not contain a user name or password; receivers verify deliveries by their signature (webhook-signature header)'],
    ] as const;
    const before = (await rest('GET', '/v1/webhook-endpoints')).body.meta.total;
    for (const [body, message] of bad) {
      expect((await rest('POST', '/v1/webhook-endpoints', body)).body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    }
    expect((await rest('GET', '/v1/webhook-endpoints')).body.meta.total).toBe(before);
  });
});

describe('deliveries', () => {
  beforeEach(() => {
    receiver.requests.length = 0;
  });

  it('posts a signed event that verifies with the README recipe and equals GET /v1/events/{id}', async () => {
    const hook = await endpoint(['consumer_case.created', 'consumer_case.status_changed']);
    const created = await rest('POST', '/v1/consumer-cases', { email: 'signed@example.com' });
    const [request] = await waitFor(async () => receiver.at(hook.path).length > 0 && receiver.at(hook.path), 'the webhook', 15_000);
    const event = parsed(request!);
    expect(event).toMatchObject({ type: 'consumer_case.created', resourceType: 'consumer_case', resourceId: created.body.id, data: { id: created.body.id, status: 'PENDING' } });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(event.id);
    expect(verify(hook.secret, String(request!.headers['webhook-signature']), request!.body)).toBe(true);
    expect(request!.headers['webhook-signature']).toBe(`t=${request!.headers['webhook-timestamp']},v1=${String(request!.headers['webhook-signature']).split('v1=')[1]}`);
    // A changed body, another secret or an old timestamp do not verify.
    expect(verify(hook.secret, String(request!.headers['webhook-signature']), request!.body.replace('PENDING', 'VERIFIED'))).toBe(false);
    expect(verify('whsec_other', String(request!.headers['webhook-signature']), request!.body)).toBe(false);
    expect(verify(hook.secret, String(request!.headers['webhook-signature']), request!.body, -1)).toBe(false);
    const stored = await rest('GET', `/v1/events/${event.id}`);
    expect(JSON.parse(request!.body)).toEqual(stored.body);

    await rest('PATCH', `/v1/consumer-cases/${created.body.id}`, { status: 'IN_REVIEW' });
    const changed = await waitFor(async () => receiver.at(hook.path).map(parsed).find((e) => e.type === 'consumer_case.status_changed'), 'status_changed', 15_000);
    expect(changed.data).toEqual({ id: created.body.id, status: 'IN_REVIEW', previousStatus: 'PENDING' });
    const log = await rest('GET', `/v1/webhook-deliveries?endpointId=${hook.id}`);
    expect(log.body.items).toHaveLength(2);
    expect(log.body.items.every((d: { status: string; attempts: unknown[] }) => d.status === 'SUCCEEDED' && d.attempts.length === 1)).toBe(true);
    expect(log.body.items[0].attempts[0]).toMatchObject({ number: 1, responseStatus: 200, responseBody: 'ok', error: null });
  });

  it('sends only the subscribed types', async () => {
    const tasksOnly = await endpoint(['task.assigned']);
    const everything = await endpoint(['*']);
    const task = await rest('POST', '/v1/tasks', { title: 'Check the passport' });
    await rest('POST', `/v1/tasks/${task.body.id}/assignees`, { userId: 'analyst-7' });
    await waitFor(async () => receiver.at(everything.path).length >= 2 && receiver.at(tasksOnly.path).length >= 1, 'both endpoints', 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.at(tasksOnly.path).map((r) => parsed(r).type)).toEqual(['task.assigned']);
    expect(receiver.at(tasksOnly.path).map((r) => parsed(r).data)).toEqual([{ taskId: task.body.id, userId: 'analyst-7' }]);
    expect(receiver.at(everything.path).map((r) => parsed(r).type).sort()).toEqual(['task.assigned', 'task.created']);
  });

  it('retries failures with growing gaps, logs every attempt, and stops after the last one', async () => {
    const flaky = await endpoint(['business_case.created']);
    receiver.script.set(flaky.path, [500, 502]);
    const company = await rest('POST', '/v1/business-cases', { legalName: 'Retry Ltd' });
    expect(company.status).toBe(201);
    const delivered = await waitFor(async () => {
      const log = await rest('GET', `/v1/webhook-deliveries?endpointId=${flaky.id}`);
      return log.body.items[0]?.status === 'SUCCEEDED' && log.body.items[0];
    }, 'the third attempt', 30_000);
    expect(delivered.attemptCount).toBe(3);
    expect(delivered.attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([500, 502, 200]);
    expect(delivered.attempts[0].responseBody).toBe('failed with 500');
    const [first, second, third] = receiver.at(flaky.path);
    // Backoff from a 1 s base: about 1-2 s, then 2-4 s.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(1900);
    // The same event each time: receivers deduplicate on Webhook-Id.
    expect(new Set(receiver.at(flaky.path).map((r) => r.headers['webhook-id'])).size).toBe(1);

    const down = await endpoint(['business_case.created']);
    receiver.script.set(down.path, [503, 503, 503, 503]);
    await rest('POST', '/v1/business-cases', { legalName: 'Down Ltd' });
    const failed = await waitFor(async () => {
      const log = await rest('GET', `/v1/webhook-deliveries?endpointId=${down.id}&status=FAILED`);
      return log.body.items[0];
    }, 'the delivery to fail', 30_000);
    expect(failed.attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([503, 503, 503]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.at(down.path)).toHaveLength(3);

    // Replay: a new delivery of the same event, which now gets through.
    receiver.script.set(down.path, []);
    const replay = await rest('POST', `/v1/webhook-deliveries/${failed.id}/replay`);
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ replayOfId: failed.id, eventId: failed.eventId, status: 'PENDING', attemptCount: 0 });
    // A replay is someone's request: it is in the audit trail (planned deliveries are not).
    const audited = await rest('GET', '/v1/audit-events?resourceType=webhook_deliveries');
    expect(audited.body.items.map((e: { resourceId: string }) => e.resourceId)).toEqual([replay.body.id]);
    const replayed = await waitFor(async () => {
      const read = await rest('GET', `/v1/webhook-deliveries/${replay.body.id}`);
      return read.body.status === 'SUCCEEDED' && read.body;
    }, 'the replay', 15_000);
    expect(replayed.attempts).toHaveLength(1);
    expect(receiver.at(down.path).at(-1)!.headers['webhook-id']).toBe(failed.eventId);
  });

  it('records a refused connection as an attempt without a status', async () => {
    const nowhere = await rest('POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/closed', eventTypes: ['document.created'] });
    expect(nowhere.status).toBe(201);
    const task = await rest('POST', '/v1/tasks', { title: 'unrelated' });
    expect(task.status).toBe(201);
    // Nothing subscribed fires: no delivery planned.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await rest('GET', `/v1/webhook-deliveries?endpointId=${nowhere.body.endpoint.id}`)).body.meta.total).toBe(0);
    // An event of the subscribed type, as the triggers write them.
    await service.db.$executeRaw`SELECT emit_event(${orgs.orgA.id}::uuid, 'document.created', 'document', 'probe', '{}'::jsonb)`;
    const attempt = await waitFor(async () => {
      const log = await rest('GET', `/v1/webhook-deliveries?endpointId=${nowhere.body.endpoint.id}`);
      return log.body.items[0]?.attempts[0];
    }, 'an attempt', 15_000);
    expect(attempt).toMatchObject({ number: 1, responseStatus: null, responseBody: null });
    expect(attempt.error).toMatch(/ECONNREFUSED/);
  });

  it('sends nothing to a disabled endpoint, and cancels what it had pending', async () => {
    const paused = await endpoint(['consumer_case.created']);
    receiver.script.set(paused.path, [500, 500]);
    await rest('POST', '/v1/consumer-cases', { email: 'paused@example.com' });
    await waitFor(async () => receiver.at(paused.path).length >= 1, 'the first attempt', 15_000);
    expect((await rest('PATCH', `/v1/webhook-endpoints/${paused.id}`, { enabled: false })).body.enabled).toBe(false);
    const cancelled = await waitFor(async () => {
      const log = await rest('GET', `/v1/webhook-deliveries?endpointId=${paused.id}`);
      return log.body.items[0]?.status === 'CANCELLED' && log.body.items[0];
    }, 'the pending delivery to be cancelled', 15_000);
    expect(cancelled.attemptCount).toBe(1);
    await rest('POST', '/v1/consumer-cases', { email: 'paused-2@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await rest('GET', `/v1/webhook-deliveries?endpointId=${paused.id}`)).body.meta.total).toBe(1);
    expect((await rest('POST', `/v1/webhook-deliveries/${cancelled.id}/replay`)).status).toBe(409);
  });
});

describe('deliveries whose job was lost', () => {
  it('are recorded as failed (and replayable) instead of pending forever; one with a live job is left alone', async () => {
    const target = await endpoint(['task.created']);
    await rest('POST', '/v1/tasks', { title: 'Lost delivery' });
    await rest('POST', '/v1/tasks', { title: 'Kept delivery' });
    const delivered = await waitFor(async () => {
      const log = await rest('GET', `/v1/webhook-deliveries?endpointId=${target.id}&status=SUCCEEDED`);
      return log.body.items.length === 2 && log.body.items;
    }, 'both deliveries', 15_000);
    // Two deliveries as a crash-looping worker would leave them: pending, queued long ago, no attempt recorded; one job gone, one waiting.
    const [lost, kept] = delivered as Array<{ id: string; eventId: string }>;
    const long = new Date(Date.now() - 3_600_000);
    const pending = async (id: string) => {
      await service.db.webhookDeliveryAttempt.deleteMany({ where: { deliveryId: id } });
      await service.db.webhookDelivery.update({ where: { id }, data: { status: 'PENDING', enqueuedAt: long, jobId: id, attemptCount: 0, deliveredAt: null, lastAttemptAt: null } });
    };
    await pending(lost!.id);
    await pending(kept!.id);
    await service.db.$executeRawUnsafe(`DELETE FROM "${service.queue.schemaName}".job WHERE id IN ($1::uuid, $2::uuid)`, lost!.id, kept!.id);
    await service.queue.insert([{ id: kept!.id, name: 'webhook-delivery', data: { deliveryId: kept!.id }, startAfter: new Date(Date.now() + 3_600_000) }]);

    expect(await failLostDeliveries(service.queue, service.db, new Date(Date.now() - 600_000))).toBe(1);
    const failed = (await rest('GET', `/v1/webhook-deliveries/${lost!.id}`)).body;
    expect(failed.status).toBe('FAILED');
    expect(failed.attempts).toEqual([expect.objectContaining({ number: 1, error: expect.stringMatching(/the job queue gave up on this delivery/) })]);
    expect((await rest('GET', `/v1/webhook-deliveries/${kept!.id}`)).body.status).toBe('PENDING');
    expect((await rest('POST', `/v1/webhook-deliveries/${lost!.id}/replay`)).status).toBe(202);
  });
});

describe('the event feed', () => {
  it('pages oldest first with a cursor that continues where it stopped', async () => {
    const first = await rest('GET', '/v1/events?limit=1&type=consumer_case.created');
    expect(first.status).toBe(200);
    // Follow the feed to its end, then add three cases and read exactly those.
    let cursor = first.body.next as string;
    for (let more = true; more;) {
      const page = await rest('GET', `/v1/events?limit=100&type=consumer_case.created&after=${cursor}`);
      cursor = page.body.next;
      more = page.body.hasMore;
    }
    const ids: string[] = [];
    for (const email of ['feed-1@example.com', 'feed-2@example.com', 'feed-3@example.com']) ids.push((await rest('POST', '/v1/consumer-cases', { email })).body.id);
    await feedCaughtUp(service.db);
    const pageOne = await rest('GET', `/v1/events?limit=2&type=consumer_case.created&after=${cursor}`);
    expect(pageOne.body.items.map((e: { resourceId: string }) => e.resourceId)).toEqual(ids.slice(0, 2));
    expect(pageOne.body.hasMore).toBe(true);
    const pageTwo = await rest('GET', `/v1/events?limit=2&type=consumer_case.created&after=${pageOne.body.next}`);
    expect(pageTwo.body.items.map((e: { resourceId: string }) => e.resourceId)).toEqual(ids.slice(2));
    expect(pageTwo.body.hasMore).toBe(false);
    const empty = await rest('GET', `/v1/events?limit=2&type=consumer_case.created&after=${pageTwo.body.next}`);
    expect(empty.body).toEqual({ success: true, items: [], next: pageTwo.body.next, hasMore: false });
  });

  it('filters by resource and time, and refuses unknown cursors and types', async () => {
    const created = await rest('POST', '/v1/consumer-cases', { email: 'history@example.com' });
    await rest('PATCH', `/v1/consumer-cases/${created.body.id}`, { status: 'IN_REVIEW' });
    await feedCaughtUp(service.db);
    const history = await rest('GET', `/v1/events?resourceId=${created.body.id}`);
    expect(history.body.items.map((e: { type: string }) => e.type)).toEqual(['consumer_case.created', 'consumer_case.status_changed']);
    const future = await rest('GET', `/v1/events?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future.body.items).toEqual([]);
    expect((await rest('GET', '/v1/events?after=0190a6f2-0000-7000-8000-000000000000')).status).toBe(410);
    expect((await rest('GET', '/v1/events?type=case.exploded')).body).toEqual({ statusCode: 400, message: 'type: is not a known event type', error: 'Bad Request' });
  });

  it('does not show a transaction\'s events before it commits, and keeps them in the cursor\'s future', async () => {
    const head = await rest('GET', '/v1/events?limit=100&type=business_case.created');
    let cursor = head.body.next as string;
    for (let more = head.body.hasMore; more;) {
      const page = await rest('GET', `/v1/events?limit=100&type=business_case.created&after=${cursor}`);
      cursor = page.body.next;
      more = page.body.hasMore;
    }
    // A slow transaction writes an event first but commits last.
    let release!: () => void;
    const released = new Promise<void>((done) => { release = done; });
    const slow = service.db.$transaction(async (tx) => {
      await tx.businessCase.create({ data: { organizationId: orgs.orgA.id, legalName: 'Slow Commit Ltd' } });
      await released;
    }, { timeout: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const fast = await rest('POST', '/v1/business-cases', { legalName: 'Fast Commit Ltd' });
    // The fast one committed, but sits behind a running transaction: not shown yet.
    const during = await rest('GET', `/v1/events?type=business_case.created&after=${cursor}`);
    expect(during.body.items).toEqual([]);
    release();
    await slow;
    await feedCaughtUp(service.db);
    const after = await rest('GET', `/v1/events?type=business_case.created&after=${cursor}`);
    expect(after.body.items.map((e: { resourceId: string; data: { id: string } }) => e.resourceId)).toHaveLength(2);
    expect(after.body.items.map((e: { resourceId: string }) => e.resourceId)).toContain(fast.body.id);
  });

  it('keeps organizations apart', async () => {
    const aCase = await rest('POST', '/v1/consumer-cases', { email: 'private@example.com' });
    await feedCaughtUp(service.db);
    const [event] = (await rest('GET', `/v1/events?resourceId=${aCase.body.id}`)).body.items;
    expect((await orgs.restB('GET', `/v1/events/${event.id}`)).body).toEqual({ statusCode: 404, message: `Event ${event.id} not found`, error: 'Not Found' });
    expect((await orgs.restB('GET', `/v1/events?after=${event.id}`)).status).toBe(410);
    expect((await orgs.restB('GET', `/v1/events?resourceId=${aCase.body.id}`)).body.items).toEqual([]);
    const hooksOfA = (await rest('GET', '/v1/webhook-endpoints?limit=100')).body.items;
    expect((await orgs.restB('GET', `/v1/webhook-endpoints/${hooksOfA[0].id}`)).status).toBe(404);
    expect((await orgs.restB('GET', '/v1/webhook-deliveries')).body.meta.total).toBe(0);
    // B's endpoint for everything receives nothing of A's.
    const hookOfB = await endpoint(['*'], orgs.restB);
    await rest('POST', '/v1/consumer-cases', { email: 'still-private@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.at(hookOfB.path)).toEqual([]);
  });

  it('needs events:read for the feed and webhooks:read for a delivery\'s event over GraphQL', async () => {
    const hooksOnly = await createKey(service.db, orgs.orgA.id, ['webhooks:read']);
    expect((await restClient(service.url, hooksOnly)('GET', '/v1/events')).status).toBe(403);
    const gql = graphqlClient(service.url, hooksOnly);
    const result = await gql('{ webhookDeliveries(limit: 1) { items { id eventType event { id } } } }');
    expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    // Refused before it runs: the path is the field's place in the selection (no item index).
    expect(result.errors?.[0]?.path).toEqual(['webhookDeliveries', 'items', 'event']);
  });
});

describe('task.overdue', () => {
  it('is emitted once per task and due date, and again for a new due date', async () => {
    const hook = await endpoint(['task.overdue']);
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const task = await rest('POST', '/v1/tasks', { title: 'Late review', dueDate: past });
    const done = await rest('POST', '/v1/tasks', { title: 'Finished', dueDate: past, status: 'DONE' });
    expect(done.status).toBe(201);
    await emitOverdueTasks(service.db);
    await emitOverdueTasks(service.db);
    await feedCaughtUp(service.db);
    const events = async () => (await rest('GET', `/v1/events?type=task.overdue&resourceId=${task.body.id}`)).body.items;
    expect(await events()).toHaveLength(1);
    expect((await rest('GET', `/v1/events?type=task.overdue&resourceId=${done.body.id}`)).body.items).toEqual([]);
    const [request] = await waitFor(async () => receiver.at(hook.path).length > 0 && receiver.at(hook.path), 'task.overdue', 15_000);
    expect(parsed(request!).data).toMatchObject({ id: task.body.id, status: 'TODO' });
    expect(Date.parse(String(parsed(request!).data.dueDate))).toBe(Date.parse(past));

    expect((await rest('PUT', `/v1/tasks/${task.body.id}`, { title: 'Late review', dueDate: new Date(Date.now() - 60_000).toISOString() })).status).toBe(200);
    await emitOverdueTasks(service.db);
    await feedCaughtUp(service.db);
    expect(await events()).toHaveLength(2);
  });

  it('is emitted once when sweeps overlap', async () => {
    const task = await rest('POST', '/v1/tasks', { title: 'Raced review', dueDate: new Date(Date.now() - 3_600_000).toISOString() });
    await Promise.all(Array.from({ length: 6 }, () => emitOverdueTasks(service.db)));
    expect(await service.db.event.count({ where: { type: 'task.overdue', resourceId: task.body.id } })).toBe(1);
  });
});
