// PostgreSQL goes away while the service runs: requests get 503 in the error
// shape (never a 500 or a hang), and the service recovers by itself when the
// database is back. Runs on its own PostgreSQL so it can be stopped.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { freePort } from '../helpers/ports.ts';
import { waitFor } from '../helpers/wait.ts';

let dataDir: string;
let port: number;
let database: { url: string; stop: () => Promise<void> };
let service: RunningService;
let org: TestOrganization;

const start = () => startEmbeddedPostgres({ dataDir, port, ephemeral: false });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'outage-pg-'));
  port = await freePort();
  database = await start();
  service = await startTestService({ databaseUrl: database.url });
  org = await createOrganization(service.db, undefined, 'outage');
}, 120_000);
afterAll(async () => {
  await service?.stop().catch(() => {});
  await database?.stop().catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
});

describe('when PostgreSQL goes away', () => {
  it('answers 503 in the error shape, then recovers when it is back', async () => {
    const rest = restClient(service.url, org.key);
    expect((await rest('GET', '/v1/consumer-cases')).status).toBe(200);

    await database.stop();
    for (const request of [
      () => rest('GET', '/v1/consumer-cases'),
      () => rest('POST', '/v1/consumer-cases', { email: 'outage@example.com' }),
    ]) {
      const response = await request();
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'The database is unavailable; try again shortly' });
    }
    const gql = await graphqlClient(service.url, org.key)('{ consumerCases { meta { total } } }');
    expect(gql.status).toBe(503);
    expect(gql.errors?.[0]).toMatchObject({ message: 'The database is unavailable; try again shortly', extensions: { code: 'SERVICE_UNAVAILABLE' } });
    expect((await fetch(`${service.url}/readyz`)).status).toBe(503);
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);

    database = await start();
    await waitFor(async () => (await rest('GET', '/v1/consumer-cases')).status === 200, 'recovery', 30_000);
    expect((await rest('POST', '/v1/consumer-cases', { email: 'after-outage@example.com' })).status).toBe(201);
  }, 120_000);
});
