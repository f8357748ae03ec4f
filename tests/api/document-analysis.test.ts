import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../src/analysis/blocks.ts';
import type { RunningService } from '../../src/service.ts';
import { gridTablePdf } from '../../bench/corpus.ts';
import { feedCaughtUp } from '../helpers/event-feed.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { idCardImage, idCardMrz, multiPageTiff, passportImage, passportMrz, placedTextPdf, scannedPdf, tableItems, textImage, textPdf } from '../helpers/sample-files.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

/** The job queue both instances of the restart test work. */
const SHARED_JOBS = `jobs_analysis_${Date.now().toString(36)}`;
import { formWith, upload } from '../helpers/uploads.ts';

let service: RunningService;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;

async function stored(data: Buffer, name = 'doc.pdf', key = org.key) {
  const response = await upload(service.url, key, 'private', formWith([{ name: 'file', data, filename: name }]));
  expect(response.status).toBe(201);
  return response.body.fileKey as string;
}

/** Words found in `text`, as a share of `expected` words (case-insensitive). */
function recall(expected: string, text: string) {
  const found = new Set(text.toLowerCase().split(/\s+/));
  const words = expected.toLowerCase().split(/\s+/).filter(Boolean);
  return words.filter((w) => found.has(w)).length / words.length;
}

function checkBlockModel(blocks: Block[]) {
  const byId = new Map(blocks.map((b) => [b.Id, b]));
  for (const block of blocks) {
    expect(['PAGE', 'LINE', 'WORD', 'TABLE', 'CELL', 'MERGED_CELL', 'KEY_VALUE_SET']).toContain(block.BlockType);
    const box = block.Geometry.BoundingBox;
    for (const v of [box.Left, box.Top, box.Width, box.Height]) expect(v).toBeGreaterThanOrEqual(0);
    expect(box.Left + box.Width).toBeLessThanOrEqual(1.000001);
    expect(box.Top + box.Height).toBeLessThanOrEqual(1.000001);
    expect(block.Geometry.Polygon).toHaveLength(4);
    for (const relationship of block.Relationships ?? []) for (const id of relationship.Ids) expect(byId.has(id)).toBe(true);
    if (block.BlockType === 'LINE') {
      const words = block.Relationships![0]!.Ids.map((id) => byId.get(id)!);
      expect(words.every((w) => w.BlockType === 'WORD')).toBe(true);
      expect(words.map((w) => w.Text).join(' ')).toBe(block.Text);
    }
  }
}

beforeAll(async () => {
  service = await startTestService({ env: { ANALYSIS_MAX_PAGES: '3', ANALYSIS_WAIT_TIMEOUT_MS: '20000', JOB_QUEUE_SCHEMA: SHARED_JOBS } });
  org = await createOrganization(service.db);
  rest = restClient(service.url, org.key);
});
afterAll(() => service.stop());

