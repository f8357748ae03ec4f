import { TextractClient } from '@aws-sdk/client-textract';
import type { Config } from '../../config.ts';
import type { AnalysisEngine } from './engine.ts';
import { localEngine } from './local.ts';
import { textractEngine } from './textract.ts';

/** Textract when asked for, or when AWS credentials are configured (auto); else the local engine. */
export function selectEngine(config: Config, env: NodeJS.ProcessEnv = process.env): AnalysisEngine {
  const awsConfigured = Boolean(env.AWS_ACCESS_KEY_ID || env.AWS_PROFILE || env.AWS_WEB_IDENTITY_TOKEN_FILE);
  const useTextract = config.DOCUMENT_ANALYSIS_ENGINE === 'textract' || (config.DOCUMENT_ANALYSIS_ENGINE === 'auto' && awsConfigured);
  if (!useTextract) return localEngine({ maxPages: config.ANALYSIS_MAX_PAGES, maxMegapixels: config.ANALYSIS_MAX_MEGAPIXELS });
  return textractEngine({ client: new TextractClient({ region: config.TEXTRACT_REGION ?? config.S3_REGION }), bucket: config.S3_BUCKET });
}
