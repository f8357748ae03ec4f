// The HTTP adverse media provider end to end: the service configured with
// ADVERSE_MEDIA_URL calls a real news API server (NewsAPI's response shape,
// on loopback), stores the findings with the screening, and records a
// failing API without losing the sanctions screening.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';

const ARTICLE = {
  source: { id: null, name: 'Harbour Times' },
  title: 'Port operator Elsbeth Varga charged with bribing customs officials',
  description: 'Prosecutors say Elsbeth Varga paid customs officers to wave through undeclared cargo.',
  url: 'https://harbour-times.example/2025/02/varga-bribery',
  publishedAt: '2025-02-03T09:00:00Z',
  content: 'Elsbeth Varga, 47, was charged on Monday with paying bribes to three customs officials over two years, prosecutors said.',
};

const PEPS = fileURLToPath(new URL('../../../shared/datasets/sanctions/us_congress_senzing.json', import.meta.url));
const SOURCE_ID = `peps-media-${Date.now().toString(36)}`;

let news: Server;
let failing = false;
const requests: Array<{ url: string; key: string | undefined }> = [];
let service: RunningService;
let rest: ReturnType<typeof restClient>;

beforeAll(async () => {
  news = createServer((request, response) => {
    requests.push({ url: request.url ?? '', key: request.headers['x-api-key'] as string | undefined });
    if (failing) {
      response.writeHead(500).end('upstream trouble');
      return;
    }
    const query = new URL(request.url ?? '/', 'http://x').searchParams.get('q') ?? '';
    const articles = query.includes('Varga') ? [ARTICLE] : [];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', totalResults: articles.length, articles }));
  });
  news.listen(0, '127.0.0.1');
  await once(news, 'listening');
  const { port } = news.address() as AddressInfo;
  service = await startTestService({
    env: {
      ADVERSE_MEDIA_URL: `http://127.0.0.1:${port}/v2/everything?q={query}&pageSize={limit}`,
      ADVERSE_MEDIA_API_KEY: 'news-key-1',
      ADVERSE_MEDIA_TIMEOUT_MS: '2000',
      WATCHLIST_SOURCES: JSON.stringify([{ id: SOURCE_ID, name: 'PEPs', format: 'senzing-json', files: { primary: PEPS } }]),
      WATCHLIST_REFRESH_CRON: 'off',
    },
  });
  const deadline = Date.now() + 60_000;
  while (!(await service.db.watchlistLoad.findFirst({ where: { sourceId: SOURCE_ID, status: 'LOADED' } })) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  rest = restClient(service.url, (await createOrganization(service.db)).key);
});
afterAll(async () => {
  await service?.stop();
  news?.close();
});

describe('HTTP adverse media provider', () => {
  it('asks the configured API with the key and stores the classified findings', async () => {
    const screened = await rest('POST', '/v1/screenings', { name: 'Elsbeth Varga', kind: 'PERSON' });
    expect(screened.status).toBe(201);
    expect(screened.body.mediaStatus).toBe('CHECKED');
    // (Other requests may arrive meanwhile: the list load re-screens every case subject in the shared test database.)
    expect(requests.find((request) => request.url.includes('Varga'))).toMatchObject({ key: 'news-key-1' });
    expect(screened.body.mediaFindings).toHaveLength(1);
    expect(screened.body.mediaFindings[0]).toMatchObject({
      providerId: expect.stringMatching(/^http:127\.0\.0\.1/),
      url: ARTICLE.url,
      source: 'Harbour Times',
      publishedAt: '2025-02-03T09:00:00.000Z',
      matchedText: 'Elsbeth Varga',
    });
    expect(screened.body.mediaFindings[0].categories.map((c: any) => c.category)).toContain('BRIBERY_CORRUPTION');
  });

  it('records a failing API on the screening and still answers 201', async () => {
    failing = true;
    try {
      const screened = await rest('POST', '/v1/screenings', { name: 'Elsbeth Varga', kind: 'PERSON' });
      expect(screened.status).toBe(201);
      expect(screened.body).toMatchObject({ mediaStatus: 'FAILED', mediaFindings: [], outcome: 'NO_HITS' });
      expect(screened.body.mediaError).toMatch(/500/);
    } finally {
      failing = false;
    }
  });
});

describe('screening without any loaded list', () => {
  it('answers 503 rather than a clean result, and records nothing', async () => {
    const bare = await startTestService();
    try {
      const client = restClient(bare.url, (await createOrganization(bare.db)).key);
      const response = await client('POST', '/v1/screenings', { name: 'Elsbeth Varga', kind: 'PERSON' });
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: expect.stringMatching(/No watchlist version is loaded/) });
      expect((await client('GET', '/v1/screenings')).body.meta.total).toBe(0);
    } finally {
      await bare.stop();
    }
  });
});