describe('POST /v1/document-analysis/analyze', () => {
  it('extracts the text layer of a PDF in Textract blocks', async () => {
    const fileKey = await stored(await textPdf([['Certificate of Incorporation', 'Company Name: Acme Holdings Ltd'], ['Second page']]));
    const response = await rest('POST', '/v1/document-analysis/analyze', { fileKey });
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(response.body.success).toBe(true);
    expect(data).toMatchObject({
      status: 'SUCCEEDED', engine: 'local', fileKey, pageCount: 2, tableCount: 0, formCount: 1,
      textContent: 'Certificate of Incorporation\nCompany Name: Acme Holdings Ltd\n\nSecond page',
    });
    const blocks = data.blocks as Block[];
    expect(data.blockCount).toBe(blocks.length);
    expect(blocks.filter((b) => b.BlockType === 'PAGE').map((b) => b.Page)).toEqual([1, 2]);
    expect(data.forms).toEqual([{ key: 'Company Name:', value: 'Acme Holdings Ltd', confidence: 99, page: 1 }]);
    expect(blocks.filter((b) => b.BlockType === 'LINE').map((b) => b.Text)).toEqual([
      'Certificate of Incorporation', 'Company Name: Acme Holdings Ltd', 'Second page',
    ]);
    checkBlockModel(blocks);
    const title = blocks.find((b) => b.Text === 'Certificate')!;
    // 72 pt from the left of a 595 pt page, near the top.
    expect(title.Geometry.BoundingBox.Left).toBeCloseTo(72 / 595, 2);
    expect(title.Geometry.BoundingBox.Top).toBeLessThan(0.1);
  });

  it('reads images and scanned PDFs by OCR', async () => {
    const lines = ['Proof of address', 'Jane Example 12 High Street London'];
    const image = await rest('POST', '/v1/document-analysis/analyze', { fileKey: await stored(await textImage(lines), 'bill.png') });
    expect(image.status).toBe(200);
    expect(recall(lines.join(' '), image.body.data.textContent)).toBeGreaterThanOrEqual(0.9);
    checkBlockModel(image.body.data.blocks);
    const scan = await rest('POST', '/v1/document-analysis/analyze', { fileKey: await stored(await scannedPdf(lines), 'scan.pdf') });
    expect(scan.status).toBe(200);
    expect(scan.body.data.pageCount).toBe(1);
    expect(recall(lines.join(' '), scan.body.data.textContent)).toBeGreaterThanOrEqual(0.9);
  }, 60_000);

  it('reads every page of a multi-page TIFF', async () => {
    const tiff = await multiPageTiff([await textImage(['First page of the fax']), await textImage(['Second page arrives here'])]);
    const response = await rest('POST', '/v1/document-analysis/analyze', { fileKey: await stored(tiff, 'fax.tiff') });
    expect(response.status).toBe(200);
    expect(response.body.data.pageCount).toBe(2);
    const lines = (response.body.data.blocks as Block[]).filter((b) => b.BlockType === 'LINE').map((b) => [b.Page, b.Text]);
    expect(lines).toEqual([[1, 'First page of the fax'], [2, 'Second page arrives here']]);
    checkBlockModel(response.body.data.blocks);
  }, 60_000);

  it('answers 422 for a corrupt file or too many pages, and records the failure', async () => {
    const corrupt = await rest('POST', '/v1/document-analysis/analyze', { fileKey: await stored(Buffer.from('%PDF-1.7\nnot really a pdf')) });
    expect(corrupt.status).toBe(422);
    expect(corrupt.body.message).toMatch(/^file: the PDF could not be read/);
    const long = await rest('POST', '/v1/document-analysis/analyze', { fileKey: await stored(await textPdf([['1'], ['2'], ['3'], ['4']])) });
    expect(long.status).toBe(422);
    expect(long.body.message).toBe('file: the PDF has 4 pages; the limit is 3');
    const page = await textImage(['page']);
    const longTiff = await rest('POST', '/v1/document-analysis/analyze', { fileKey: await stored(await multiPageTiff([page, page, page, page]), 'long.tif') });
    expect(longTiff.status).toBe(422);
    expect(longTiff.body.message).toBe('file: the TIFF image has 4 pages; the limit is 3');
    const truncated = await rest('POST', '/v1/document-analysis/analyze', { fileKey: await stored((await textImage(['cut'])).subarray(0, 300), 'cut.png') });
    expect(truncated.status).toBe(422);
    expect(truncated.body.message).toMatch(/^file: the image could not be read/);
    expect(await service.db.documentAnalysis.count({ where: { organizationId: org.id, status: 'FAILED' } })).toBe(4);
  });

  it('answers 404 for unknown and foreign keys, 400 without one', async () => {
    expect((await rest('POST', '/v1/document-analysis/analyze', { fileKey: `private/${org.id}/nope.pdf` })).status).toBe(404);
    const other = await createOrganization(service.db);
    const foreign = await stored(await textPdf([['theirs']]), 'x.pdf', other.key);
    const response = await rest('POST', '/v1/document-analysis/analyze', { fileKey: foreign });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(`File ${foreign} not found`);
    expect((await rest('POST', '/v1/document-analysis/analyze', {})).body.message).toBe('fileKey: is required');
  });
});

