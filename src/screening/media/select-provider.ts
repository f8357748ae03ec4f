import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { HttpMediaProvider } from './http-provider.ts';
import { LocalCorpusProvider } from './local-corpus.ts';
import type { AdverseMediaProvider } from './provider.ts';

const isDirectory = (path: string) => stat(path).then((s) => s.isDirectory(), () => false);

/** The configured adverse media provider, or null when none is (screenings then say NOT_REQUESTED). */
export async function selectMediaProvider(config: Config, logger: Logger): Promise<AdverseMediaProvider | null> {
  const corpus = resolve(config.ADVERSE_MEDIA_CORPUS ?? `${config.DATA_DIR}/media`);
  const mode = config.ADVERSE_MEDIA_PROVIDER === 'auto'
    ? config.ADVERSE_MEDIA_URL ? 'http' : (await isDirectory(corpus)) ? 'local' : 'off'
    : config.ADVERSE_MEDIA_PROVIDER;
  if (mode === 'off') return null;
  if (mode === 'http') {
    if (!config.ADVERSE_MEDIA_URL) throw new Error('Invalid configuration: ADVERSE_MEDIA_PROVIDER=http needs ADVERSE_MEDIA_URL');
    logger.info({ url: config.ADVERSE_MEDIA_URL.replace(/\?.*/, '?…') }, 'adverse media: HTTP provider');
    return new HttpMediaProvider({
      urlTemplate: config.ADVERSE_MEDIA_URL,
      format: config.ADVERSE_MEDIA_FORMAT,
      ...(config.ADVERSE_MEDIA_API_KEY ? { apiKey: config.ADVERSE_MEDIA_API_KEY } : {}),
      apiKeyHeader: config.ADVERSE_MEDIA_API_KEY_HEADER,
      timeoutMs: config.ADVERSE_MEDIA_TIMEOUT_MS,
    });
  }
  const provider = await LocalCorpusProvider.load(corpus);
  logger.info({ corpus, articles: provider.size }, 'adverse media: local corpus');
  return provider;
}
