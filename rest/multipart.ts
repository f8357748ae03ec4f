import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { Upload } from 'graphql-upload-minimal';
import type { Context } from 'koa';
import { AppError, badRequest } from '../src/errors.ts';
import { formatBytes } from '../src/files/intake.ts';

const MULTIPART = /^multipart\/form-data\b/i;

/**
 * Reads the one file part `field` of a multipart/form-data request into a
 * temporary file and returns it as a GraphQL `Upload` (plus a clean-up for
 * after the response). The whole body is parsed before the operation runs,
 * so "several files" is refused before anything is stored; the file is
 * streamed to disk, and a part over `maxBytes` fails at once with 413.
 */
export async function readFilePart(ctx: Context, field: string, maxBytes: number) {
  if (!MULTIPART.test(ctx.get('content-type'))) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be multipart/form-data with a part named "${field}"`);
  }
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `${field}: must be at most ${formatBytes(maxBytes)}`);
  // Refuse an announced oversize body before reading any of it.
  const announced = ctx.request.length;
  if (announced !== undefined && announced > maxBytes + 64 * 1024) throw tooLarge();

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: ctx.req.headers,
      defParamCharset: 'utf8',
      limits: { fileSize: maxBytes, files: 1, fields: 20, parts: 21, fieldSize: 64 * 1024 },
    });
  } catch (error) {
    throw badRequest(`Malformed multipart body: ${(error as Error).message}`);
  }
  const path = join(tmpdir(), `rest-upload-${randomUUID()}`);
  const cleanup = () => rm(path, { force: true });
  let file: { filename: string; mimetype: string; encoding: string } | undefined;
  let writing: Promise<void> | undefined;

  const parsed = new Promise<void>((resolve, reject) => {
    const fail = (error: AppError) => {
      ctx.req.unpipe(parser);
      reject(error);
    };
    parser.on('file', (name, stream, info) => {
      if (name !== field) {
        stream.resume();
        return fail(badRequest(`Unexpected file part "${name}": send the file in a part named "${field}"`));
      }
      file = { filename: info.filename ?? '', mimetype: info.mimeType, encoding: info.encoding };
      stream.once('limit', () => {
        const error = tooLarge();
        stream.destroy(error);
        fail(error);
      });
      writing = pipeline(stream, createWriteStream(path)).catch(() => {});
    });
    parser.once('filesLimit', () => fail(badRequest(`Send exactly one file, in the part "${field}"`)));
    parser.once('partsLimit', () => fail(badRequest('Too many parts in the multipart body')));
    parser.once('fieldsLimit', () => fail(badRequest('Too many fields in the multipart body')));
    parser.once('error', (error) => fail(badRequest(`Malformed multipart body: ${(error as Error).message}`)));
    parser.once('close', () => resolve());
  });
  ctx.req.pipe(parser);
  try {
    await parsed;
    await writing;
  } catch (error) {
    // Answer now; the partial temporary file goes once its writer stops.
    void Promise.resolve(writing).finally(cleanup);
    throw error;
  }
  if (!file) {
    await cleanup();
    throw badRequest(`Missing file part "${field}"`);
  }
  const upload = new Upload() as Upload & { resolve(file: unknown): void };
  const { filename, mimetype, encoding } = file;
  upload.resolve({ filename, mimetype, encoding, localPath: path, createReadStream: () => createReadStream(path) });
  return { upload, cleanup };
}
