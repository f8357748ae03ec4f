import { TextractClient } from '@aws-sdk/client-textract';
import type { Config } from '../../config.ts';
import type { AnalysisEngine } from './engine.ts';
import type { Logger } from 'pino';
import { isolatedLocalEngine } from './isolated.ts';
import { textractEngine } from './textract.ts';

/** Textract when asked for, or when AWS credentials are configured (auto); else the local engine. */
export function selectEngine(config: Config, logger: Logger, env: NodeJS.ProcessEnv = process.env): AnalysisEngine & { stop?(): Promise<void> } {
  const awsConfigured = Boolean(env.AWS_ACCESS_KEY_ID || env.AWS_PROFILE || env.AWS_WEB_IDENTITY_TOKEN_FILE);
  const useTextract = config.DOCUMENT_ANALYSIS_ENGINE === 'textract' || (config.DOCUMENT_ANALYSIS_ENGINE === 'auto' && awsConfigured);
  if (!useTextract) {
    return isolatedLocalEngine({
      limits: { maxPages: config.ANALYSIS_MAX_PAGES, maxMegapixels: config.ANALYSIS_MAX_MEGAPIXELS },
      timeoutMs: config.ANALYSIS_TIMEOUT_MS,
      logger,
    });
  }
  return textractEngine({ client: new TextractClient({ region: config.TEXTRACT_REGION ?? config.S3_REGION }), bucket: config.S3_BUCKET });
}
