// Rate limits charged by cost: an ordinary request counts one point, an
// expensive one a point per RATE_LIMIT_COST_PER_POINT of its cost, in the
// counters every instance shares, before it runs. Two instances over one
// database; a day-long window keeps the counts from resetting mid-test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { createOrganization, startServicePair } from '../helpers/service.ts';

const LIMITS = { RATE_LIMIT_PER_KEY: '30', RATE_LIMIT_PER_ORGANIZATION: '0', RATE_LIMIT_WINDOW_SECONDS: '86400', RATE_LIMIT_COST_PER_POINT: '100' };
let first: RunningService;
let second: RunningService;

beforeAll(async () => {
  [first, second] = await startServicePair(LIMITS);
});
afterAll(async () => {
  await first?.stop();
  await second?.stop();
});

async function graphql(service: RunningService, key: string, query: string) {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ query }),
  });
  return { status: response.status, remaining: response.headers.get('ratelimit-remaining'), retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

// 100 tasks with up to 10 assignees each: cost 1,100, so 11 points.
const EXPENSIVE = '{ tasks(limit: 100) { items { id assignees { userId } } } }';

describe('rate limits charged by cost', () => {
  it('counts an ordinary request as one point and an expensive one by its cost, across instances, and refuses before running', async () => {
    const org = await createOrganization(first.db, undefined, 'cost-limited');
    const cheap = await graphql(first, org.key, '{ tasks(limit: 5) { items { id } } }');
    expect(cheap).toMatchObject({ status: 200, remaining: '29', body: { extensions: { cost: { requested: 5, rateLimitPoints: 1 } } } });

    const expensive = await graphql(first, org.key, EXPENSIVE);
    expect(expensive).toMatchObject({ status: 200, remaining: '18', body: { extensions: { cost: { requested: 1100, rateLimitPoints: 11 } } } });

    // The other instance sees the same counter.
    expect((await graphql(second, org.key, '{ tasks { meta { total } } }')).remaining).toBe('17');
    expect((await graphql(second, org.key, EXPENSIVE)).remaining).toBe('6');

    // A screening (cost 1,011: 11 points) does not fit in the 6 left: refused before it runs.
    const refused = await graphql(first, org.key, 'mutation { screenName(input: { name: "Over Limit", kind: PERSON }) { id } }');
    expect(refused.status).toBe(429);
    expect(refused.remaining).toBe('0');
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^Too many requests: the API key limit is 30 per 86400 s/), extensions: { code: 'TOO_MANY_REQUESTS' } });
    expect(await first.db.screening.count({ where: { organizationId: org.id } })).toBe(0);
    // The window is spent.
    expect((await graphql(second, org.key, '{ tasks { meta { total } } }')).status).toBe(429);
  });

  it('charges REST routes by the cost of their operation', async () => {
    const org = await createOrganization(first.db, undefined, 'cost-limited-rest');
    const page = await fetch(`${second.url}/v1/tasks?limit=100`, { headers: { 'x-api-key': org.key } });
    expect(page.status).toBe(200);
    expect(page.headers.get('ratelimit-remaining')).toBe('19');
    const small = await fetch(`${first.url}/v1/tasks?limit=5`, { headers: { 'x-api-key': org.key } });
    expect(small.headers.get('ratelimit-remaining')).toBe('18');
  });
});
