// Slow clients (slow-loris) cannot take the service from other tenants:
// JSON bodies are read, within REQUEST_BODY_TIMEOUT_MS, before a request takes
// a database connection (past it 408), uploads stream without holding one,
// and the HTTP server closes requests whose head or whole body is too slow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { rawExchange, type RawExchange } from '../helpers/raw-http.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let orgA: TestOrganization;
let orgB: TestOrganization;
const POOL_SIZE = 3;

beforeAll(async () => {
  service = await startTestService({
    env: {
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      REQUEST_BODY_TIMEOUT_MS: '3000',
      REQUEST_HEADERS_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '8000',
    },
  });
  orgA = await createOrganization(service.db, undefined, 'slow-a');
  orgB = await createOrganization(service.db, undefined, 'slow-b');
});
afterAll(async () => {
  await service?.stop();
});

/** A request whose head is complete and whose body (announced as 10 kB) has only begun. */
function slowBody(path: string, contentType: string, firstBytes: string, extraHeaders = '') {
  return rawExchange(
    service.url,
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${orgA.key}\r\nContent-Type: ${contentType}\r\n` +
      `Accept: application/graphql-response+json\r\nContent-Length: 10000\r\n${extraHeaders}\r\n${firstBytes}`,
  );
}

describe('slow request bodies', () => {
  it('hold no database connection: another organization is served meanwhile, and the slow JSON bodies get 408', async () => {
    const slow: Array<{ exchange: RawExchange; graphql: boolean }> = [];
    const uploads: RawExchange[] = [];
    try {
      // More slow JSON requests than the pool has connections, GraphQL (the
      // direct path and yoga's own, taken for browser requests) and REST...
      for (let i = 0; i < POOL_SIZE + 1; i++) {
        slow.push({ exchange: await slowBody('/graphql', 'application/json', '{"query":"{ consumerCases { meta'), graphql: true });
      }
      slow.push({ exchange: await slowBody('/graphql', 'application/json', '{"query":"{ consumerCases', 'Origin: http://localhost\r\n'), graphql: true });
      slow.push({ exchange: await slowBody('/v1/consumer-cases', 'application/json', '{"email":"slow'), graphql: false });
      // ...and slow uploads, REST and GraphQL multipart.
      const part = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4';
      uploads.push(await slowBody('/v1/files/upload/private', 'multipart/form-data; boundary=b', part));
      uploads.push(await slowBody(
        '/graphql', 'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="operations"\r\n\r\n' +
          '{"query":"mutation($file: Upload!) { uploadPrivateFile(file: $file) { fileKey } }","variables":{"file":null}}\r\n' +
          '--b\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.file"]}\r\n' +
          '--b\r\nContent-Disposition: form-data; name="0"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4',
      ));
      // Let the service take them in (today: each slow GraphQL body holds the connection it authenticated on).
      await new Promise((resolve) => setTimeout(resolve, 500));

      const restB = restClient(service.url, orgB.key);
      const list = await restB('GET', '/v1/consumer-cases');
      expect(list.status).toBe(200);
      const query = await graphqlClient(service.url, orgB.key)('{ consumerCases { meta { total } } }');
      expect(query.status).toBe(200);
      expect(query.errors).toBeUndefined();
      expect((await restB('POST', '/v1/consumer-cases', { email: 'served@example.com' })).status).toBe(201);
      // All of that while every slow request was still open.
      expect([...slow.map((s) => s.exchange), ...uploads].filter((exchange) => exchange.closed)).toEqual([]);

      for (const { exchange, graphql } of slow) {
        const answer = await exchange.answer;
        expect(answer.status, answer.body).toBe(408);
        const body = JSON.parse(answer.body);
        if (graphql) {
          expect(body.errors[0]).toMatchObject({ extensions: { code: 'REQUEST_TIMEOUT' } });
          expect(body.errors[0].extensions).not.toHaveProperty('http');
        } else {
          expect(body).toEqual({ statusCode: 408, error: 'Request Timeout', message: expect.stringMatching(/request body/i) });
        }
      }
      // Uploads stream at their own pace (the JSON body timeout does not cut them)...
      expect(uploads.filter((exchange) => exchange.closed)).toEqual([]);
      // ...until the whole request takes longer than REQUEST_TIMEOUT_MS.
      for (const exchange of uploads) {
        const answer = await exchange.answer;
        expect(answer.status, answer.body).toBe(408);
      }
    } finally {
      for (const exchange of [...slow.map((s) => s.exchange), ...uploads]) exchange.destroy();
    }
  }, 60_000);

  it('closes a connection whose request head never ends', async () => {
    const exchange = await rawExchange(service.url, `GET /v1/consumer-cases HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${orgA.key}\r\n`);
    try {
      const answer = await exchange.answer;
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 408, error: 'Request Timeout' });
    } finally {
      exchange.destroy();
    }
  }, 20_000);
});
