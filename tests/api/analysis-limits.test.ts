// Analysis bombs: files of a few hundred bytes or kilobytes built to make the
// engine render or inflate hundreds of megabytes. Each gets a clear 422 naming
// the limit, or is read within the limits; one organization's failure does not
// fail another's analysis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { flateBombPdf, hugeImagePdf, largePagePdf, pngBomb, slowScanPdf, tiffDeflateBomb } from '../helpers/bombs.ts';
import { restClient } from '../helpers/http.ts';
import { textImage, textPdf } from '../helpers/sample-files.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { formWith, upload } from '../helpers/uploads.ts';

const services: RunningService[] = [];
afterAll(() => Promise.all(services.map((service) => service.stop())));

async function started(env: Record<string, string> = {}) {
  const service = await startTestService({ env: { DOCUMENT_ANALYSIS_ENGINE: 'local', ...env } });
  services.push(service);
  return service;
}

async function stored(service: RunningService, org: TestOrganization, data: Buffer, name: string) {
  const response = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data, filename: name }]));
  expect(response.status).toBe(201);
  return response.body.fileKey as string;
}

const analyze = (service: RunningService, org: TestOrganization, fileKey: string) =>
  restClient(service.url, org.key)('POST', '/v1/document-analysis/analyze', { fileKey });

describe('analysis bombs, with the default limits', () => {
  let service: RunningService;
  let org: TestOrganization;
  beforeAll(async () => {
    service = await started();
    org = await createOrganization(service.db);
  });

  it('reads a 3000 x 3000 pt scanned page at a resolution that keeps it within the megapixel limit', async () => {
    // At 300 dpi this page is 156 megapixels; within 40 it is rendered at 151 dpi, which OCR still reads.
    const page = await largePagePdf(3000, 3000, await textImage(['Poster sized page', 'Read at a lower resolution'], { fontSize: 80 }));
    const response = await analyze(service, org, await stored(service, org, page, 'poster.pdf'));
    expect(response.status).toBe(200);
    expect(response.body.data.textContent).toContain('Poster sized page');
  }, 90_000);

  it('refuses a page too large even at the lowest OCR resolution (422 naming the limit)', async () => {
    const response = await analyze(service, org, await stored(service, org, await largePagePdf(14_400, 14_400), 'huge.pdf'));
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: 'file: a page of 14400 x 14400 pt is 400.0 megapixels even at 100 dpi; the limit is 40 megapixels',
    });
  }, 60_000);

  it('refuses a PDF whose streams inflate to 512 MB (422 naming the limit), and records the failure', async () => {
    const bomb = await flateBombPdf(512);
    expect(bomb.length).toBeLessThan(600_000);
    const response = await analyze(service, org, await stored(service, org, bomb, 'bomb.pdf'));
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('file: the PDF decompresses to more than 256 MB; the limit is 256 MB');
    const recorded = await service.db.documentAnalysis.findFirst({ where: { organizationId: org.id }, orderBy: { createdAt: 'desc' } });
    expect(recorded).toMatchObject({ status: 'FAILED', error: response.body.message });
  }, 90_000);

  it('refuses a PDF drawing an image that declares 400 megapixels', async () => {
    const response = await analyze(service, org, await stored(service, org, await hugeImagePdf(20_000, 20_000), 'image.pdf'));
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('file: an image in the PDF has 400.0 megapixels; the limit is 40');
  }, 90_000);

  it('refuses image files whose data inflates past the limit, or that declare too many pixels', async () => {
    const tiff = await analyze(service, org, await stored(service, org, await tiffDeflateBomb(100, 100, 512), 'fax.tiff'));
    expect(tiff.status).toBe(422);
    expect(tiff.body.message).toBe('file: the image decompresses to more than 256 MB; the limit is 256 MB');
    const inflating = await analyze(service, org, await stored(service, org, await pngBomb(100, 100, 512), 'small.png'));
    expect(inflating.status).toBe(422);
    expect(inflating.body.message).toBe('file: the image decompresses to more than 256 MB; the limit is 256 MB');
    // Refused before this change too: the declared size is checked before decoding.
    const declared = await analyze(service, org, await stored(service, org, await pngBomb(100_000, 100_000, 1), 'huge.png'));
    expect(declared.status).toBe(422);
    expect(declared.body.message).toBe('file: the image has 10000.0 megapixels; the limit is 40');
  }, 90_000);
});

describe("one organization's failure does not fail another's analysis", () => {
  it('an analysis past the time limit fails alone; the next one, on a fresh engine process, succeeds', async () => {
    // One engine process, so the other organization's analysis waits for the same one.
    const service = await started({ ANALYSIS_WORKERS: '1', ANALYSIS_TIMEOUT_MS: '4000' });
    const [slowOrg, goodOrg] = [await createOrganization(service.db), await createOrganization(service.db)];
    const slowKey = await stored(service, slowOrg, await slowScanPdf(20), 'slow.pdf');
    const goodKey = await stored(service, goodOrg, await textPdf([['A good document']]), 'good.pdf');
    const slow = analyze(service, slowOrg, slowKey);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const good = analyze(service, goodOrg, goodKey);
    expect((await slow).body).toMatchObject({ statusCode: 422, message: 'file: the analysis took longer than 4 s' });
    const answer = await good;
    expect(answer.status).toBe(200);
    expect(answer.body.data.textContent).toBe('A good document');
  }, 90_000);

  it('a file that exhausts its engine process\'s memory fails alone (422 naming the limit)', async () => {
    // Limits raised so that the page gets past the checks and meets the memory limit instead.
    const service = await started({ ANALYSIS_MAX_MEGAPIXELS: '200', ANALYSIS_WORKER_MEMORY_MB: '200' });
    const [bombOrg, goodOrg] = [await createOrganization(service.db), await createOrganization(service.db)];
    const bombKey = await stored(service, bombOrg, await largePagePdf(3000, 3000), 'poster.pdf');
    const goodKey = await stored(service, goodOrg, await textPdf([['Unaffected']]), 'good.pdf');
    const [bomb, good] = await Promise.all([analyze(service, bombOrg, bombKey), analyze(service, goodOrg, goodKey)]);
    expect(bomb.body).toMatchObject({ statusCode: 422, message: 'file: the analysis needed more memory than the limit of 200 MB' });
    expect(good.status).toBe(200);
    expect(good.body.data.textContent).toBe('Unaffected');
    // The engine serves on.
    const again = await analyze(service, bombOrg, await stored(service, bombOrg, await textPdf([['Next one']]), 'next.pdf'));
    expect(again.status).toBe(200);
  }, 90_000);
});
