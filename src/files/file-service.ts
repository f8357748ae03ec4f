import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { TenantDatabase } from '../db/tenant.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import type { FileVisibility } from '../generated/prisma/enums.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { detectAllowedType } from './content-type.ts';
import { sanitizeFileName } from './file-name.ts';
import { brokenUpload, measure, spool } from './intake.ts';

/** What the multipart layers (REST and GraphQL) hand over for one file part. */
export interface FileUpload {
  filename: string;
  createReadStream(): Readable;
  /** Set when the bytes already sit in a local file (REST uploads): saves a copy. */
  localPath?: string;
}

export interface FileServiceOptions {
  store: ObjectStore;
  logger: Logger;
  maxUploadBytes: number;
  signedUrlTtlSeconds: number;
  /** Base address of this service, for public file links. */
  publicBaseUrl: () => string;
}

/** graphql-upload-minimal's createReadStream throws the error its part already met. */
function openUpload(createReadStream: () => Readable, maxBytes: number): Readable {
  try {
    return createReadStream();
  } catch (error) {
    throw brokenUpload(error, maxBytes);
  }
}

/** Keys are `<visibility>/<organization id>/<uuid>.<ext>`: the organization is part of every key. */
function ownedBy(key: string, organizationId: string): boolean {
  const [visibility, owner] = key.split('/');
  return (visibility === 'public' || visibility === 'private') && owner === organizationId;
}

/**
 * Uploads, links and deletions of stored files, keeping the `files` table and
 * the object store in step: the object is written before its row and removed
 * if the row cannot be written; on deletion the object goes first, so a
 * failure leaves the row (and a retry finishes the job).
 */
export class FileService {
  constructor(private readonly options: FileServiceOptions) {}

  /** Store failures are the store's, not the client's: 503, logged. */
  private async storage<T>(action: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      this.options.logger.error({ err: error, action }, 'file storage failed');
      throw new AppError('SERVICE_UNAVAILABLE', `File storage is unavailable (could not ${action}); try again later`);
    }
  }

  publicUrl(key: string): string {
    return `${this.options.publicBaseUrl()}/files/${key}`;
  }

  /** `query`: what the caller selects of the new record (Pothos' prisma query: include/select). */
  async upload(db: TenantDatabase, organizationId: string, visibility: FileVisibility, upload: Promise<FileUpload>, query: object = {}) {
    const maxBytes = this.options.maxUploadBytes;
    // The GraphQL multipart parser rejects the upload (or its stream) when the body breaks off or is malformed.
    const { filename, createReadStream, localPath } = await upload.catch((error: unknown) => {
      throw brokenUpload(error, maxBytes);
    });
    const spooled = localPath ? await measure(localPath, maxBytes) : await spool(openUpload(createReadStream, maxBytes), maxBytes);
    try {
      if (spooled.size === 0) throw invalidInput('file: must not be empty');
      const type = await detectAllowedType(spooled.path);
      const key = `${visibility.toLowerCase()}/${organizationId}/${randomUUID()}.${type.extension}`;
      await this.storage('store the file', () =>
        this.options.store.putFile(key, spooled.path, { contentType: type.mime, size: spooled.size, sha256: spooled.sha256 }),
      );
      try {
        return await db.storedFile.create({
          ...query,
          data: {
            organizationId, key, visibility, fileName: sanitizeFileName(filename),
            contentType: type.mime, size: spooled.size, sha256: spooled.sha256,
          },
        });
      } catch (error) {
        await this.options.store.delete(key).catch((cleanupError) => {
          this.options.logger.error({ err: cleanupError, key }, 'orphaned object: delete after failed insert failed');
        });
        throw error;
      }
    } finally {
      await spooled.remove();
    }
  }

  /** The file row of `key` in the caller's organization, else 404 (other organizations' keys included). */
  async find(db: TenantDatabase, organizationId: string, key: string) {
    const file = ownedBy(key, organizationId) ? await db.storedFile.findUnique({ where: { key } }) : null;
    if (!file) throw notFound(`File ${key} not found`);
    return file;
  }

  async signedUrl(db: TenantDatabase, organizationId: string, key: string, expiresInSeconds?: number | null) {
    const file = await this.find(db, organizationId, key);
    const ttl = expiresInSeconds ?? this.options.signedUrlTtlSeconds;
    const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + ttl * 1000);
    const url = await this.storage('sign the URL', () => this.options.store.signedGetUrl(file.key, ttl, file.fileName));
    return { url, expires };
  }

  /** Deletes the object and its row; the row's documents go with it (database cascade). */
  async delete(db: TenantDatabase, organizationId: string, key: string) {
    const file = await this.find(db, organizationId, key);
    const documents = await db.document.count({ where: { fileId: file.id } });
    await this.storage('delete the file', () => this.options.store.delete(file.key));
    await db.storedFile.delete({ where: { id: file.id } });
    return { file, deletedDocuments: documents };
  }
}
