// Stopping the service (what SIGTERM does in src/server.ts): a request in
// flight still gets its full answer, new connections are refused, and the
// stop finishes (jobs go back to the queue, connections are released).
import { describe, expect, it } from 'vitest';
import { restClient } from '../helpers/http.ts';
import { scannedPdf } from '../helpers/sample-files.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';
import { formWith, upload } from '../helpers/uploads.ts';

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
});
