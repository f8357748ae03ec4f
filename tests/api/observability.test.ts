// Health, readiness and Prometheus metrics, read as a load balancer and a
// Prometheus server would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';

let service: RunningService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.stop());

describe('health and readiness', () => {
  it('answers /healthz and /readyz without a key when the database and the store answer', async () => {
    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok' } });
  });

  it('is not ready (503, naming the part) when the file store cannot be reached', async () => {
    const broken = await startTestService({ env: { S3_ENDPOINT: 'http://127.0.0.1:9' } });
    try {
      const ready = await fetch(`${broken.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        statusCode: 503, error: 'Service Unavailable', message: 'Not ready: storage unreachable', checks: { database: 'ok', storage: 'failing' },
      });
      expect((await fetch(`${broken.url}/healthz`)).status).toBe(200);
    } finally {
      await broken.stop();
    }
  });
});

describe('GET /metrics', () => {
  it('counts requests by route pattern and status, times them, and shows queue depth', async () => {
    const org = await createOrganization(service.db);
    const rest = restClient(service.url, org.key);
    const created = await rest('POST', '/v1/consumer-cases', { email: 'metrics@example.com' });
    await rest('GET', `/v1/consumer-cases/${created.body.id}`);
    await restClient(service.url)('GET', '/v1/consumer-cases');
    const response = await fetch(`${service.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/v1\/consumer-cases",status="201"\} 1\n/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/consumer-cases\/:id",status="200"\} 1\n/);
    // Refused before routing: grouped under the prefix.
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/\*",status="401"\} 1\n/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+\n/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.5",method="GET",route="\/v1\/consumer-cases\/:id"\} 1\n/);
    expect(text).toMatch(/job_queue_depth\{queue="document-analysis"\} \d+\n/);
    expect(text).toContain('process_cpu_user_seconds_total');
    // Ids never become labels.
    expect(text).not.toContain(created.body.id);
  });

  it('needs the bearer token when METRICS_TOKEN is set', async () => {
    const guarded = await startTestService({ env: { METRICS_TOKEN: 'scrape-secret-0123456789' } });
    try {
      const refused = await fetch(`${guarded.url}/metrics`);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' });
      const allowed = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer scrape-secret-0123456789' } });
      expect(allowed.status).toBe(200);
    } finally {
      await guarded.stop();
    }
  });
});
