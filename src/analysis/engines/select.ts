import { TextractClient } from '@aws-sdk/client-textract';
import type { Config } from '../../config.ts';
import type { AnalysisEngine } from './engine.ts';
import type { Logger } from 'pino';
import { isolatedLocalEngine } from './isolated.ts';
import type { OcrBackendName } from './ocr/backend.ts';
import { installedLanguages } from './ocr/tesseract-cli.ts';
import { textractEngine } from './textract.ts';

/** Textract when asked for, or when AWS credentials are configured (auto); else the local engine. */
export function selectEngine(config: Config, logger: Logger, env: NodeJS.ProcessEnv = process.env): AnalysisEngine & { stop?(): Promise<void> } {
  const awsConfigured = Boolean(env.AWS_ACCESS_KEY_ID || env.AWS_PROFILE || env.AWS_WEB_IDENTITY_TOKEN_FILE);
  const useTextract = config.DOCUMENT_ANALYSIS_ENGINE === 'textract' || (config.DOCUMENT_ANALYSIS_ENGINE === 'auto' && awsConfigured);
  if (!useTextract) {
    return isolatedLocalEngine({
      engine: {
        maxPages: config.ANALYSIS_MAX_PAGES,
        maxMegapixels: config.ANALYSIS_MAX_MEGAPIXELS,
        maxDecompressedBytes: config.ANALYSIS_MAX_DECOMPRESSED_MB * 1024 * 1024,
        maxWordsPerPage: config.ANALYSIS_MAX_WORDS_PER_PAGE,
        maxWords: config.ANALYSIS_MAX_WORDS,
        maxTextChars: config.ANALYSIS_MAX_TEXT_CHARS,
        ocr: selectOcr(config.OCR_ENGINE),
      },
      timeoutMs: config.ANALYSIS_TIMEOUT_MS,
      processes: config.ANALYSIS_WORKERS,
      memoryLimitMb: config.ANALYSIS_WORKER_MEMORY_MB,
      logger,
    });
  }
  return textractEngine({ client: new TextractClient({ region: config.TEXTRACT_REGION ?? config.S3_REGION }), bucket: config.S3_BUCKET });
}

/** The OCR backends this machine has: tesseract.js always, the `tesseract` program when it can read English. */
export function availableOcrBackends(): OcrBackendName[] {
  return ['tesseract.js', ...(installedLanguages()?.includes('eng') ? (['tesseract'] as const) : [])];
}

/** The `tesseract` program when it can read English, else tesseract.js (always available). */
export function selectOcr(choice: Config['OCR_ENGINE']): OcrBackendName {
  if (choice === 'tesseract.js') return choice;
  const readsEnglish = availableOcrBackends().includes('tesseract');
  if (choice === 'tesseract' && !readsEnglish) {
    throw new Error('OCR_ENGINE=tesseract, but the tesseract program with English data (eng) is not installed');
  }
  return readsEnglish ? 'tesseract' : 'tesseract.js';
}
