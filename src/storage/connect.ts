import { resolve } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { EMBEDDED_CREDENTIALS, startEmbeddedS3 } from './embedded-s3.ts';
import { ObjectStore } from './object-store.ts';

/**
 * The configured file store: S3_ENDPOINT (any S3-compatible service), else
 * AWS S3 when credentials are configured (S3_* or the SDK's usual AWS_*
 * sources), else an embedded S3 server storing under DATA_DIR/s3.
 */
export async function connectObjectStore(config: Config, logger: Logger) {
  const hasCredentials = Boolean(config.S3_ACCESS_KEY_ID || process.env.AWS_ACCESS_KEY_ID || process.env.AWS_PROFILE);
  let endpoint = config.S3_ENDPOINT;
  let credentials =
    config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
      : undefined;
  let stop = async () => {};
  if (!endpoint && !hasCredentials) {
    const directory = resolve(config.DATA_DIR, 's3');
    const embedded = await startEmbeddedS3({ directory, port: config.EMBEDDED_S3_PORT, bucket: config.S3_BUCKET });
    logger.info({ endpoint: embedded.endpoint, directory }, 'S3 not configured: started the embedded S3 server');
    endpoint = embedded.endpoint;
    credentials = EMBEDDED_CREDENTIALS;
    stop = embedded.stop;
  }
  const client = new S3Client({
    region: config.S3_REGION,
    ...(endpoint ? { endpoint } : {}),
    ...(credentials ? { credentials } : {}),
    forcePathStyle: config.S3_FORCE_PATH_STYLE ? config.S3_FORCE_PATH_STYLE === 'true' : Boolean(endpoint),
    // Streamed bodies of known length: no whole-body checksum pass.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    store: new ObjectStore(client, config.S3_BUCKET),
    stop: async () => {
      client.destroy();
      await stop();
    },
  };
}
