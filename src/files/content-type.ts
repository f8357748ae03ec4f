import { fileTypeFromFile } from 'file-type';
import { AppError } from '../errors.ts';

/** Accepted document formats, by the MIME type detected from the bytes. */
export const ALLOWED_TYPES: Readonly<Record<string, { label: string; extension: string }>> = {
  'application/pdf': { label: 'PDF', extension: 'pdf' },
  'image/png': { label: 'PNG', extension: 'png' },
  'image/jpeg': { label: 'JPEG', extension: 'jpg' },
  'image/tiff': { label: 'TIFF', extension: 'tif' },
  'image/webp': { label: 'WebP', extension: 'webp' },
  'image/heic': { label: 'HEIC', extension: 'heic' },
  'image/heif': { label: 'HEIF', extension: 'heif' },
};

const ALLOWED_LABELS = [...new Set(Object.values(ALLOWED_TYPES).map((t) => t.label))].join(', ');

/** The file's real type from its content (magic numbers); 415 unless allowed. */
export async function detectAllowedType(path: string): Promise<{ mime: string; extension: string }> {
  const detected = await fileTypeFromFile(path);
  const allowed = detected ? ALLOWED_TYPES[detected.mime] : undefined;
  if (!detected || !allowed) {
    const what = detected ? `detected ${detected.mime}` : 'the content is not a recognised document or image format';
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `file: type not allowed (${what}); allowed: ${ALLOWED_LABELS}`);
  }
  return { mime: detected.mime, extension: allowed.extension };
}
