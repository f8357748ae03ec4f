import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.ts';

export interface SpooledFile {
  path: string;
  size: number;
  sha256: string;
  remove(): Promise<void>;
}

export function tooLarge(maxBytes: number) {
  return new AppError('PAYLOAD_TOO_LARGE', `file: must be at most ${formatBytes(maxBytes)}`);
}

/**
 * A failure of the request body itself (a part that ended early, a malformed
 * part header, a file part missing from the GraphQL multipart body): the
 * caller's fault, a 400, not a 500.
 */
export function brokenUpload(error: unknown, maxBytes: number): AppError {
  if (error instanceof AppError) return error;
  if ((error as { status?: number }).status === 413) return tooLarge(maxBytes);
  return new AppError('BAD_REQUEST', `file: the upload could not be read (${(error as Error).message})`);
}

export function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}

/**
 * Size and digest of a file that is already on local disk (the REST layer
 * parks uploads there): read once, not copied. Its owner removes it.
 */
export async function measure(path: string, maxBytes: number): Promise<SpooledFile> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    hash.update(chunk as Buffer);
  }
  return { path, size, sha256: hash.digest('hex'), remove: async () => {} };
}

/**
 * Streams an upload into a temporary file, hashing and counting as it goes
 * and stopping as soon as it passes `maxBytes`: memory stays small whatever
 * the size, and the store receives a file of known length and digest.
 */
export async function spool(source: Readable, maxBytes: number): Promise<SpooledFile> {
  const path = join(tmpdir(), `upload-${randomUUID()}`);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(tooLarge(maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const remove = () => rm(path, { force: true });
  // busboy (under multer and graphql-upload-minimal) ends a file stream early
  // and emits 'limit' when the part passes its size limit: treat as too large.
  source.once('limit', () => source.destroy(tooLarge(maxBytes)));
  let sourceError: unknown;
  source.once('error', (error) => (sourceError = error));
  try {
    await pipeline(source, meter, createWriteStream(path));
    if ((source as { truncated?: boolean }).truncated) throw tooLarge(maxBytes);
  } catch (error) {
    await remove();
    // graphql-upload-minimal ends over-long streams with an HTTP 413 error.
    // The upload's own stream failing means the body was bad; disk errors stay 500s.
    if (error === sourceError || (error as { status?: number }).status === 413) throw brokenUpload(error, maxBytes);
    throw error;
  }
  return { path, size, sha256: hash.digest('hex'), remove };
}
