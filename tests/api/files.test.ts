import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { EMBEDDED_CREDENTIALS } from '../../src/storage/embedded-s3.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { REFUSED, SAMPLES, pdf, png } from '../helpers/sample-files.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { formWith, graphqlUpload, upload } from '../helpers/uploads.ts';
import { TEST_BUCKET } from '../setup/servers.ts';

let service: RunningService;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const s3 = (secretAccessKey = EMBEDDED_CREDENTIALS.secretAccessKey) =>
  new S3Client({
    endpoint: inject('s3Endpoint'), region: 'us-east-1', forcePathStyle: true,
    credentials: { accessKeyId: EMBEDDED_CREDENTIALS.accessKeyId, secretAccessKey },
  });

/** Object keys under `prefix`, read from the S3 server's own storage folder
 * (s3rver refuses signed bucket-level requests such as ListObjects). */
async function objectsUnder(prefix: string) {
  const root = join(inject('s3Directory'), TEST_BUCKET);
  const entries = await readdir(join(root, prefix), { recursive: true }).catch(() => [] as string[]);
  return entries.filter((name) => name.endsWith('._S3rver_object')).map((name) => prefix + name.replace('._S3rver_object', '')).sort();
}

async function objectExists(key: string) {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: TEST_BUCKET, Key: key }));
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  service = await startTestService({ env: { MAX_UPLOAD_BYTES: String(256 * 1024) } });
  org = await createOrganization(service.db);
  rest = restClient(service.url, org.key);
});
afterAll(() => service.stop());

describe('POST /v1/files/upload/public', () => {
  it('stores the file and returns a URL that works without authentication', async () => {
    const data = png(5000);
    const response = await upload(service.url, org.key, 'public', formWith([{ name: 'file', data, filename: 'selfie.png', type: 'image/png' }]));
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      fileKey: expect.stringMatching(new RegExp(`^public/${org.id}/[0-9a-f-]{36}\\.png$`)),
      url: `${service.url}/files/${response.body.fileKey}`,
      fileName: 'selfie.png', contentType: 'image/png', size: data.length, sha256: sha256(data),
    });
    const fetched = await fetch(response.body.url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('image/png');
    expect(fetched.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(data)).toBe(true);
  });
});

