import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export interface StoredObject {
  body: Readable;
  contentType: string | undefined;
  contentLength: number | undefined;
}

/**
 * The file store: one bucket of an S3-compatible service, reached only
 * through the AWS SDK, whether it is AWS S3, another S3 service or the
 * embedded server.
 */
export class ObjectStore {
  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {}

  /** Uploads a local file in one request (its size is known, so no buffering). */
  async putFile(key: string, path: string, options: { contentType: string; size: number; sha256: string }) {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(path),
        ContentLength: options.size,
        ContentType: options.contentType,
        Metadata: { sha256: options.sha256 },
      }),
    );
  }

  /** The object, or null when it does not exist. */
  async get(key: string): Promise<StoredObject | null> {
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { body: result.Body as Readable, contentType: result.ContentType, contentLength: result.ContentLength };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  /**
   * Throws unless the bucket answers this client: a HEAD of a key that does
   * not exist is a 404 when the store is reachable and the credentials are
   * good (bucket-level requests are not used: not every S3 server signs them alike).
   */
  async checkReachable(): Promise<void> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: 'health/readiness-probe' }));
    } catch (error) {
      const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (name === 'NotFound' || $metadata?.httpStatusCode === 404) return;
      throw error;
    }
  }

  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** A presigned GET that works without credentials until it expires. */
  signedGetUrl(key: string, expiresInSeconds: number, downloadName?: string) {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      // Plain ASCII only: some S3 servers (s3rver among them) encode ' * ( ) !
      // differently from the SDK when checking the signature.
      ...(downloadName ? { ResponseContentDisposition: `attachment; filename="${downloadName.replace(/[^\w .-]/g, '_')}"` } : {}),
    });
    return getSignedUrl(this.client, command, { expiresIn: expiresInSeconds });
  }
}

/** RFC 6266 header value with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
