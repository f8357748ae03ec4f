import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import multer from '@koa/multer';
import { Upload } from 'graphql-upload-minimal';
import type { Context } from 'koa';
import { AppError, badRequest } from '../src/errors.ts';

const MULTIPART = /^multipart\/form-data\b/i;

function formatBytes(bytes: number) {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}

/**
 * Reads the one file part `field` of a multipart/form-data request into a
 * temporary file (streamed, stopped at `maxBytes`) and returns it as a
 * GraphQL `Upload`, plus a clean-up for after the response.
 */
export async function readFilePart(ctx: Context, field: string, maxBytes: number) {
  if (!MULTIPART.test(ctx.get('content-type'))) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be multipart/form-data with a part named "${field}"`);
  }
  // Refuse an announced oversize body before reading any of it.
  const announced = ctx.request.length;
  if (announced !== undefined && announced > maxBytes + 64 * 1024) {
    throw new AppError('PAYLOAD_TOO_LARGE', `${field}: must be at most ${formatBytes(maxBytes)}`);
  }
  const parse = multer({
    storage: multer.diskStorage({ destination: tmpdir() }),
    limits: { fileSize: maxBytes, files: 1, fields: 20, parts: 21, fieldSize: 64 * 1024 },
  }).single(field);
  try {
    await parse(ctx as never, async () => {});
  } catch (error) {
    throw multipartError(error as { code?: string; field?: string; message: string }, field, maxBytes);
  }
  const file = (ctx as unknown as { file?: { path: string; originalname: string; mimetype: string; encoding: string } }).file;
  if (!file) throw badRequest(`Missing file part "${field}"`);
  const upload = new Upload() as Upload & { resolve(file: unknown): void };
  upload.resolve({
    filename: file.originalname,
    mimetype: file.mimetype,
    encoding: file.encoding,
    createReadStream: () => createReadStream(file.path),
  });
  return { upload, cleanup: () => rm(file.path, { force: true }) };
}

function multipartError(error: { code?: string; field?: string; message: string }, field: string, maxBytes: number): AppError {
  switch (error.code) {
    case 'LIMIT_FILE_SIZE':
      return new AppError('PAYLOAD_TOO_LARGE', `${field}: must be at most ${formatBytes(maxBytes)}`);
    case 'LIMIT_FILE_COUNT':
      return badRequest(`Send exactly one file, in the part "${field}"`);
    case 'LIMIT_UNEXPECTED_FILE':
      return error.field === field
        ? badRequest(`Send exactly one file, in the part "${field}"`)
        : badRequest(`Unexpected file part "${error.field}": send the file in a part named "${field}"`);
    case 'LIMIT_PART_COUNT':
    case 'LIMIT_FIELD_COUNT':
    case 'LIMIT_FIELD_VALUE':
    case 'LIMIT_FIELD_KEY':
      return badRequest(`Too many or too large form fields: ${error.message}`);
    default:
      return badRequest(`Malformed multipart body: ${error.message}`);
  }
}
