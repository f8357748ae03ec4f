import type { Block } from '../blocks.ts';
import type { IdentityResult } from '../identity.ts';

export interface EngineInput {
  data: Buffer;
  contentType: string;
  /** The object's key in the configured bucket (Textract's multi-page API reads it there). */
  key: string;
}

/** A document-analysis engine: Textract blocks out, whoever produces them. */
export interface AnalysisEngine {
  name: 'local' | 'textract';
  analyze(input: EngineInput): Promise<Block[]>;
  identify(input: EngineInput): Promise<IdentityResult>;
}
