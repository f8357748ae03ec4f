import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createKey, createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;
let gql: ReturnType<typeof graphqlClient>;
let businessId: string;
let consumerId: string;
let taskId: string;

beforeAll(async () => {
  service = await startTestService();
  org = await createOrganization(service.db);
  rest = restClient(service.url, org.key);
  gql = graphqlClient(service.url, org.key);
  businessId = (await rest('POST', '/v1/business-cases', { legalName: 'Noted Ltd' })).body.id;
  consumerId = (await rest('POST', '/v1/consumer-cases', { email: 'noted@example.com' })).body.id;
  taskId = (await rest('POST', '/v1/tasks', { title: 'Check the register' })).body.id;
});
afterAll(() => service.stop());

const write = async (body: Record<string, unknown>, client = rest) => {
  const response = await client('POST', '/v1/notes', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
};

describe('POST /v1/notes', () => {
  it('writes a note on a case; the author is the given userId, else the key\'s label', async () => {
    const byUser = await write({ body: 'Register matches the certificate.', businessCaseId: businessId, userId: 'analyst-7' });
    expect(byUser).toEqual({
      id: expect.any(String), body: 'Register matches the certificate.', format: 'PLAIN', bodyHtml: '<p>Register matches the certificate.</p>',
      author: 'analyst-7', pinned: false, businessCaseId: businessId, consumerCaseId: null, taskId: null,
      createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    const labelled = await createKey(service.db, org.id, ['notes:write', 'notes:read'], 'Onboarding bot');
    expect((await write({ body: 'Automated check passed.', taskId }, restClient(service.url, labelled))).author).toBe('Onboarding bot');
  });

  it('never lets a note run as HTML: markup is escaped, Markdown rendered safely', async () => {
    const plain = await write({ body: '<script>alert(1)</script>\nsecond line', consumerCaseId: consumerId });
    expect(plain.body).toBe('<script>alert(1)</script>\nsecond line');
    expect(plain.bodyHtml).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;<br />second line</p>');
    const markdown = await write({
      format: 'MARKDOWN',
      consumerCaseId: consumerId,
      body: '**Passport** checked\n\n- [register](https://register.example/123)\n- [bad](javascript:alert(1))\n\n<img src=x onerror=alert(1)>',
    });
    expect(markdown.bodyHtml).toContain('<strong>Passport</strong> checked');
    expect(markdown.bodyHtml).toContain('<a href="https://register.example/123" rel="noopener noreferrer nofollow" target="_blank">register</a>');
    // The refused link stays as inert text; no element carries script.
    expect(markdown.bodyHtml).not.toMatch(/href="javascript|<img|<script/i);
    expect(markdown.bodyHtml).toContain('[bad](javascript:alert(1))');
    expect(markdown.bodyHtml).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it.each([
    [{ body: 'x' }, 'give exactly one of businessCaseId, consumerCaseId, taskId'],
    [{ body: 'x', businessCaseId: 'B', taskId: 'T' }, 'give exactly one of businessCaseId, consumerCaseId, taskId'],
    [{ body: '   ', taskId: 'T' }, 'body: must not be empty'],
    [{ body: 'x'.repeat(20_001), taskId: 'T' }, 'body: must be at most 20000 characters'],
    [{ body: 'x', taskId: 'T', format: 'HTML' }, 'format: must be one of MARKDOWN, PLAIN'],
    [{ body: 'x', taskId: 'T', userId: 'has spaces' }, 'userId: may contain only letters, digits and . _ @ : + -'],
    [{ body: 'x', taskId: 'T', author: 'me' }, 'author: is not a known field'],
  ])('refuses %j with 400: %s', async (input, message) => {
    const body = JSON.parse(JSON.stringify(input).replace('"B"', JSON.stringify(businessId)).replace('"T"', JSON.stringify(taskId)));
    const before = (await rest('GET', '/v1/notes?limit=1')).body.meta.total;
    const response = await rest('POST', '/v1/notes', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    const graph = await gql('mutation ($input: CreateNoteInput!) { createNote(input: $input) { id } }', { input: body });
    expect(graph.errors?.map((e) => e.message)).toEqual([message]);
    expect((await rest('GET', '/v1/notes?limit=1')).body.meta.total).toBe(before);
  });

  it('answers 404 for a record that is not the organization\'s', async () => {
    const other = await createOrganization(service.db);
    const theirs = (await restClient(service.url, other.key)('POST', '/v1/business-cases', { legalName: 'Theirs' })).body.id;
    const response = await rest('POST', '/v1/notes', { body: 'x', businessCaseId: theirs });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(`Business case ${theirs} not found`);
  });
});

describe('GET /v1/notes, PATCH and DELETE', () => {
  let scoped: ReturnType<typeof restClient>;
  let ids: Record<string, string>;
  beforeAll(async () => {
    const fresh = await createOrganization(service.db);
    scoped = restClient(service.url, fresh.key);
    const business = (await scoped('POST', '/v1/business-cases', { legalName: 'Listed Ltd' })).body.id;
    const task = (await scoped('POST', '/v1/tasks', { title: 'Follow up' })).body.id;
    ids = { business, task };
    for (const [body, target] of [['Director identity verified', { businessCaseId: business }], ['Awaiting shareholder register', { businessCaseId: business }], ['Called the director', { taskId: task }]] as const) {
      ids[body] = (await write({ body, ...target }, scoped)).id;
    }
    await scoped('PATCH', `/v1/notes/${ids['Director identity verified']}`, { pinned: true });
  });
  const bodies = async (query: string) => (await scoped('GET', `/v1/notes${query}`)).body.items.map((n: { body: string }) => n.body);

  it('lists pinned first, then newest; filters by attachment, pin and search', async () => {
    expect(await bodies('')).toEqual(['Director identity verified', 'Called the director', 'Awaiting shareholder register']);
    expect(await bodies(`?businessCaseId=${ids.business}`)).toEqual(['Director identity verified', 'Awaiting shareholder register']);
    expect(await bodies(`?taskId=${ids.task}`)).toEqual(['Called the director']);
    expect(await bodies('?pinned=false')).toEqual(['Called the director', 'Awaiting shareholder register']);
    expect(await bodies('?search=DIRECTOR')).toEqual(['Director identity verified', 'Called the director']);
    expect(await bodies('?search=director%20called')).toEqual(['Called the director']);
  });

  it('updates body, format and pin; a note stays on its record', async () => {
    const id = ids['Awaiting shareholder register']!;
    const updated = await scoped('PATCH', `/v1/notes/${id}`, { body: '# Register received', format: 'MARKDOWN' });
    expect(updated.body).toMatchObject({ body: '# Register received', format: 'MARKDOWN', bodyHtml: '<h1>Register received</h1>\n', businessCaseId: ids.business });
    expect((await scoped('PATCH', `/v1/notes/${id}`, { taskId: ids.task })).body.message).toBe('taskId: is not a known field');
    expect((await scoped('PATCH', `/v1/notes/${id}`, {})).body.message).toBe('give at least one of body, format, pinned');
    expect((await scoped('PATCH', `/v1/notes/${id}`, { body: null })).body.message).toBe('body: must not be null');
  });

  it('deletes a note; the note goes with its case', async () => {
    const id = ids['Called the director']!;
    expect((await scoped('DELETE', `/v1/notes/${id}`)).body.body).toBe('Called the director');
    expect((await scoped('GET', `/v1/notes/${id}`)).status).toBe(404);
    await scoped('DELETE', `/v1/business-cases/${ids.business}`);
    expect(await bodies('')).toEqual([]);
  });
});

describe('GraphQL relations', () => {
  it('shows notes from each case and task, and needs notes:read for them', async () => {
    const result = await gql(
      `query ($b: ID!, $c: ID!, $t: ID!) {
        businessCase(id: $b) { notes(first: 5) { totalCount edges { node { author body } } } }
        consumerCase(id: $c) { notes(first: 5) { totalCount } }
        task(id: $t) { notes(first: 5) { edges { node { author } } } }
      }`,
      { b: businessId, c: consumerId, t: taskId },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.businessCase.notes).toEqual({ totalCount: 1, edges: [{ node: { author: 'analyst-7', body: 'Register matches the certificate.' } }] });
    expect(result.data.consumerCase.notes.totalCount).toBe(2);
    expect(result.data.task.notes.edges).toEqual([{ node: { author: 'Onboarding bot' } }]);
    const limited = await createKey(service.db, org.id, ['business_cases:read']);
    const denied = await graphqlClient(service.url, limited)('query ($b: ID!) { businessCase(id: $b) { legalName notes(first: 1) { totalCount } } }', { b: businessId });
    expect(denied.errors?.[0]?.message).toMatch(/notes:read/);
  });
});

describe('bounded rendering (round 3, N1)', () => {
  // 100 header columns over 9,799 one-cell rows: Markdown pads each row to 100 cells (730 KB of HTML, ~300 ms per read).
  const paddedTable = `${'|a'.repeat(100)}\n${'|-'.repeat(100)}\n${'|\n'.repeat(9799)}`;
  const cellLimit = 'body: its tables would have 980000 cells or more, counting the cells Markdown pads short rows with; the limit is 2000';

  it('refuses at write a Markdown body whose table would pad past the cell limit, and stores nothing', async () => {
    const before = (await rest('GET', '/v1/notes?limit=1')).body.meta.total;
    const response = await rest('POST', '/v1/notes', { body: paddedTable, format: 'MARKDOWN', taskId });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message: cellLimit, error: 'Bad Request' });
    const graph = await gql('mutation ($input: CreateNoteInput!) { createNote(input: $input) { id } }', { input: { body: paddedTable, format: 'MARKDOWN', taskId } });
    expect(graph.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([[cellLimit, 'BAD_USER_INPUT']]);
    expect((await rest('GET', '/v1/notes?limit=1')).body.meta.total).toBe(before);
  });

  it('refuses turning a stored body into such Markdown, and leaves the note as it was', async () => {
    const plain = await write({ body: paddedTable, taskId });
    expect(plain.bodyHtml).not.toContain('<table');
    const response = await rest('PATCH', `/v1/notes/${plain.id}`, { format: 'MARKDOWN' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message: cellLimit, error: 'Bad Request' });
    expect((await rest('GET', `/v1/notes/${plain.id}`)).body).toMatchObject({ format: 'PLAIN', bodyHtml: plain.bodyHtml });
  });

  it('renders once at write and stores the HTML; pinning keeps it', async () => {
    const note = await write({ body: '| a | b |\n|---|---|\n| 1 |', format: 'MARKDOWN', taskId });
    expect(note.bodyHtml).toContain('<td>1</td>\n<td></td>');
    const stored = () => service.db.note.findUniqueOrThrow({ where: { id: note.id }, select: { bodyHtml: true } });
    expect((await stored()).bodyHtml).toBe(note.bodyHtml);
    const pinned = await rest('PATCH', `/v1/notes/${note.id}`, { pinned: true });
    expect(pinned.body).toMatchObject({ pinned: true, bodyHtml: note.bodyHtml });
    const edited = await rest('PATCH', `/v1/notes/${note.id}`, { body: '**edited**' });
    expect(edited.body.bodyHtml).toBe('<p><strong>edited</strong></p>\n');
    expect((await stored()).bodyHtml).toBe('<p><strong>edited</strong></p>\n');
  });

  it('shows a note stored before HTML was, whose Markdown passes the bounds, as plain text', async () => {
    const legacy = await service.db.note.create({
      data: { organizationId: org.id, taskId, author: 'legacy', format: 'MARKDOWN', body: paddedTable, bodyHtml: null },
    });
    const read = await rest('GET', `/v1/notes/${legacy.id}`);
    expect(read.status).toBe(200);
    expect(read.body.bodyHtml.startsWith('<p>|a|a|a')).toBe(true);
    expect(read.body.bodyHtml).not.toContain('<table');
    const listed = await gql('{ notes(limit: 100) { items { id bodyHtml } } }');
    expect(listed.errors).toBeUndefined();
    expect(listed.data.notes.items.find((n: { id: string }) => n.id === legacy.id).bodyHtml).toBe(read.body.bodyHtml);
  });
});
