// Large answers count rate-limit points by their size (src/http/answer-charge.ts):
// one more point per RATE_LIMIT_BYTES_PER_POINT bytes, REST and GraphQL alike,
// seen by the client's next request. A day-long window keeps counts still.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;
const BYTES_PER_POINT = 10_000;

beforeAll(async () => {
  service = await startTestService({
    env: { RATE_LIMIT_PER_KEY: '100', RATE_LIMIT_PER_ORGANIZATION: '0', RATE_LIMIT_WINDOW_SECONDS: '86400', RATE_LIMIT_BYTES_PER_POINT: String(BYTES_PER_POINT) },
  });
  org = await createOrganization(service.db, undefined, 'answer-bytes');
  const task = await service.db.task.create({ data: { organizationId: org.id, title: 'Long notes' } });
  // Ten notes of 3,000 characters: body and HTML make an answer of about 60 KB.
  await service.db.note.createMany({
    data: Array.from({ length: 10 }, (_, n) => ({ organizationId: org.id, taskId: task.id, body: `${n} ${'x'.repeat(3000)}`, author: 'test' })),
  });
}, 60_000);
afterAll(() => service?.stop());

const get = async (path: string) => {
  const response = await fetch(`${service.url}${path}`, { headers: { 'x-api-key': org.key } });
  return { status: response.status, remaining: Number(response.headers.get('ratelimit-remaining')), bytes: (await response.arrayBuffer()).byteLength };
};

describe('answers charged by their size', () => {
  it('counts a point per RATE_LIMIT_BYTES_PER_POINT bytes of a REST answer, and none for a small one', async () => {
    const small = await get('/v1/tasks?limit=1');
    const next = await get('/v1/tasks?limit=1');
    expect(small.bytes).toBeLessThan(BYTES_PER_POINT);
    expect(next.remaining).toBe(small.remaining - 1);

    const large = await get('/v1/notes?limit=10');
    expect(large.status).toBe(200);
    expect(large.bytes).toBeGreaterThan(3 * BYTES_PER_POINT);
    const after = await get('/v1/tasks?limit=1');
    // The large answer's own point, then its size's, then this request's.
    expect(after.remaining).toBe(large.remaining - Math.floor(large.bytes / BYTES_PER_POINT) - 1);
  });

  it('counts GraphQL answers the same way', async () => {
    const before = await get('/v1/tasks?limit=1');
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST', headers: { 'x-api-key': org.key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ notes(limit: 10) { items { body bodyHtml } } }' }),
    });
    const bytes = (await response.arrayBuffer()).byteLength;
    expect(response.status).toBe(200);
    const after = await get('/v1/tasks?limit=1');
    expect(after.remaining).toBe(before.remaining - 1 - Math.floor(bytes / BYTES_PER_POINT) - 1);
  });
});
