// Stopping the service (what SIGTERM does in src/server.ts): a request in
// flight still gets its full answer, new connections are refused, and the
// stop finishes; a job still running after the grace period goes back to the
// queue as not started, and another instance finishes it.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { restClient } from '../helpers/http.ts';
import { scannedPdf } from '../helpers/sample-files.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';
import { formWith, upload } from '../helpers/uploads.ts';
import { waitFor } from '../helpers/wait.ts';

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, then refuses new ones', async () => {
    const service = await startTestService();
    const org = await createOrganization(service.db, undefined, 'shutdown');
    const stored = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data: await scannedPdf(['Shutdown test page', 'OCR takes a moment']), filename: 'scan.pdf' }]));
    expect(stored.status).toBe(201);
    // OCR of a scanned page takes about a second: long enough to stop the service meanwhile.
    const inFlight = restClient(service.url, org.key)('POST', '/v1/document-analysis/analyze', { fileKey: stored.body.fileKey });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const started = Date.now();
    const stopping = service.stop();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.body.data.textContent).toMatch(/Shutdown/i);
    await stopping;
    expect(Date.now() - started).toBeLessThan(25_000);
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
  }, 60_000);

  it('hands a job still running after the grace period back to the queue, unspent, and another instance finishes it', async () => {
    // A webhook receiver that never answers its first request, and answers the others.
    const requests: Array<{ headers: IncomingHttpHeaders }> = [];
    const receiver = createServer((request, response) => {
      requests.push({ headers: request.headers });
      request.resume();
      if (requests.length > 1) response.end('ok');
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const env = {
      JOB_QUEUE_SCHEMA: `jobs_shutdown_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
      JOB_SHUTDOWN_GRACE_SECONDS: '1',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_DISPATCH_INTERVAL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '60000',
    };
    const first = await startTestService({ env });
    let second: Awaited<ReturnType<typeof startTestService>> | undefined;
    try {
      const org = await createOrganization(first.db, undefined, 'shutdown-jobs');
      const rest = restClient(first.url, org.key);
      const endpoint = await rest('POST', '/v1/webhook-endpoints', { url: hook, eventTypes: ['consumer_case.created'] });
      expect(endpoint.status).toBe(201);
      await rest('POST', '/v1/consumer-cases', { email: 'in-flight@example.com' });
      await waitFor(async () => requests.length === 1, 'the delivery to reach the receiver', 15_000);
      const [delivery] = await first.db.webhookDelivery.findMany({ where: { endpointId: endpoint.body.endpoint.id } });
      const job = () => first.db.$queryRawUnsafe<Array<{ state: string; retry_count: number; started_on: Date | null }>>(
        `SELECT state::text, retry_count, started_on FROM "${env.JOB_QUEUE_SCHEMA}".job WHERE name = 'webhook-delivery' AND data->>'deliveryId' = $1`, delivery!.id);
      expect((await job())[0]!.state).toBe('active');

      const started = Date.now();
      await first.stop();
      // Stopped after the 1 s grace, not after the receiver's 60 s.
      expect(Date.now() - started).toBeLessThan(10_000);
      second = await startTestService({ env });
      const inQueue = await second.db.$queryRawUnsafe<Array<{ state: string; retry_count: number }>>(
        `SELECT state::text, retry_count FROM "${env.JOB_QUEUE_SCHEMA}".job WHERE name = 'webhook-delivery' AND data->>'deliveryId' = $1`, delivery!.id);
      expect(inQueue[0]!.retry_count).toBe(0);

      // The other instance takes it at once and delivers the same event; the cut attempt was not counted.
      const done = await waitFor(async () => {
        const row = await second!.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.id }, include: { attempts: true } });
        return row.status === 'SUCCEEDED' && row;
      }, 'the delivery to succeed from the second instance', 20_000);
      expect(done.attemptCount).toBe(1);
      expect(done.attempts).toHaveLength(1);
      expect(requests).toHaveLength(2);
      expect(requests[1]!.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
      const [finished] = await second.db.$queryRawUnsafe<Array<{ state: string; retry_count: number }>>(
        `SELECT state::text, retry_count FROM "${env.JOB_QUEUE_SCHEMA}".job WHERE name = 'webhook-delivery' AND data->>'deliveryId' = $1`, delivery!.id);
      expect(finished).toMatchObject({ state: 'completed', retry_count: 0 });
    } finally {
      await second?.stop();
      receiver.closeAllConnections();
      await new Promise<void>((done) => receiver.close(() => done()));
    }
  }, 90_000);
});
