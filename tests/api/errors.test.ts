import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';

let service: RunningService;
let rest: ReturnType<typeof restClient>;
let key: string;

beforeAll(async () => {
  service = await startTestService();
  key = (await createOrganization(service.db)).key;
  rest = restClient(service.url, key);
});
afterAll(() => service.stop());

describe('request errors in the shared shape', () => {
  it('malformed JSON is 400', async () => {
    const response = await rest('POST', '/v1/consumer-cases', '{"email": "a@b.co",');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message: 'Malformed JSON in request body', error: 'Bad Request' });
  });

  it('a JSON body that is not an object is 400', async () => {
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const response = await rest('POST', '/v1/tasks', body);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('Request body must be a JSON object');
    }
  });

  it('a wrong content type is 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await rest('POST', '/v1/consumer-cases', 'email=a@b.co', { 'content-type': type });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({ statusCode: 415, message: 'Content-Type must be application/json', error: 'Unsupported Media Type' });
    }
    const withCharset = await rest('POST', '/v1/consumer-cases', { email: 'charset@example.com' }, { 'content-type': 'application/json; charset=utf-8' });
    expect(withCharset.status).toBe(201);
  });

  it('a body over the limit is 413', async () => {
    const response = await rest('POST', '/v1/tasks', { title: 'x', description: 'y'.repeat(1_100_000) });
    expect(response.status).toBe(413);
    expect(response.body.statusCode).toBe(413);
  });

  it('an unknown route is 404 and a wrong method 405', async () => {
    const unknown = await rest('GET', '/v1/unknown-things');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ statusCode: 404, message: 'Cannot GET /v1/unknown-things', error: 'Not Found' });
    const root = await rest('GET', '/nothing-here');
    expect(root.status).toBe(404);
    const wrongMethod = await rest('PUT', '/v1/consumer-cases/01a2003f-4ee6-75ce-9a3a-148295411474', { email: 'a@b.co' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toEqual({ statusCode: 405, message: 'Method Not Allowed', error: 'Method Not Allowed' });
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const given = await rest('GET', '/v1/tasks', undefined, { 'x-request-id': 'trace-123' });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const made = await rest('GET', '/v1/tasks', undefined, { 'x-request-id': 'bad id with spaces' });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('unexpected failures', () => {
  const databaseName = `broken_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  const lines: Array<Record<string, unknown>> = [];
  let broken: RunningService;

  beforeAll(async () => {
    // A database whose tenant role lost its privileges: every scoped query fails.
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    const url = new URL(inject('databaseUrl'));
    url.pathname = `/${databaseName}`;
    const sink = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
    broken = await startTestService({ databaseUrl: url.toString(), logger: createLogger('info', sink) });
    const revoke = new pg.Client({ connectionString: url.toString() });
    await revoke.connect();
    await revoke.query('REVOKE SELECT ON consumer_cases FROM compliance_tenant');
    await revoke.end();
  });
  afterAll(async () => {
    await broken.stop();
    await admin.query(`DROP DATABASE ${databaseName} WITH (FORCE)`);
    await admin.end();
  });

  it('answer 500 with a generic message, no stack, and log the cause with the request id', async () => {
    const org = await createOrganization(broken.db);
    const response = await restClient(broken.url, org.key)('GET', '/v1/consumer-cases', undefined, { 'x-request-id': 'req-500' });
    expect(response.status).toBe(500);
    expect(response.body).toStrictEqual({ statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' });
    const graphql = await fetch(`${broken.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': org.key },
      body: JSON.stringify({ query: '{ consumerCases { meta { total } } }' }),
    });
    const payload = await graphql.json();
    expect(graphql.status).toBe(500);
    expect(payload.errors[0]).toMatchObject({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(JSON.stringify(payload)).not.toMatch(/permission denied|stack|at /);
    const logged = lines.find((line) => line.requestId === 'req-500' && line.level === 50);
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toMatch(/permission denied/);
  });
});
