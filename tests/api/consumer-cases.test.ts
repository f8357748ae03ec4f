import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';

let service: RunningService;
let rest: ReturnType<typeof restClient>;
let gql: ReturnType<typeof graphqlClient>;

beforeAll(async () => {
  service = await startTestService();
  const org = await createOrganization(service.db);
  rest = restClient(service.url, org.key);
  gql = graphqlClient(service.url, org.key);
});
afterAll(() => service.stop());

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function createCase(body: Record<string, unknown>) {
  const response = await rest('POST', '/v1/consumer-cases', body);
  expect(response.status).toBe(201);
  return response.body;
}

describe('POST /v1/consumer-cases', () => {
  it('creates a case with all fields, normalised, in status PENDING', async () => {
    const response = await rest('POST', '/v1/consumer-cases', {
      email: 'Ada.Lovelace@Example.com', firstName: 'Ada', lastName: 'Lovelace',
      phoneNumber: '+44 20 7946 0958', dateOfBirth: '1985-12-10', nationality: 'gb',
      address: { line1: ' 12 St James Square ', city: 'London', postalCode: 'SW1Y 4JH', country: 'gb' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'ada.lovelace@example.com', firstName: 'Ada', lastName: 'Lovelace',
      phoneNumber: '+442079460958', dateOfBirth: '1985-12-10', nationality: 'GB',
      address: { line1: '12 St James Square', line2: null, city: 'London', region: null, postalCode: 'SW1Y 4JH', country: 'GB' },
      status: 'PENDING', createdAt: expect.stringMatching(ISO_INSTANT), updatedAt: expect.stringMatching(ISO_INSTANT),
    });
    const fetched = await rest('GET', `/v1/consumer-cases/${response.body.id}`);
    expect(fetched.body).toEqual(response.body);
  });

  it('checks the address and clears it with null', async () => {
    const created = await createCase({ email: 'address@example.com' });
    const path = `/v1/consumer-cases/${created.id}`;
    const invalid = [
      [{ line1: '1 Main St', country: 'DE' }, 'address.city: is required'],
      [{ line1: '1 Main St', city: 'Berlin', country: 'DE', planet: 'Mars' }, 'address.planet: is not a known field (did you mean "line1" or "line2"?)'],
      [{ line1: ' ', city: 'Berlin', country: 'XX' }, 'address.line1: must not be empty; address.country: must be an ISO 3166-1 alpha-2 country code, e.g. DE'],
    ] as const;
    for (const [address, message] of invalid) {
      const response = await rest('PATCH', path, { address });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
    }
    expect((await rest('GET', path)).body.address).toBeNull();
    const set = await rest('PATCH', path, { address: { line1: '1 Main St', city: 'Springfield', region: 'IL', country: 'us' } });
    expect(set.body.address).toEqual({ line1: '1 Main St', line2: null, city: 'Springfield', region: 'IL', postalCode: null, country: 'US' });
    expect((await rest('PATCH', path, { address: null })).body.address).toBeNull();
  });

  it('needs only an email', async () => {
    const created = await createCase({ email: 'only@example.com' });
    expect(created).toMatchObject({ email: 'only@example.com', firstName: null, dateOfBirth: null, status: 'PENDING' });
  });

  it.each([
    [{}, 'email: is required'],
    [{ email: 'not-an-email' }, 'email: must be a valid email address'],
    [{ email: 42 }, 'email: must be a string'],
    [{ email: 'a@b.co', dateOfBirth: '1990-02-30' }, 'dateOfBirth: must be a real calendar date in YYYY-MM-DD format'],
    [{ email: 'a@b.co', dateOfBirth: '12/31/1990' }, 'dateOfBirth: must be a real calendar date in YYYY-MM-DD format'],
    [{ email: 'a@b.co', dateOfBirth: '2999-01-01' }, 'dateOfBirth: must not be in the future'],
    [{ email: 'a@b.co', dateOfBirth: '1815-12-10' }, 'dateOfBirth: must not be before 1900-01-01'],
    [{ email: 'a@b.co', nationality: 'XX' }, 'nationality: must be an ISO 3166-1 alpha-2 country code, e.g. DE'],
    [{ email: 'a@b.co', nationality: 'DEU' }, 'nationality: must be an ISO 3166-1 alpha-2 country code, e.g. DE'],
    [{ email: 'a@b.co', phoneNumber: '0201234567' }, 'phoneNumber: must be a valid phone number in international format, e.g. +14155550123'],
    [{ email: 'a@b.co', phoneNumber: '+1 555' }, 'phoneNumber: must be a valid phone number in international format, e.g. +14155550123'],
    [{ email: 'a@b.co', firstName: '' }, 'firstName: must not be empty'],
    [{ email: 'a@b.co', lastName: 'x'.repeat(101) }, 'lastName: must be at most 100 characters'],
    [{ email: 'a@b.co', status: 'VERIFIED' }, 'status: is not a known field'],
    [{ email: 'a@b.co', colour: 'red' }, 'colour: is not a known field'],
  ])('refuses %j with 400: %s', async (body, message) => {
    const before = await rest('GET', '/v1/consumer-cases?limit=1');
    const response = await rest('POST', '/v1/consumer-cases', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    const after = await rest('GET', '/v1/consumer-cases?limit=1');
    expect(after.body.meta.total).toBe(before.body.meta.total);
  });

  it('reports every invalid field at once', async () => {
    const response = await rest('POST', '/v1/consumer-cases', { email: 'x', nationality: 'XX', phoneNumber: '1' });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(
      'email: must be a valid email address; phoneNumber: must be a valid phone number in international format, e.g. +14155550123; nationality: must be an ISO 3166-1 alpha-2 country code, e.g. DE',
    );
  });
});

describe('GET /v1/consumer-cases', () => {
  let ids: string[];
  beforeAll(async () => {
    const org = await createOrganization(service.db);
    rest = restClient(service.url, org.key);
    gql = graphqlClient(service.url, org.key);
    ids = [];
    const people = [
      ['grace@navy.mil', 'Grace', 'Hopper'], ['alan@bletchley.uk', 'Alan', 'Turing'], ['ada@analytical.uk', 'Ada', 'Lovelace'],
      ['edsger@tue.nl', 'Edsger', 'Dijkstra'], ['barbara@mit.edu', 'Barbara', 'Liskov'], ['donald@stanford.edu', 'Donald', 'Knuth'],
      ['ken@bell-labs.com', 'Ken', 'Thompson'], ['dennis@bell-labs.com', 'Dennis', 'Ritchie'], ['margaret@nasa.gov', 'Margaret', 'Hamilton'],
      ['john@princeton.edu', 'John', 'von Neumann'], ['tim@cern.ch', 'Tim', 'Berners-Lee'], ['linus@helsinki.fi', 'Linus', 'Torvalds'],
    ];
    for (const [email, firstName, lastName] of people) ids.push((await createCase({ email, firstName, lastName })).id);
    await rest('PATCH', `/v1/consumer-cases/${ids[0]}`, { status: 'ACTIVE' });
    await rest('PATCH', `/v1/consumer-cases/${ids[1]}`, { status: 'IN_REVIEW' });
    await rest('PATCH', `/v1/consumer-cases/${ids[2]}`, { status: 'IN_REVIEW' });
  });

  it('lists newest first with default page 1 and limit 10', async () => {
    const response = await rest('GET', '/v1/consumer-cases');
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.meta).toEqual({ total: 12, page: 1, limit: 10, totalPages: 2 });
    expect(response.body.items.map((c: { id: string }) => c.id)).toEqual([...ids].reverse().slice(0, 10));
  });

  it('pages: the last page is partial, past the end is empty', async () => {
    const second = await rest('GET', '/v1/consumer-cases?page=2&limit=10');
    expect(second.body.items.map((c: { id: string }) => c.id)).toEqual([ids[1], ids[0]]);
    expect(second.body.meta).toEqual({ total: 12, page: 2, limit: 10, totalPages: 2 });
    const beyond = await rest('GET', '/v1/consumer-cases?page=3&limit=10');
    expect(beyond.body).toEqual({ success: true, items: [], meta: { total: 12, page: 3, limit: 10, totalPages: 2 } });
    const exact = await rest('GET', '/v1/consumer-cases?limit=12');
    expect(exact.body.meta.totalPages).toBe(1);
    expect((await rest('GET', '/v1/consumer-cases?limit=100')).body.items).toHaveLength(12);
    expect((await rest('GET', '/v1/consumer-cases?limit=1')).body.meta.totalPages).toBe(12);
  });

  it.each([
    ['limit=101', 'limit: must be at most 100'],
    ['limit=0', 'limit: must be at least 1'],
    ['limit=-5', 'limit: must be at least 1'],
    ['limit=abc', 'limit: must be an integer'],
    ['limit=1.5', 'limit: must be an integer'],
    ['page=0', 'page: must be at least 1'],
    ['page=x', 'page: must be an integer'],
    ['page=1&page=2', 'page: must be given once'],
    ['status=DONE', 'status: must be one of ACTIVE, ARCHIVED, INVITED, IN_REVIEW, PENDING, REJECTED, VERIFIED'],
    ['sort=name', 'Unknown query parameter: sort'],
  ])('refuses ?%s with 400', async (query, message) => {
    const response = await rest('GET', `/v1/consumer-cases?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });

  it('filters by status', async () => {
    const response = await rest('GET', '/v1/consumer-cases?status=IN_REVIEW');
    expect(response.body.items.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(response.body.meta.total).toBe(2);
  });

  it('searches names and email, case-insensitively, every word must match', async () => {
    const names = async (search: string) =>
      (await rest('GET', `/v1/consumer-cases?search=${encodeURIComponent(search)}`)).body.items.map((c: { lastName: string }) => c.lastName).sort();
    expect(await names('lovelace')).toEqual(['Lovelace']);
    expect(await names('BELL-LABS')).toEqual(['Ritchie', 'Thompson']);
    expect(await names('ken thompson')).toEqual(['Thompson']);
    expect(await names('ken ritchie')).toEqual([]);
    expect(await names('neumann john')).toEqual(['von Neumann']);
    expect(await names('100%')).toEqual([]);
    expect(await names('a_a')).toEqual([]);
    expect(await names('bell_labs')).toEqual([]);
    expect(await names('%')).toEqual([]);
  });

  it('combines search, status and pagination', async () => {
    const response = await rest('GET', '/v1/consumer-cases?search=uk&status=IN_REVIEW&limit=1&page=2');
    expect(response.body.meta).toEqual({ total: 2, page: 2, limit: 1, totalPages: 2 });
    expect(response.body.items[0].id).toBe(ids[1]);
  });

  it('offers the same list over GraphQL', async () => {
    const result = await gql(`query ($s: String) { consumerCases(search: $s, status: IN_REVIEW, limit: 1) { items { id } meta { total page limit totalPages } } }`, { s: 'uk' });
    expect(result.status).toBe(200);
    expect(result.data.consumerCases).toEqual({ items: [{ id: ids[2] }], meta: { total: 2, page: 1, limit: 1, totalPages: 2 } });
    const bad = await gql('{ consumerCases(limit: 101) { meta { total } } }');
    expect(bad.status).toBe(400);
    expect(bad.errors?.[0]).toMatchObject({ message: 'limit: must be at most 100', extensions: { code: 'BAD_USER_INPUT' } });
  });
});

describe('GET, PATCH and DELETE /v1/consumer-cases/{id}', () => {
  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['01a2003f-4ee6-75ce-9a3a-148295411474', 'not-a-uuid']) {
      for (const [method, body] of [['GET'], ['PATCH', { firstName: 'X' }], ['DELETE']] as const) {
        const response = await rest(method, `/v1/consumer-cases/${id}`, body);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ statusCode: 404, message: `Consumer case ${id} not found`, error: 'Not Found' });
      }
    }
  });

  it('updates any subset of fields and keeps the rest', async () => {
    const created = await createCase({ email: 'patch@example.com', firstName: 'Pat', nationality: 'FR' });
    const patched = await rest('PATCH', `/v1/consumer-cases/${created.id}`, { lastName: 'Smith', phoneNumber: '+33 1 23 45 67 89' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ email: 'patch@example.com', firstName: 'Pat', lastName: 'Smith', nationality: 'FR', phoneNumber: '+33123456789' });
    expect(Date.parse(patched.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const cleared = await rest('PATCH', `/v1/consumer-cases/${created.id}`, { nationality: null });
    expect(cleared.body.nationality).toBeNull();
    const emptyPatch = await rest('PATCH', `/v1/consumer-cases/${created.id}`, {});
    expect(emptyPatch.status).toBe(200);
  });

  it('validates patched fields like created ones and changes nothing on error', async () => {
    const created = await createCase({ email: 'valid@example.com' });
    for (const [body, message] of [
      [{ email: null }, 'email: must not be null'],
      [{ email: 'nope' }, 'email: must be a valid email address'],
      [{ status: null }, 'status: must not be null'],
      [{ dateOfBirth: '2001-02-29' }, 'dateOfBirth: must be a real calendar date in YYYY-MM-DD format'],
      [{ firstName: 'Ok', nationality: 'ZZ' }, 'nationality: must be an ISO 3166-1 alpha-2 country code, e.g. DE'],
    ] as const) {
      const response = await rest('PATCH', `/v1/consumer-cases/${created.id}`, body);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
    }
    expect((await rest('GET', `/v1/consumer-cases/${created.id}`)).body).toEqual(created);
  });

  it('enforces the status lifecycle and names the allowed moves', async () => {
    const created = await createCase({ email: 'life@example.com' });
    const path = `/v1/consumer-cases/${created.id}`;
    const refused = await rest('PATCH', path, { status: 'VERIFIED' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('status: cannot change from PENDING to VERIFIED; allowed from PENDING: INVITED, ACTIVE, IN_REVIEW, REJECTED, ARCHIVED');
    const unknown = await rest('PATCH', path, { status: 'APPROVED' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('status: must be one of ACTIVE, ARCHIVED, INVITED, IN_REVIEW, PENDING, REJECTED, VERIFIED');
    for (const status of ['ACTIVE', 'IN_REVIEW', 'VERIFIED', 'IN_REVIEW', 'REJECTED', 'ARCHIVED']) {
      const moved = await rest('PATCH', path, { status });
      expect(moved.status).toBe(200);
      expect(moved.body.status).toBe(status);
    }
    const final = await rest('PATCH', path, { status: 'ACTIVE' });
    expect(final.body.message).toBe('status: cannot change from ARCHIVED to ACTIVE; allowed from ARCHIVED: none (final state)');
    expect((await rest('GET', path)).body.status).toBe('ARCHIVED');
  });

  it('deletes and returns the deleted case; it is gone afterwards', async () => {
    const created = await createCase({ email: 'gone@example.com' });
    const deleted = await rest('DELETE', `/v1/consumer-cases/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(created);
    expect((await rest('GET', `/v1/consumer-cases/${created.id}`)).status).toBe(404);
    expect((await rest('DELETE', `/v1/consumer-cases/${created.id}`)).status).toBe(404);
  });
});

describe('GraphQL consumer case operations', () => {
  it('creates, reads, updates and deletes with the same rules', async () => {
    const created = await gql('mutation ($input: CreateConsumerCaseInput!) { createConsumerCase(input: $input) { id email status dateOfBirth } }', {
      input: { email: 'GQL@example.com', dateOfBirth: '1990-01-31' },
    });
    expect(created.status).toBe(200);
    const { id } = created.data.createConsumerCase;
    expect(created.data.createConsumerCase).toEqual({ id, email: 'gql@example.com', status: 'PENDING', dateOfBirth: '1990-01-31' });
    const read = await gql('query ($id: ID!) { consumerCase(id: $id) { id email } }', { id });
    expect(read.data.consumerCase).toEqual({ id, email: 'gql@example.com' });
    const invalid = await gql('mutation ($id: ID!) { updateConsumerCase(id: $id, input: {status: VERIFIED}) { id } }', { id });
    expect(invalid.status).toBe(400);
    expect(invalid.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const updated = await gql('mutation ($id: ID!) { updateConsumerCase(id: $id, input: {status: ACTIVE, firstName: "G"}) { status firstName } }', { id });
    expect(updated.data.updateConsumerCase).toEqual({ status: 'ACTIVE', firstName: 'G' });
    const deleted = await gql('mutation ($id: ID!) { deleteConsumerCase(id: $id) { id } }', { id });
    expect(deleted.data.deleteConsumerCase).toEqual({ id });
    const missing = await gql('query ($id: ID!) { consumerCase(id: $id) { id } }', { id });
    expect(missing.status).toBe(404);
    expect(missing.errors?.[0]).toMatchObject({ message: `Consumer case ${id} not found`, extensions: { code: 'NOT_FOUND' } });
  });

  it('validates GraphQL input with the same messages', async () => {
    const result = await gql('mutation { createConsumerCase(input: {email: "x", nationality: "XX"}) { id } }');
    expect(result.status).toBe(400);
    expect(result.errors?.[0]?.message).toBe('email: must be a valid email address; nationality: must be an ISO 3166-1 alpha-2 country code, e.g. DE');
    const literal = await gql('mutation { createConsumerCase(input: {email: "a@b.co", dateOfBirth: "1990-02-30"}) { id } }');
    expect(literal.status).toBe(400);
  });
});
