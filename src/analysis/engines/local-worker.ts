// The local engine's process: analyses run here so that a crash in native
// code (canvas rendering) or a runaway page kills this process, not the server.
import { AppError } from '../../errors.ts';
import { analyzeLocally, identifyLocally, type LocalEngineOptions } from './local.ts';

interface Request {
  id: number;
  kind: 'analyze' | 'identify';
  data: string;
  contentType: string;
  options: LocalEngineOptions;
}

process.on('message', async (message: Request) => {
  try {
    const data = Buffer.from(message.data, 'base64');
    const result =
      message.kind === 'identify'
        ? { identity: await identifyLocally(data, message.contentType, message.options) }
        : { blocks: await analyzeLocally(data, message.contentType, message.options) };
    process.send?.({ id: message.id, ok: true, ...result });
  } catch (error) {
    const typed = error instanceof AppError ? { code: error.code, message: error.message } : { code: 'INTERNAL_SERVER_ERROR', message: String((error as Error)?.message ?? error) };
    process.send?.({ id: message.id, ok: false, error: typed });
  }
});
