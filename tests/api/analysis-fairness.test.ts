// One organization's backlog of analyses does not make another's wait behind
// it: synchronous analyses and queued jobs share an instance's engine
// processes in turn per organization, and queued jobs are taken from the
// shared queue in turn per organization by every instance.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { slowScanPdf } from '../helpers/bombs.ts';
import { restClient } from '../helpers/http.ts';
import { textPdf } from '../helpers/sample-files.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { formWith, upload } from '../helpers/uploads.ts';
import { waitFor } from '../helpers/wait.ts';

const services: RunningService[] = [];
afterAll(() => Promise.all(services.map((service) => service.stop())));

async function started(env: Record<string, string> = {}) {
  const service = await startTestService({ env: { DOCUMENT_ANALYSIS_ENGINE: 'local', ANALYSIS_WAIT_TIMEOUT_MS: '90000', ...env } });
  services.push(service);
  return service;
}

async function stored(service: RunningService, org: TestOrganization, data: Buffer, name = 'doc.pdf') {
  const response = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data, filename: name }]));
  expect(response.status).toBe(201);
  return response.body.fileKey as string;
}

/** Analyses of `org` not finished yet. */
const unfinished = (service: RunningService, org: TestOrganization) =>
  service.db.documentAnalysis.count({ where: { organizationId: org.id, status: { in: ['QUEUED', 'RUNNING'] } } });

describe('synchronous analyses', () => {
  it("answer another organization's small PDF while one organization's backlog is still running", async () => {
    const service = await started();
    const [busy, other] = [await createOrganization(service.db), await createOrganization(service.db)];
    const scan = await stored(service, busy, await slowScanPdf(4));
    const small = await stored(service, other, await textPdf([['One line']]));
    let busyAnswered = 0;
    const backlog = Array.from({ length: 4 }, () =>
      restClient(service.url, busy.key)('POST', '/v1/document-analysis/analyze', { fileKey: scan }).then((response) => {
        busyAnswered++;
        return response;
      }));
    await waitFor(async () => (await unfinished(service, busy)) > 0, 'the backlog to start', 30_000, 50);
    const answer = await restClient(service.url, other.key)('POST', '/v1/document-analysis/analyze', { fileKey: small });
    expect(answer.status).toBe(200);
    expect(answer.body.data.textContent).toBe('One line');
    // Before: one analysis at a time for everyone, so all four came first.
    expect(busyAnswered).toBeLessThan(2);
    expect((await Promise.all(backlog)).map((response) => response.status)).toEqual([200, 200, 200, 200]);
  }, 120_000);

  it("refuse (429) one organization's analyses past its waiting limit, recording nothing; other organizations are served", async () => {
    const service = await started({ ANALYSIS_MAX_WAITING_PER_ORGANIZATION: '1' });
    const [busy, other] = [await createOrganization(service.db), await createOrganization(service.db)];
    const scan = await stored(service, busy, await slowScanPdf(2));
    // One runs, one waits, the third is refused.
    const answers = await Promise.all(Array.from({ length: 3 }, () => restClient(service.url, busy.key)('POST', '/v1/document-analysis/analyze', { fileKey: scan })));
    expect(answers.map((response) => response.status).sort()).toEqual([200, 200, 429]);
    expect(answers.find((response) => response.status === 429)!.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: "Too many analyses: 1 of this organization's analyses are waiting to run, the limit; wait for them, or use analyze-async",
    });
    expect(await service.db.documentAnalysis.count({ where: { organizationId: busy.id } })).toBe(2);
    const small = await restClient(service.url, other.key)('POST', '/v1/document-analysis/analyze', { fileKey: await stored(service, other, await textPdf([['Served']])) });
    expect(small.status).toBe(200);
  }, 120_000);
});

describe('queued analyses (analyze-async)', () => {
  it("finish another organization's job while one organization's queued jobs are still pending", async () => {
    const service = await started();
    const [busy, other] = [await createOrganization(service.db), await createOrganization(service.db)];
    const scan = await stored(service, busy, await slowScanPdf(3));
    for (let i = 0; i < 5; i++) {
      const queued = await restClient(service.url, busy.key)('POST', '/v1/document-analysis/analyze-async?wait=false', { fileKey: scan });
      expect(queued.status).toBe(202);
    }
    const answer = await restClient(service.url, other.key)('POST', '/v1/document-analysis/analyze-async', { fileKey: await stored(service, other, await textPdf([['Queued behind nobody']])) });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'SUCCEEDED', textContent: 'Queued behind nobody' });
    // Before: the queue was first come, first served, one job at a time.
    expect(await unfinished(service, busy)).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it('are taken in turn per organization from the shared queue by every instance', async () => {
    // Two instances working one queue, one engine process each: no slot is kept free here, so the order is the queue's own.
    const shared = { JOB_QUEUE_SCHEMA: `jobs_fair_${randomUUID().replaceAll('-', '').slice(0, 12)}`, ANALYSIS_WORKERS: '1' };
    const [first, second] = [await started(shared), await started(shared)];
    const [busy, other] = [await createOrganization(first.db), await createOrganization(first.db)];
    const scan = await stored(first, busy, await slowScanPdf(2));
    for (let i = 0; i < 6; i++) {
      expect((await restClient(first.url, busy.key)('POST', '/v1/document-analysis/analyze-async?wait=false', { fileKey: scan })).status).toBe(202);
    }
    const answer = await restClient(second.url, other.key)('POST', '/v1/document-analysis/analyze-async', { fileKey: await stored(second, other, await textPdf([['My turn']])) });
    expect(answer.body.data).toMatchObject({ status: 'SUCCEEDED', textContent: 'My turn' });
    // At most one round of the busy organization's jobs (one per instance) went before it.
    expect(await unfinished(first, busy)).toBeGreaterThanOrEqual(3);
    await waitFor(async () => (await unfinished(first, busy)) === 0, "the busy organization's jobs to finish", 90_000, 200);
  }, 180_000);
});
