import {
  AnalyzeDocumentCommand,
  AnalyzeIDCommand,
  type Block as TextractBlock,
  GetDocumentAnalysisCommand,
  StartDocumentAnalysisCommand,
  type TextractClient,
} from '@aws-sdk/client-textract';
import { AppError } from '../../errors.ts';
import type { Block } from '../blocks.ts';
import { findMrz, type IdentityDocumentField, type IdentityResult, mrzCheck } from '../identity.ts';
import type { AnalysisEngine, EngineInput } from './engine.ts';

const FEATURES = ['TABLES', 'FORMS'] as const;

export interface TextractOptions {
  client: TextractClient;
  /** The bucket holding the files; Textract reads multi-page PDFs from it. */
  bucket: string;
  pollIntervalMs?: number;
  timeoutMs?: number;
}

/**
 * Textract's blocks as stored. The synchronous API leaves out `Page` (its
 * documents have one page); the platform's views group by page, so it is set.
 */
const asBlocks = (blocks: TextractBlock[] | undefined) => ((blocks ?? []) as unknown as Block[]).map((block) => ({ ...block, Page: block.Page || 1 }));

/**
 * AWS Textract: AnalyzeDocument (TABLES, FORMS) for images and one-page
 * PDFs, StartDocumentAnalysis/GetDocumentAnalysis for multi-page PDFs (read
 * from the bucket), AnalyzeID for identity documents. Its blocks are already
 * the model the rest of the platform speaks.
 */
export function textractEngine(options: TextractOptions): AnalysisEngine {
  const { client } = options;

  async function analyzePdfAsync(key: string): Promise<Block[]> {
    const started = await client.send(
      new StartDocumentAnalysisCommand({ DocumentLocation: { S3Object: { Bucket: options.bucket, Name: key } }, FeatureTypes: [...FEATURES] }),
    );
    const deadline = Date.now() + (options.timeoutMs ?? 5 * 60_000);
    for (;;) {
      const first = await client.send(new GetDocumentAnalysisCommand({ JobId: started.JobId }));
      if (first.JobStatus === 'FAILED') throw new AppError('UNPROCESSABLE', `file: Textract could not analyze it (${first.StatusMessage ?? 'no reason given'})`);
      if (first.JobStatus === 'SUCCEEDED' || first.JobStatus === 'PARTIAL_SUCCESS') {
        const blocks = [...asBlocks(first.Blocks)];
        for (let token = first.NextToken; token; ) {
          const page = await client.send(new GetDocumentAnalysisCommand({ JobId: started.JobId, NextToken: token }));
          blocks.push(...asBlocks(page.Blocks));
          token = page.NextToken;
        }
        return blocks;
      }
      if (Date.now() > deadline) throw new AppError('SERVICE_UNAVAILABLE', 'Textract did not finish in time; try again later');
      await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 2000));
    }
  }

  async function analyze({ data, contentType, key }: EngineInput): Promise<Block[]> {
    if (contentType === 'application/pdf' && (await pdfPageCount(data)) > 1) return analyzePdfAsync(key);
    try {
      const result = await client.send(new AnalyzeDocumentCommand({ Document: { Bytes: data }, FeatureTypes: [...FEATURES] }));
      return asBlocks(result.Blocks);
    } catch (error) {
      throw clientError(error);
    }
  }

  async function identify({ data }: EngineInput): Promise<IdentityResult> {
    let result;
    try {
      result = await client.send(new AnalyzeIDCommand({ DocumentPages: [{ Bytes: data }] }));
    } catch (error) {
      throw clientError(error);
    }
    const document = result.IdentityDocuments?.[0];
    if (!document) throw new AppError('UNPROCESSABLE', 'file: Textract found no identity document');
    const fields = (document.IdentityDocumentFields ?? []) as IdentityDocumentField[];
    const text = (type: string) => fields.find((f) => f.Type?.Text === type)?.ValueDetection?.Text ?? '';
    const idType = text('ID_TYPE').toUpperCase();
    const mrzLines = findMrz(text('MRZ_CODE').split(/\n/))?.lines;
    return {
      idType: idType === 'PASSPORT' ? 'PASSPORT' : idType.includes('DRIVER') ? 'DRIVERS_LICENSE' : idType.includes('ID') ? 'ID_CARD' : 'OTHER',
      fields,
      mrz: mrzLines ? mrzCheck(mrzLines) : { format: 'NONE', valid: false, lines: [], checkDigits: { documentNumber: null, birthDate: null, expirationDate: null, composite: null } },
    };
  }

  return { name: 'textract', analyze, identify };
}

/** Textract's refusals of a document are the client's problem (422); the rest is ours (503). */
function clientError(error: unknown): AppError {
  const name = (error as { name?: string }).name ?? '';
  if (['UnsupportedDocumentException', 'BadDocumentException', 'DocumentTooLargeException', 'InvalidParameterException'].includes(name)) {
    return new AppError('UNPROCESSABLE', `file: Textract refused it (${name})`);
  }
  return new AppError('SERVICE_UNAVAILABLE', `Textract is unavailable (${name || 'error'}); try again later`);
}

/** Pages of a PDF (Textract's synchronous API takes one page only). */
async function pdfPageCount(data: Buffer): Promise<number> {
  // Loaded on first use: the API process has no other need for pdf.js.
  const { openPdf } = await import('./pdf.ts');
  const pdf = await openPdf(data).catch(() => {
    throw new AppError('UNPROCESSABLE', 'file: the PDF could not be read');
  });
  try {
    return pdf.numPages;
  } finally {
    await pdf.destroy();
  }
}