describe('tables and key/value pairs', () => {
  const register = [
    ['Shareholder', 'Shares', 'Country'],
    ['Alice Smith', '600', 'GB'],
    ['Bob Jones', '400', 'US'],
  ];

  it('finds them from word geometry in a text-layer PDF', async () => {
    const pdf = await placedTextPdf([
      { text: 'Company Name: Acme Holdings Ltd', x: 72, y: 80 },
      { text: 'Registration Number: 12345678', x: 72, y: 110 },
      { text: 'Register of members', x: 72, y: 170 },
      ...tableItems(register, [72, 260, 400], 200),
    ]);
    const response = await rest('POST', '/v1/document-analysis/analyze-async', { fileKey: await stored(pdf) });
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data.tables).toHaveLength(1);
    expect(data.tables[0].rows).toEqual(register);
    expect(data.forms.map((f: { key: string; value: string }) => [f.key, f.value])).toEqual([
      ['Company Name:', 'Acme Holdings Ltd'],
      ['Registration Number:', '12345678'],
    ]);
    expect(data.tableCount).toBe(1);
    expect(data.formCount).toBe(2);
    const blocks = data.blocks as Block[];
    checkBlockModel(blocks);
    const cells = blocks.filter((b) => b.BlockType === 'CELL');
    expect(cells.map((c) => [c.RowIndex, c.ColumnIndex])).toContainEqual([3, 3]);
    expect(blocks.filter((b) => b.BlockType === 'KEY_VALUE_SET' && b.EntityTypes?.includes('KEY'))).toHaveLength(2);
  });

  it('reads a ruled grid from its lines: merged headers, empty cells, text wrapped in a cell', async () => {
    const grid = await gridTablePdf();
    const response = await rest('POST', '/v1/document-analysis/analyze', { fileKey: await stored(grid.data, 'register.pdf') });
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data.tables).toHaveLength(1);
    expect(data.tables[0].rows).toEqual(grid.truth.tables[0]);
    expect(data.tables[0].mergedCells).toEqual(grid.mergedCells);
    expect(data.forms.map((f: { key: string; value: string }) => [f.key, f.value])).toEqual(grid.truth.forms);
    const blocks = data.blocks as Block[];
    checkBlockModel(blocks);
    // Textract's layout: a CELL at every grid position (5 × 4), MERGED_CELL blocks over them.
    expect(blocks.filter((b) => b.BlockType === 'CELL')).toHaveLength(20);
    const merged = blocks.filter((b) => b.BlockType === 'MERGED_CELL');
    expect(merged.map((m) => m.Relationships![0]!.Ids.length)).toEqual([2, 2, 2]);
  });

  it('finds them in an OCR\'d image', async () => {
    const image = await textImage(['Account Holder: Jane Example']);
    const response = await rest('POST', '/v1/document-analysis/analyze', { fileKey: await stored(image, 'form.png') });
    expect(response.body.data.forms.map((f: { key: string; value: string }) => [f.key, f.value])).toEqual([['Account Holder:', 'Jane Example']]);
  });
});

