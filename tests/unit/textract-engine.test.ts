import {
  AnalyzeDocumentCommand,
  AnalyzeIDCommand,
  BadDocumentException,
  GetDocumentAnalysisCommand,
  StartDocumentAnalysisCommand,
  TextractClient,
} from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { Block } from '../../src/analysis/blocks.ts';
import { textractEngine } from '../../src/analysis/engines/textract.ts';
import { deriveViews } from '../../src/analysis/views.ts';
import { analyzeDocumentResponse, analyzeIdResponse } from '../fixtures/textract.ts';
import { passportMrz, textPdf } from '../helpers/sample-files.ts';

const textract = mockClient(TextractClient);
const engine = textractEngine({ client: new TextractClient({ region: 'eu-west-1' }), bucket: 'files', pollIntervalMs: 1 });
afterEach(() => textract.reset());

describe('Textract engine (responses at the SDK boundary)', () => {
  it('sends images to AnalyzeDocument with TABLES and FORMS and keeps its blocks', async () => {
    textract.on(AnalyzeDocumentCommand).resolves(analyzeDocumentResponse() as never);
    const blocks = await engine.analyze({ data: Buffer.from('image'), contentType: 'image/png', key: 'private/o/f.png' });
    const call = textract.commandCalls(AnalyzeDocumentCommand)[0]!.args[0].input;
    expect(call.FeatureTypes).toEqual(['TABLES', 'FORMS']);
    expect(blocks).toHaveLength(analyzeDocumentResponse().Blocks.length);
    const views = deriveViews(blocks as Block[]);
    expect(views.textContent).toBe('Name: Jane');
    expect(views.tables).toEqual([{ page: 1, confidence: 97.5, rows: [['Owner', 'Share'], ['Alice', '60%']], mergedCells: [] }]);
    expect(views.forms).toEqual([{ key: 'Name:', value: 'Jane', confidence: 94.5, page: 1 }]);
  });

  it('runs multi-page PDFs as an asynchronous job over the stored object, following NextToken', async () => {
    textract.on(StartDocumentAnalysisCommand).resolves({ JobId: 'job-1' });
    const page1 = analyzeDocumentResponse(1, 'p1');
    const page2 = analyzeDocumentResponse(2, 'p2');
    textract
      .on(GetDocumentAnalysisCommand, { JobId: 'job-1', NextToken: undefined })
      .resolvesOnce({ JobStatus: 'IN_PROGRESS' })
      .resolves({ JobStatus: 'SUCCEEDED', Blocks: page1.Blocks as never, NextToken: 't2' });
    textract.on(GetDocumentAnalysisCommand, { JobId: 'job-1', NextToken: 't2' }).resolves({ JobStatus: 'SUCCEEDED', Blocks: page2.Blocks as never });
    const pdf = await textPdf([['one'], ['two']]);
    const blocks = await engine.analyze({ data: pdf, contentType: 'application/pdf', key: 'private/o/f.pdf' });
    expect(textract.commandCalls(StartDocumentAnalysisCommand)[0]!.args[0].input.DocumentLocation).toEqual({ S3Object: { Bucket: 'files', Name: 'private/o/f.pdf' } });
    expect(deriveViews(blocks as Block[]).pageCount).toBe(2);
    expect(textract.commandCalls(AnalyzeDocumentCommand)).toHaveLength(0);
  });

  it('maps AnalyzeID fields and checks the MRZ digits itself', async () => {
    const mrz = passportMrz({ lastName: 'EXAMPLE', firstNames: ['JANE', 'MARIE'], documentNumber: '123456789', nationality: 'GBR', birthDate: '850310', sex: 'F', expirationDate: '300101' });
    textract.on(AnalyzeIDCommand).resolves(analyzeIdResponse(mrz.join('\n')) as never);
    const identity = await engine.identify({ data: Buffer.from('id'), contentType: 'image/jpeg', key: 'k' });
    expect(identity.idType).toBe('PASSPORT');
    expect(identity.fields.find((f) => f.Type.Text === 'DATE_OF_BIRTH')!.ValueDetection.NormalizedValue!.Value).toBe('1985-03-10T00:00:00');
    expect(identity.mrz).toMatchObject({ format: 'TD3', valid: true, checkDigits: { documentNumber: true, composite: true } });
  });

  it('turns Textract refusals into 422 and outages into 503', async () => {
    textract.on(AnalyzeDocumentCommand).rejectsOnce(new BadDocumentException({ message: 'bad', $metadata: {} }));
    await expect(engine.analyze({ data: Buffer.from('x'), contentType: 'image/png', key: 'k' })).rejects.toMatchObject({ status: 422 });
    textract.on(AnalyzeDocumentCommand).rejects(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }));
    await expect(engine.analyze({ data: Buffer.from('x'), contentType: 'image/png', key: 'k' })).rejects.toMatchObject({ status: 503 });
  });
});