describe('POST /v1/files/upload/private and signed URLs', () => {
  let fileKey: string;
  const data = pdf();

  beforeAll(async () => {
    const response = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data, filename: 'passport.pdf' }]));
    expect(response.status).toBe(201);
    fileKey = response.body.fileKey;
    expect(response.body).toEqual({
      success: true, fileKey: expect.stringMatching(/^private\//), fileName: 'passport.pdf',
      contentType: 'application/pdf', size: data.length, sha256: sha256(data),
    });
    expect(response.body).not.toHaveProperty('url');
  });

  it('is not readable without a signature, directly or through the public path', async () => {
    expect((await fetch(`${inject('s3Endpoint')}/${TEST_BUCKET}/${fileKey}`)).status).toBe(403);
    expect((await fetch(`${service.url}/files/${fileKey}`)).status).toBe(404);
  });

  it('gives a signed URL that works without an API key until it expires', async () => {
    const response = await rest('GET', `/v1/files/signed-url?key=${encodeURIComponent(fileKey)}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, url: expect.any(String), expires: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/) });
    const expiresIn = Date.parse(response.body.expires) - Date.now();
    expect(expiresIn).toBeGreaterThan(890_000);
    expect(expiresIn).toBeLessThanOrEqual(900_000);
    const download = await fetch(response.body.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(data)).toBe(true);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="passport.pdf"');
  });

  it('refuses a tampered URL', async () => {
    const { url } = (await rest('GET', `/v1/files/signed-url?key=${encodeURIComponent(fileKey)}`)).body;
    const signature = new URL(url).searchParams.get('X-Amz-Signature')!;
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    expect((await fetch(url.replace(signature, flipped))).status).toBe(403);
    // A longer lifetime than signed: refused (S3 says 400 past its 7-day cap, 403 otherwise).
    expect([400, 403]).toContain((await fetch(url.replace('X-Amz-Expires=900', 'X-Amz-Expires=999999'))).status);
    expect((await fetch(url.replace('X-Amz-Expires=900', 'X-Amz-Expires=901'))).status).toBe(403);
    const otherKey = fileKey.replace(/[0-9a-f](?=\.pdf$)/, (c) => (c === '0' ? '1' : '0'));
    expect((await fetch(url.replace(fileKey, otherKey))).status).toBe(403);
  });

  it('refuses a URL signed with the wrong key', async () => {
    const forged = await getSignedUrl(s3('not-the-secret'), new GetObjectCommand({ Bucket: TEST_BUCKET, Key: fileKey }), { expiresIn: 600 });
    expect((await fetch(forged)).status).toBe(403);
  });

  it('refuses an expired URL', async () => {
    // Signing time is whole seconds, so a 1 s URL can be stale before a loaded machine fetches it.
    const response = await rest('GET', `/v1/files/signed-url?key=${encodeURIComponent(fileKey)}&expiresIn=4`);
    expect(response.status).toBe(200);
    expect((await fetch(response.body.url)).status).toBe(200);
    const pastExpiry = Date.parse(response.body.expires) + 1100 - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, pastExpiry)));
    expect(Date.parse(response.body.expires)).toBeLessThan(Date.now());
    expect((await fetch(response.body.url)).status).toBe(403);
  });

  it('validates the query', async () => {
    expect((await rest('GET', '/v1/files/signed-url')).body).toEqual({ statusCode: 400, message: 'key: is required', error: 'Bad Request' });
    expect((await rest('GET', `/v1/files/signed-url?key=${fileKey}&expiresIn=0`)).body.message).toBe('expiresIn: must be at least 1');
    expect((await rest('GET', `/v1/files/signed-url?key=${fileKey}&expiresIn=604801`)).status).toBe(400);
    const missing = await rest('GET', `/v1/files/signed-url?key=private/${org.id}/00000000-0000-0000-0000-000000000000.pdf`);
    expect(missing.status).toBe(404);
  });
});

describe('content type from the bytes', () => {
  it.each(Object.entries(SAMPLES))('accepts %s whatever the client claims', async (mime, data) => {
    const response = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data, filename: 'doc.txt', type: 'text/plain' }]));
    expect(response.status).toBe(201);
    expect(response.body.contentType).toBe(mime);
  });

  it('uses the detected type, not the header or the name', async () => {
    const response = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data: pdf(), filename: 'photo.png', type: 'image/png' }]));
    expect(response.body.contentType).toBe('application/pdf');
    expect(response.body.fileKey).toMatch(/\.pdf$/);
  });

  it.each(Object.entries(REFUSED))('refuses a %s with 415, storing nothing', async (_what, data) => {
    const before = await objectsUnder(`private/${org.id}/`);
    const rows = await service.db.storedFile.count({ where: { organizationId: org.id } });
    const response = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data, filename: 'scan.png', type: 'image/png' }]));
    expect(response.status).toBe(415);
    expect(response.body.statusCode).toBe(415);
    expect(response.body.message).toMatch(/^file: type not allowed \(.*\); allowed: PDF, PNG, JPEG, TIFF, WebP, HEIC, HEIF$/);
    expect(await objectsUnder(`private/${org.id}/`)).toEqual(before);
    expect(await service.db.storedFile.count({ where: { organizationId: org.id } })).toBe(rows);
  });
});

describe('bad uploads', () => {
  it.each([
    ['no file part', formWith([], { note: 'hello' }), 400, 'Missing file part "file"'],
    ['two files', formWith([{ name: 'file', data: png() }, { name: 'file', data: png() }]), 400, 'Send exactly one file, in the part "file"'],
    ['a file under another name', formWith([{ name: 'document', data: png() }]), 400, 'Unexpected file part "document": send the file in a part named "file"'],
    ['an empty file', formWith([{ name: 'file', data: Buffer.alloc(0) }]), 400, 'file: must not be empty'],
    ['a file over the limit', formWith([{ name: 'file', data: png(300 * 1024) }]), 413, 'file: must be at most 262144 bytes'],
  ])('refuses %s', async (_what, form, status, message) => {
    const rows = await service.db.storedFile.count({ where: { organizationId: org.id } });
    const response = await upload(service.url, org.key, 'private', form);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ statusCode: status, message, error: expect.any(String) });
    expect(await service.db.storedFile.count({ where: { organizationId: org.id } })).toBe(rows);
  });

  it('answers 413 for an oversized chunked body before the body is complete', async () => {
    // A raw client that sends 1 MB of a never-ending chunked body and then
    // waits: a server that buffered the whole body first would never answer.
    const { port } = new URL(service.url);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    const boundary = 'x-boundary';
    socket.write(
      'POST /v1/files/upload/private HTTP/1.1\r\nHost: localhost\r\n' +
        `X-API-Key: ${org.key}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const writeChunk = (data: Buffer) => socket.write(`${data.length.toString(16)}\r\n${data.toString('latin1')}\r\n`, 'latin1');
    writeChunk(Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n\r\n`), png()]));
    for (let i = 0; i < 16; i++) writeChunk(Buffer.alloc(64 * 1024, 0x61));
    let received = '';
    socket.on('data', (data) => { received += data.toString(); });
    const deadline = Date.now() + 5000;
    while (!received.includes('\r\n\r\n') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('"message":"file: must be at most 262144 bytes"');
  });

  it('refuses an announced oversized body at once', async () => {
    const response = await fetch(`${service.url}/v1/files/upload/private`, {
      method: 'POST',
      headers: { 'x-api-key': org.key, 'content-type': 'multipart/form-data; boundary=z', 'content-length': String(50 * 1024 * 1024) },
      body: new ReadableStream({ start(c) { c.enqueue(Buffer.from('--z\r\n')); } }),
      duplex: 'half',
    } as RequestInit).catch((error) => error);
    // Either the 413 arrives or the server closes the connection on the unread body.
    if (response instanceof Response) expect(response.status).toBe(413);
    else expect(String(response)).toMatch(/fetch failed|socket|closed/i);
  });

  it('refuses a body that is not multipart with 415', async () => {
    const response = await rest('POST', '/v1/files/upload/public', { file: 'aGVsbG8=' });
    expect(response.status).toBe(415);
    expect(response.body.message).toBe('Content-Type must be multipart/form-data with a part named "file"');
  });

  it('keeps the original name only as sanitized metadata', async () => {
    const response = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data: png(), filename: '../../etc/passwd<x>|.png' }]));
    expect(response.status).toBe(201);
    expect(response.body.fileName).toBe('passwdx.png');
    expect(response.body.fileKey).not.toContain('passwd');
    const unicode = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data: png(), filename: 'Reisepass Müller.png' }]));
    expect(unicode.body.fileName).toBe('Reisepass Müller.png');
  });
});

describe('DELETE /v1/files/{key}', () => {
  it('deletes object and record; the key then answers 404 everywhere', async () => {
    const created = await upload(service.url, org.key, 'public', formWith([{ name: 'file', data: png() }]));
    const { fileKey, url } = created.body;
    expect(await objectExists(fileKey)).toBe(true);
    const response = await rest('DELETE', `/v1/files/${fileKey}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: `File ${fileKey} deleted` });
    expect(await objectExists(fileKey)).toBe(false);
    expect(await service.db.storedFile.count({ where: { key: fileKey } })).toBe(0);
    expect((await fetch(url)).status).toBe(404);
    expect((await rest('GET', `/v1/files/signed-url?key=${fileKey}`)).status).toBe(404);
    const again = await rest('DELETE', `/v1/files/${fileKey}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(`File ${fileKey} not found`);
  });
});

describe('another organization', () => {
  it('gets 404 for signed URLs and deletion of the first one\'s keys', async () => {
    const other = await createOrganization(service.db);
    const otherRest = restClient(service.url, other.key);
    const created = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data: pdf() }]));
    const { fileKey } = created.body;
    const signed = await otherRest('GET', `/v1/files/signed-url?key=${encodeURIComponent(fileKey)}`);
    expect(signed.status).toBe(404);
    expect(signed.body.message).toBe(`File ${fileKey} not found`);
    // Same key shape under its own namespace: still not the other's file.
    const disguised = fileKey.replace(org.id, other.id);
    expect((await otherRest('GET', `/v1/files/signed-url?key=${encodeURIComponent(disguised)}`)).status).toBe(404);
    const deleted = await otherRest('DELETE', `/v1/files/${fileKey}`);
    expect(deleted.status).toBe(404);
    expect(await objectExists(fileKey)).toBe(true);
    const gql = await graphqlClient(service.url, other.key)('mutation ($k: String!) { deleteFile(key: $k) { message } }', { k: fileKey });
    expect(gql.status).toBe(404);
    expect(gql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('GraphQL uploads (multipart request spec)', () => {
  it('uploads, signs and deletes with the same rules', async () => {
    const data = png(2000);
    const result = await graphqlUpload(service.url, org.key, 'mutation ($file: Upload!) { uploadPrivateFile(file: $file) { fileKey url contentType size sha256 fileName } }', data, 'id-front.png');
    expect(result.status).toBe(200);
    const file = result.data.uploadPrivateFile;
    expect(file).toMatchObject({ url: null, contentType: 'image/png', size: data.length, sha256: sha256(data), fileName: 'id-front.png' });
    const gql = graphqlClient(service.url, org.key);
    const signed = await gql('query ($k: String!) { signedFileUrl(key: $k, expiresIn: 60) { url expires } }', { k: file.fileKey });
    expect((await fetch(signed.data.signedFileUrl.url)).status).toBe(200);
    const deleted = await gql('mutation ($k: String!) { deleteFile(key: $k) { message fileKey deletedDocuments } }', { k: file.fileKey });
    expect(deleted.data.deleteFile).toEqual({ message: `File ${file.fileKey} deleted`, fileKey: file.fileKey, deletedDocuments: 0 });
  });

  it('gives public uploads their URL', async () => {
    const result = await graphqlUpload(service.url, org.key, 'mutation ($file: Upload!) { uploadPublicFile(file: $file) { url } }', png());
    expect((await fetch(result.data.uploadPublicFile.url)).status).toBe(200);
  });

  it('refuses bad files and missing keys like REST', async () => {
    const refused = await graphqlUpload(service.url, org.key, 'mutation ($file: Upload!) { uploadPublicFile(file: $file) { url } }', REFUSED['plain text']);
    expect(refused.status).toBe(415);
    expect(refused.errors[0].extensions.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = await graphqlUpload(service.url, org.key, 'mutation ($file: Upload!) { uploadPublicFile(file: $file) { url } }', png(300 * 1024));
    expect(big.status).toBe(413);
    const anonymous = await graphqlUpload(service.url, undefined, 'mutation ($file: Upload!) { uploadPublicFile(file: $file) { url } }', png());
    expect(anonymous.status).toBe(401);
    const readOnly = await createOrganization(service.db, ['files:read']);
    const forbidden = await graphqlUpload(service.url, readOnly.key, 'mutation ($file: Upload!) { uploadPublicFile(file: $file) { url } }', png());
    expect(forbidden.status).toBe(403);
  });
});
