// The textract engine fed real AWS Textract responses (recorded by AWS's own
// sample projects, see tests/fixtures/textract/recorded/SOURCES.md) at the
// SDK client boundary: no AWS here, but the shapes are Textract's, not ours.
import { readFileSync } from 'node:fs';
import { AnalyzeDocumentCommand, AnalyzeIDCommand, GetDocumentAnalysisCommand, StartDocumentAnalysisCommand, TextractClient } from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../src/analysis/blocks.ts';
import { textractEngine } from '../../src/analysis/engines/textract.ts';
import { deriveViews } from '../../src/analysis/views.ts';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { png, textPdf } from '../helpers/sample-files.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { formWith, upload } from '../helpers/uploads.ts';

/** A recorded response body as the JS SDK returns it (boto3's ResponseMetadata dropped). */
function recorded(name: string) {
  const { ResponseMetadata: _, ...body } = JSON.parse(readFileSync(new URL(`../fixtures/textract/recorded/${name}.json`, import.meta.url), 'utf8'));
  return body;
}

const textract = mockClient(TextractClient);
afterEach(() => textract.reset());
const engine = textractEngine({ client: new TextractClient({ region: 'us-east-1' }), bucket: 'files', pollIntervalMs: 1 });

describe('recorded AnalyzeDocument (TABLES, FORMS)', () => {
  it('gives pages, a table with a merged header cell, and key/value pairs with check boxes', async () => {
    textract.on(AnalyzeDocumentCommand).resolves(recorded('analyze-document-form-table'));
    const blocks = await engine.analyze({ data: png(), contentType: 'image/png', key: 'k' });
    expect(blocks).toHaveLength(109);
    // The synchronous API leaves Page out; stored blocks carry it.
    expect(blocks.every((b) => b.Page === 1)).toBe(true);
    const views = deriveViews(blocks);
    expect(views.pageCount).toBe(1);
    expect(views.textContent.split('\n').slice(0, 6)).toEqual(['Textractor Test', 'Document', 'Page (1)', 'Key - Values', 'Name of package: Textractor', 'Date : 08/14/2022']);
    expect(views.tables).toEqual([
      expect.objectContaining({
        page: 1,
        rows: [
          ['Cell 1', 'Cell 2', '', 'Cell 4', 'Cell 5'],
          ['Cell 6', 'Cell 7', 'Cell 8', 'Cell 9', 'Cell 10'],
          ['Cell 11', 'Cell 12', 'Cell 13', 'Cell 14', 'Cell 15'],
        ],
        mergedCells: [{ rowIndex: 1, columnIndex: 2, rowSpan: 1, columnSpan: 2 }],
      }),
    ]);
    const forms = Object.fromEntries(views.forms.map((f) => [f.key, f.value]));
    expect(forms).toMatchObject({
      'Name of package:': 'Textractor',
      'Date :': '08/14/2022',
      'Selected Checkbox': 'SELECTED',
      'Un-Selected Checkbox': 'NOT_SELECTED',
    });
    expect(views.forms).toHaveLength(7);
  });
});

describe('recorded GetDocumentAnalysis (3 pages)', () => {
  it('collects every page of the job, following NextToken', async () => {
    const response = recorded('get-document-analysis-multipage');
    // The recording fitted in one response; it is split in two here to exercise NextToken.
    const half = Math.floor(response.Blocks.length / 2);
    textract.on(StartDocumentAnalysisCommand).resolves({ JobId: 'job-1' });
    textract.on(GetDocumentAnalysisCommand, { JobId: 'job-1', NextToken: undefined }).resolves({ ...response, Blocks: response.Blocks.slice(0, half), NextToken: 'next' });
    textract.on(GetDocumentAnalysisCommand, { JobId: 'job-1', NextToken: 'next' }).resolves({ ...response, Blocks: response.Blocks.slice(half) });
    const blocks = await engine.analyze({ data: await textPdf([['1'], ['2'], ['3']]), contentType: 'application/pdf', key: 'k' });
    expect(blocks).toHaveLength(148);
    const views = deriveViews(blocks);
    expect(views.pageCount).toBe(3);
    expect(views.tables.map((t) => [t.page, t.rows.length, t.rows[0]])).toEqual([
      [1, 4, ['Row1', 'Col1_8']],
      [2, 5, ['Row1b', 'Col1_8']],
      [2, 4, ['Row5', 'Col1_8']],
      [3, 3, ['Row6b', 'Col1_8']],
    ]);
    expect(views.forms.map((f) => f.page)).toEqual(expect.arrayContaining([1, 2, 3]));
    expect(views.forms).toHaveLength(17);
  });
});

describe('recorded AnalyzeID (US driver licence)', () => {
  it('passes the fields through with their normalized dates and reports no MRZ', async () => {
    textract.on(AnalyzeIDCommand).resolves(recorded('analyze-id-driving-licence'));
    const identity = await engine.identify({ data: png(), contentType: 'image/png', key: 'k' });
    expect(identity.idType).toBe('DRIVERS_LICENSE');
    const field = (type: string) => identity.fields.find((f) => f.Type.Text === type)?.ValueDetection;
    expect(field('DOCUMENT_NUMBER')?.Text).toBe('736HDV7874JSB');
    expect(field('DATE_OF_BIRTH')?.NormalizedValue).toEqual({ Value: '2001-03-18T00:00:00', ValueType: 'Date' });
    expect(field('EXPIRATION_DATE')?.NormalizedValue?.Value).toBe('2028-01-20T00:00:00');
    expect(identity.fields).toHaveLength(21);
    expect(identity.mrz).toMatchObject({ format: 'NONE', valid: false });
  });
});

describe('the service with DOCUMENT_ANALYSIS_ENGINE=textract', () => {
  let service: RunningService;
  let org: TestOrganization;
  beforeAll(async () => {
    service = await startTestService({ env: { DOCUMENT_ANALYSIS_ENGINE: 'textract', TEXTRACT_REGION: 'us-east-1' } });
    org = await createOrganization(service.db);
  });
  afterAll(() => service.stop());

  it('serves parse and analyze from the recorded response over REST', async () => {
    textract.on(AnalyzeDocumentCommand).resolves(recorded('analyze-document-form-table'));
    const stored = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data: png(), filename: 'scan.png' }]));
    const fileKey = stored.body.fileKey as string;
    const rest = restClient(service.url, org.key);
    const parse = await rest('GET', `/v1/document-analysis/parse/${encodeURIComponent(fileKey)}`);
    expect(parse.status).toBe(200);
    expect(parse.body.data).toMatchObject({ blockCount: 109, tableCount: 1, formCount: 7 });
    const analyze = await rest('POST', '/v1/document-analysis/analyze', { fileKey });
    expect(analyze.body.data).toMatchObject({ engine: 'textract', pageCount: 1 });
    expect((analyze.body.data.blocks as Block[]).filter((b) => b.BlockType === 'MERGED_CELL')).toHaveLength(1);
    expect(analyze.body.data.tables[0].mergedCells).toEqual([{ rowIndex: 1, columnIndex: 2, rowSpan: 1, columnSpan: 2 }]);
  });
});
