// An analysis' output is bounded (words per page and per document, characters
// of text per document, 422 naming the setting), and reading an analysis loads its result only when the query
// selects something made from it.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { textPdf } from '../helpers/sample-files.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { selectsOn } from '../helpers/sql-spy.ts';

let service: RunningService;
let org: TestOrganization;

beforeAll(async () => {
  service = await startTestService({ env: { ANALYSIS_MAX_WORDS_PER_PAGE: '5', ANALYSIS_MAX_WORDS: '8', ANALYSIS_MAX_TEXT_CHARS: '40' } });
  org = await createOrganization(service.db, undefined, 'analysis-output');
}, 120_000);
afterAll(() => service?.stop());

async function upload(pages: string[][]): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await textPdf(pages))]), 'words.pdf');
  const file = await fetch(`${service.url}/v1/files/upload/private`, { method: 'POST', headers: { 'x-api-key': org.key }, body: form }).then((response) => response.json());
  return file.fileKey;
}

const parse = async (fileKey: string) => restClient(service.url, org.key)('GET', `/v1/document-analysis/parse/${encodeURIComponent(fileKey)}`);

describe('analysis output limits', () => {
  it('analyses a document within them', async () => {
    const parsed = await parse(await upload([['one two three four five'], ['six seven eight']]));
    expect(parsed.status).toBe(200);
    expect(parsed.body.data.textContent).toContain('eight');
  }, 60_000);

  it('refuses a page over the words-per-page limit with 422 naming it, and records the failure', async () => {
    const parsed = await parse(await upload([['one two three four five six']]));
    expect(parsed.body).toEqual({
      statusCode: 422, error: 'Unprocessable Entity',
      message: 'file: page 1 has 6 words; the limit is 5 words per page (ANALYSIS_MAX_WORDS_PER_PAGE)',
    });
    const failed = await service.db.documentAnalysis.findFirstOrThrow({ where: { organizationId: org.id }, orderBy: { createdAt: 'desc' } });
    expect(failed).toMatchObject({ status: 'FAILED', result: null, error: expect.stringContaining('ANALYSIS_MAX_WORDS_PER_PAGE') });
  }, 60_000);

  it('refuses a document over the words-per-document limit with 422 naming it', async () => {
    const parsed = await parse(await upload([['one two three four five'], ['six seven eight nine']]));
    expect(parsed.status).toBe(422);
    expect(parsed.body.message).toBe('file: the document has more than 8 words; the limit is 8 words per document (ANALYSIS_MAX_WORDS)');
  }, 60_000);

  it('refuses a document of few but long words over the characters limit with 422 naming it', async () => {
    // Within the word limits (1,000-character words made 102 MB of blocks from a 90 KB PDF).
    const parsed = await parse(await upload([['abcdefghijklmnopqrstuvwxyz'], ['abcdefghijklmnopqrstuvwxyz']]));
    expect(parsed.body).toEqual({
      statusCode: 422, error: 'Unprocessable Entity',
      message: 'file: the text of the document reaches 52 characters by page 2; the limit is 40 characters per document (ANALYSIS_MAX_TEXT_CHARS)',
    });
  }, 60_000);
});

