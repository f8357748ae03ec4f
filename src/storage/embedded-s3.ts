import { mkdir } from 'node:fs/promises';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import S3rver from '@20minutes/s3rver';

export const EMBEDDED_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface EmbeddedS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * An S3-protocol server in this process (`@20minutes/s3rver`, which checks
 * SigV4 signatures), storing under `directory`. The app talks to it through
 * the AWS SDK exactly as to AWS S3.
 */
export async function startEmbeddedS3(options: { directory: string; port: number; bucket: string }): Promise<EmbeddedS3> {
  const directory = resolve(options.directory);
  await mkdir(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    directory,
    silent: true,
    configureBuckets: [{ name: options.bucket, configs: [] }],
  });
  // s3rver serves unsigned requests as if the bucket were public; this bucket
  // is private: every request must carry a valid signature.
  server.middleware.unshift(async (ctx: { headers: Record<string, unknown>; query: Record<string, unknown>; status: number; body: string; type: string; method: string }, next: () => Promise<void>) => {
    const signed = 'authorization' in ctx.headers || 'X-Amz-Algorithm' in ctx.query || 'Signature' in ctx.query;
    if (!signed && ctx.method !== 'OPTIONS') {
      ctx.status = 403;
      ctx.type = 'application/xml';
      ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
      return;
    }
    await next();
  });
  // s3rver's own listen() leaves a failure to bind (a port in use) to an
  // unhandled 'error' event, which ends the process: this one rejects.
  const binding = server as unknown as { listen: (...args: unknown[]) => HttpServer | Promise<HttpServer> };
  const listen = binding.listen.bind(server) as (...args: unknown[]) => HttpServer;
  binding.listen = (...args: unknown[]) =>
    new Promise<HttpServer>((resolve, reject) => {
      const http = listen(...args, () => resolve(http));
      http.once('error', reject);
    });
  const address = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    stop: async () => {
      await server.close();
    },
  };
}