describe('GET /v1/document-analysis/parse/{fileKey}', () => {
  it('returns text and counts for a percent-encoded key', async () => {
    const fileKey = await stored(await textPdf([['Shareholder register', 'Alice 60%']]));
    const response = await rest('GET', `/v1/document-analysis/parse/${encodeURIComponent(fileKey)}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { textContent: 'Shareholder register\nAlice 60%', blockCount: expect.any(Number), tableCount: 0, formCount: 0 },
    });
    expect(response.body.data.blockCount).toBe(1 + 2 + 4);
  });
});

describe('POST /v1/document-analysis/analyze-async', () => {
  it('waits for the queued job by default and returns the full result with its job id', async () => {
    const fileKey = await stored(await textPdf([['Articles of Association']]));
    const response = await rest('POST', '/v1/document-analysis/analyze-async', { fileKey });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'SUCCEEDED', textContent: 'Articles of Association', tables: [], forms: [] });
    const job = await rest('GET', `/v1/document-analysis/jobs/${response.body.data.jobId}`);
    expect(job.status).toBe(200);
    expect(job.body.data).toMatchObject({ jobId: response.body.data.jobId, kind: 'DOCUMENT', status: 'SUCCEEDED', blockCount: response.body.data.blockCount });
  });

  it.each([
    ['Prefer: respond-async', '', { prefer: 'respond-async' }],
    ['?wait=false', '?wait=false', {}],
  ])('answers 202 at once with %s, and the job finishes in the background', async (_how, query, headers) => {
    const fileKey = await stored(await textPdf([['Bank statement']]));
    const response = await rest('POST', `/v1/document-analysis/analyze-async${query}`, { fileKey }, headers);
    expect(response.status).toBe(202);
    expect(['QUEUED', 'RUNNING']).toContain(response.body.data.status);
    const { jobId } = response.body.data;
    let job = response.body.data;
    for (let i = 0; i < 100 && job.status !== 'SUCCEEDED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await rest('GET', `/v1/document-analysis/jobs/${jobId}`)).body.data;
    }
    expect(job).toMatchObject({ status: 'SUCCEEDED', textContent: 'Bank statement' });
  });

  it('refuses a bad wait value, and a failing job is a 422', async () => {
    expect((await rest('POST', '/v1/document-analysis/analyze-async?wait=maybe', { fileKey: 'x' })).status).toBe(400);
    const failed = await rest('POST', '/v1/document-analysis/analyze-async', { fileKey: await stored(Buffer.from('%PDF-1.7\nbroken')) });
    expect(failed.status).toBe(422);
  });

  it('keeps jobs in PostgreSQL: one instance queues, another finishes', async () => {
    // Same job queue as the file's service: that one takes the job over.
    const first = await startTestService({ env: { JOB_QUEUE_SCHEMA: SHARED_JOBS } });
    const fileKey = await stored(await textPdf([['Survives a restart']]));
    const queued = await restClient(first.url, org.key)('POST', '/v1/document-analysis/analyze-async?wait=false', { fileKey });
    expect(queued.status).toBe(202);
    await first.stop();
    let job = queued.body.data;
    for (let i = 0; i < 150 && job.status !== 'SUCCEEDED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await rest('GET', `/v1/document-analysis/jobs/${job.jobId}`)).body.data;
    }
    expect(job.status).toBe('SUCCEEDED');
  }, 60_000);

  it('hides jobs of other organizations', async () => {
    const fileKey = await stored(await textPdf([['Private job']]));
    const { jobId } = (await rest('POST', '/v1/document-analysis/analyze-async', { fileKey })).body.data;
    const other = await createOrganization(service.db);
    const response = await restClient(service.url, other.key)('GET', `/v1/document-analysis/jobs/${jobId}`);
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(`Analysis job ${jobId} not found`);
  });
});

describe('POST /v1/document-analysis/analyze-id', () => {
  const holder = {
    lastName: 'EXAMPLE', firstNames: ['JANE', 'MARIE'], documentNumber: '123456789', nationality: 'GBR',
    birthDate: '850310', sex: 'F' as const, expirationDate: '300101',
  };

  it('reads a passport\'s MRZ into Textract AnalyzeID fields with valid check digits', async () => {
    const fileKey = await stored(await passportImage(holder), 'passport.png');
    const response = await rest('POST', '/v1/document-analysis/analyze-id', { fileKey });
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data).toMatchObject({ status: 'SUCCEEDED', idType: 'PASSPORT', fileKey });
    const fields = Object.fromEntries(
      (data.IdentityDocumentFields as Array<{ Type: { Text: string }; ValueDetection: { Text: string; NormalizedValue?: { Value: string }; Confidence: number } }>)
        .map((f) => [f.Type.Text, f.ValueDetection]),
    );
    expect(fields.FIRST_NAME!.Text).toBe('JANE');
    expect(fields.MIDDLE_NAME!.Text).toBe('MARIE');
    expect(fields.LAST_NAME!.Text).toBe('EXAMPLE');
    expect(fields.DOCUMENT_NUMBER!.Text).toBe('123456789');
    expect(fields.DATE_OF_BIRTH!.NormalizedValue!.Value).toBe('1985-03-10T00:00:00');
    expect(fields.EXPIRATION_DATE!.NormalizedValue!.Value).toBe('2030-01-01T00:00:00');
    expect(fields.ID_TYPE!.Text).toBe('PASSPORT');
    expect(fields.COUNTRY!.Text).toBe('GBR');
    expect(fields.MRZ_CODE!.Text).toBe(passportMrz(holder).join('\n'));
    expect(fields.DOCUMENT_NUMBER!.Confidence).toBeGreaterThan(90);
    expect(data.mrz).toMatchObject({
      format: 'TD3', valid: true, lines: passportMrz(holder),
      checkDigits: { documentNumber: true, birthDate: true, expirationDate: true, composite: true },
    });
  }, 30_000);

  it('reads an ID card\'s three-line MRZ (TD1)', async () => {
    const card = { lastName: 'DE BRUIJN', firstNames: ['WILLEKE', 'LISELOTTE'], documentNumber: 'SPECI2021', nationality: 'NLD', birthDate: '650310', sex: 'F' as const, expirationDate: '310802' };
    const response = await rest('POST', '/v1/document-analysis/analyze-id', { fileKey: await stored(await idCardImage(card), 'id-card.png') });
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data.idType).toBe('ID_CARD');
    expect(data.mrz).toMatchObject({ format: 'TD1', valid: true, lines: idCardMrz(card) });
    const fields = Object.fromEntries((data.IdentityDocumentFields as Array<{ Type: { Text: string }; ValueDetection: { Text: string } }>).map((f) => [f.Type.Text, f.ValueDetection.Text]));
    expect(fields).toMatchObject({ LAST_NAME: 'DE BRUIJN', FIRST_NAME: 'WILLEKE', MIDDLE_NAME: 'LISELOTTE', DOCUMENT_NUMBER: 'SPECI2021', NATIONALITY: 'NLD', ID_TYPE: 'ID CARD' });
  }, 30_000);

  it('reports a failing check digit instead of hiding it', async () => {
    const [line1, line2] = passportMrz(holder);
    // One digit of the document number changed after the check digit was computed.
    const forged = `${line2.slice(0, 3)}9${line2.slice(4)}`;
    const image = await textImage(['PASSPORT', line1, forged], { font: 'Sample Mono', fontSize: 46, width: 1800 });
    const response = await rest('POST', '/v1/document-analysis/analyze-id', { fileKey: await stored(image, 'forged.png') });
    expect(response.status).toBe(200);
    expect(response.body.data.mrz.valid).toBe(false);
    expect(response.body.data.mrz.checkDigits.documentNumber).toBe(false);
    const number = response.body.data.IdentityDocumentFields.find((f: { Type: { Text: string } }) => f.Type.Text === 'DOCUMENT_NUMBER');
    expect(number.ValueDetection.Confidence).toBeLessThan(50);
  }, 30_000);

  it('answers 422 when there is neither an MRZ nor labelled fields', async () => {
    const response = await rest('POST', '/v1/document-analysis/analyze-id', { fileKey: await stored(await textPdf([['Just a letter']])) });
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/^file: no machine-readable zone \(MRZ\) or labelled identity fields were found/);
  });

  it('reads a driver\'s licence without an MRZ from its labelled fields', async () => {
    const image = await textImage([
      'DRIVING LICENCE',
      'Surname: SAMPLE',
      'Given names: JOHN ROBERT',
      'Date of birth: 10.03.1985',
      'Licence number: SAMPL803105JR9AB',
      'Expiry date: 01.01.2030',
    ]);
    const response = await rest('POST', '/v1/document-analysis/analyze-id', { fileKey: await stored(image, 'licence.png') });
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data.idType).toBe('DRIVERS_LICENSE');
    const fields = Object.fromEntries(
      (data.IdentityDocumentFields as Array<{ Type: { Text: string }; ValueDetection: { Text: string; NormalizedValue?: { Value: string } } }>)
        .map((f) => [f.Type.Text, f.ValueDetection]),
    );
    expect(fields.LAST_NAME!.Text).toBe('SAMPLE');
    expect(fields.FIRST_NAME!.Text).toBe('JOHN');
    expect(fields.MIDDLE_NAME!.Text).toBe('ROBERT');
    expect(fields.DOCUMENT_NUMBER!.Text).toBe('SAMPL803105JR9AB');
    expect(fields.DATE_OF_BIRTH!.NormalizedValue!.Value).toBe('1985-03-10T00:00:00');
    expect(fields.EXPIRATION_DATE!.NormalizedValue!.Value).toBe('2030-01-01T00:00:00');
    expect(fields.ID_TYPE!.Text).toBe('DRIVER LICENSE FRONT');
    expect(data.mrz).toMatchObject({ format: 'NONE', valid: false });
  }, 30_000);

  it('reads ambiguous slashed dates the way the document writes them (a US licence: month first)', async () => {
    const image = await textImage(['USA DRIVER LICENSE', 'Last name: DOE', 'First name: JANE', 'DOB: 03/04/1985', 'Issued: 05/06/2021', 'Expires: 05/06/2029']);
    const response = await rest('POST', '/v1/document-analysis/analyze-id', { fileKey: await stored(image, 'us-licence.png') });
    expect(response.status).toBe(200);
    const dates = Object.fromEntries(
      (response.body.data.IdentityDocumentFields as Array<{ Type: { Text: string }; ValueDetection: { NormalizedValue?: { Value: string } } }>)
        .map((f) => [f.Type.Text, f.ValueDetection.NormalizedValue?.Value]),
    );
    expect(dates).toMatchObject({ DATE_OF_BIRTH: '1985-03-04T00:00:00', DATE_OF_ISSUE: '2021-05-06T00:00:00', EXPIRATION_DATE: '2029-05-06T00:00:00' });
  }, 30_000);
});

describe('GraphQL', () => {
  it('analyzes and shows the results from a case through its documents', async () => {
    const gql = graphqlClient(service.url, org.key);
    const fileKey = await stored(await textPdf([['Passport of Jane Example']]));
    const caseId = (await rest('POST', '/v1/consumer-cases', { email: 'jane@example.com' })).body.id;
    await rest('POST', '/v1/documents', { fileKey, type: 'PASSPORT', consumerCaseId: caseId });
    const analyzed = await gql('mutation ($k: String!) { analyzeDocument(fileKey: $k) { jobId status textContent } }', { k: fileKey });
    expect(analyzed.data.analyzeDocument).toMatchObject({ status: 'SUCCEEDED', textContent: 'Passport of Jane Example' });
    const viaCase = await gql(`query ($id: ID!) { consumerCase(id: $id) { documents(first: 1) { edges { node { type file { analyses { jobId textContent } } } } } } }`, { id: caseId });
    expect(viaCase.errors, JSON.stringify(viaCase.errors)).toBeUndefined();
    expect(viaCase.data.consumerCase.documents.edges[0].node).toEqual({
      type: 'PASSPORT',
      file: { analyses: [{ jobId: analyzed.data.analyzeDocument.jobId, textContent: 'Passport of Jane Example' }] },
    });
  });
});

describe('analyses left running by an instance that died', () => {
  it('are recorded as failed once past every retry, and announced; recent ones are left alone', async () => {
    const fileKey = await stored(await textPdf([['Abandoned']]));
    const file = await service.db.storedFile.findUniqueOrThrow({ where: { key: fileKey } });
    const row = (hoursAgo: number) => service.db.documentAnalysis.create({
      data: { organizationId: org.id, fileId: file.id, kind: 'TEXT', status: 'RUNNING', startedAt: new Date(Date.now() - hoursAgo * 3_600_000) },
    });
    const abandoned = await row(3);
    const recent = await row(0);
    expect(await service.analysis.failAbandoned()).toBe(1);
    const job = await rest('GET', `/v1/document-analysis/jobs/${abandoned.id}`);
    expect(job.body.data).toMatchObject({ status: 'FAILED', error: 'Interrupted: the instance running this analysis stopped; run it again' });
    expect((await service.db.documentAnalysis.findUniqueOrThrow({ where: { id: recent.id } })).status).toBe('RUNNING');
    await feedCaughtUp(service.db);
    const events = await rest('GET', `/v1/events?type=document.analyzed&resourceId=${abandoned.id}`);
    expect(events.body.items.map((e: { data: { status: string } }) => e.data.status)).toEqual(['FAILED']);
    await service.db.documentAnalysis.update({ where: { id: recent.id }, data: { status: 'FAILED' } });
  });
});