describe('reading an analysis', () => {
  it('loads its result only when something made from it is selected', async () => {
    await parse(await upload([['lazy columns']]));
    const { id } = await service.db.documentAnalysis.findFirstOrThrow({ where: { organizationId: org.id, status: 'SUCCEEDED' }, orderBy: { createdAt: 'desc' } });
    const gql = graphqlClient(service.url, org.key);
    const statusOnly = await selectsOn('document_analyses', async () => {
      const answer = await gql('query ($id: ID!) { documentAnalysis(jobId: $id) { status blockCount } }', { id });
      expect(answer.data.documentAnalysis).toEqual({ status: 'SUCCEEDED', blockCount: expect.any(Number) });
    });
    expect(statusOnly.length).toBeGreaterThan(0);
    for (const text of statusOnly) expect(text).not.toMatch(/"result"|"text_content"/);
    const withBlocks = await selectsOn('document_analyses', () => gql('query ($id: ID!) { documentAnalysis(jobId: $id) { blocks } }', { id }));
    expect(withBlocks.some((text) => /"result"/.test(text))).toBe(true);
  }, 60_000);

  it('reads its tables and forms without its blocks', async () => {
    const { id } = await service.db.documentAnalysis.findFirstOrThrow({ where: { organizationId: org.id, status: 'SUCCEEDED' }, orderBy: { createdAt: 'desc' } });
    const gql = graphqlClient(service.url, org.key);
    const views = await selectsOn('document_analyses', async () => {
      const answer = await gql('query ($id: ID!) { documentAnalysis(jobId: $id) { tables { page rows } forms { key value } idType mrz { valid } } }', { id });
      expect(answer.errors).toBeUndefined();
      expect(answer.data.documentAnalysis).toEqual({ tables: [], forms: [], idType: null, mrz: null });
    });
    expect(views.length).toBeGreaterThan(0);
    for (const text of views) expect(text).not.toMatch(/"result"/);
  }, 60_000);

  it('analyses written before their views were stored get them from their result, without audit records', async () => {
    const { id } = await service.db.documentAnalysis.findFirstOrThrow({ where: { organizationId: org.id, status: 'SUCCEEDED' }, orderBy: { createdAt: 'desc' } });
    await service.db.$executeRaw`UPDATE document_analyses SET views = NULL WHERE id = ${id}::uuid`;
    const audited = () => service.db.auditEvent.count({ where: { resourceId: id } });
    const before = await audited();
    const migration = readFileSync('prisma/migrations/20261203110000_analysis_views/migration.sql', 'utf8');
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    await client.query(migration.slice(migration.indexOf('ALTER TABLE "document_analyses" DISABLE'))).finally(() => client.end());
    const analysis = await service.db.documentAnalysis.findUniqueOrThrow({ where: { id } });
    const { blocks: _blocks, ...rest } = analysis.result as Record<string, unknown>;
    expect(analysis.views).toEqual(rest);
    expect(analysis.views).toMatchObject({ tables: [], forms: [] });
    expect(await audited()).toBe(before);
  }, 60_000);

  it('charges blocks as the megabytes they can be: four fit the cost limit, five are refused before anything runs', async () => {
    const { id } = await service.db.documentAnalysis.findFirstOrThrow({ where: { organizationId: org.id, status: 'SUCCEEDED' } });
    const aliased = (count: number) => `query ($id: ID!) { ${Array.from({ length: count }, (_, i) => `a${i}: documentAnalysis(jobId: $id) { blocks }`).join(' ')} }`;
    const gql = graphqlClient(service.url, org.key);
    const four = await gql(aliased(4), { id });
    expect(four.errors).toBeUndefined();
    expect(four.data.a3.blocks.length).toBeGreaterThan(0);
    const five = await gql(aliased(5), { id });
    expect(five.status).toBe(400);
    expect(five.errors?.[0]?.message).toBe('Query too large: estimated cost 10005 exceeds the limit of 10000 (GRAPHQL_MAX_COST); see docs/api-limits.md');
  }, 60_000);

  it('charges its text, tables and forms as the text they can hold, not as free value objects', async () => {
    const { id } = await service.db.documentAnalysis.findFirstOrThrow({ where: { organizationId: org.id, status: 'SUCCEEDED' } });
    const gql = graphqlClient(service.url, org.key);
    const cost = async (selection: string) => {
      const answer = (await gql(`query ($id: ID!) { documentAnalysis(jobId: $id) { ${selection} } }`, { id })) as { errors?: unknown; extensions?: { cost?: { requested: number } } };
      expect(answer.errors).toBeUndefined();
      return answer.extensions?.cost?.requested;
    };
    // The record costs 1; each of its text's shapes 500 (ANALYSIS_TEXT in src/schema/cost.ts).
    expect(await cost('status')).toBe(1);
    expect(await cost('tables { page rows mergedCells { rowSpan } }')).toBe(501);
    expect(await cost('forms { key value }')).toBe(501);
    expect(await cost('textContent')).toBe(501);
    const aliased = `query ($id: ID!) { ${Array.from({ length: 20 }, (_, i) => `a${i}: documentAnalysis(jobId: $id) { tables { rows } }`).join(' ')} }`;
    const twenty = await gql(aliased, { id });
    expect(twenty.status).toBe(400);
    expect(twenty.errors?.[0]?.message).toBe('Query too large: estimated cost 10020 exceeds the limit of 10000 (GRAPHQL_MAX_COST); see docs/api-limits.md');
  }, 60_000);
});
