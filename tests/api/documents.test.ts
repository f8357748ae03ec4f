import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { pdf, png } from '../helpers/sample-files.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { formWith, upload } from '../helpers/uploads.ts';
import { TEST_BUCKET } from '../setup/servers.ts';

let service: RunningService;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;
let gql: ReturnType<typeof graphqlClient>;
let consumerCaseId: string;
let businessCaseId: string;

async function stored(name: string, data = pdf()) {
  const response = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data, filename: name }]));
  expect(response.status).toBe(201);
  return response.body as { fileKey: string; size: number; sha256: string };
}

async function objectExists(key: string) {
  const entries = await readdir(join(inject('s3Directory'), TEST_BUCKET, key.split('/').slice(0, 2).join('/'))).catch(() => [] as string[]);
  return entries.includes(`${key.split('/')[2]}._S3rver_object`);
}

beforeAll(async () => {
  service = await startTestService();
  org = await createOrganization(service.db);
  rest = restClient(service.url, org.key);
  gql = graphqlClient(service.url, org.key);
  consumerCaseId = (await rest('POST', '/v1/consumer-cases', { email: 'docs@example.com' })).body.id;
  businessCaseId = (await service.db.businessCase.create({ data: { organizationId: org.id, legalName: 'Docs GmbH' } })).id;
});
afterAll(() => service.stop());

describe('POST /v1/documents', () => {
  it('registers an uploaded file with its metadata', async () => {
    const file = await stored('passport-scan.pdf');
    const response = await rest('POST', '/v1/documents', { fileKey: file.fileKey, type: 'PASSPORT', consumerCaseId });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String), fileKey: file.fileKey, fileName: 'passport-scan.pdf', contentType: 'application/pdf',
      size: file.size, sha256: file.sha256, type: 'PASSPORT', status: 'UPLOADED', consumerCaseId, businessCaseId: null,
      createdAt: expect.any(String), updatedAt: expect.any(String),
    });
  });

  it.each([
    [{ type: 'PASSPORT' }, 400, 'fileKey: is required'],
    [{ fileKey: 'x' }, 400, 'type: is required'],
    [{ fileKey: 'x', type: 'SELFIE' }, 400, 'type: must be one of ARTICLES_OF_ASSOCIATION, BANK_STATEMENT, CERTIFICATE_OF_INCORPORATION, DRIVERS_LICENSE, ID_CARD, OTHER, PASSPORT, PROOF_OF_ADDRESS, SHAREHOLDER_REGISTER'],
    [{ fileKey: 'private/nope/x.pdf', type: 'OTHER' }, 404, 'File private/nope/x.pdf not found'],
    [{ fileKey: 'x', type: 'OTHER', consumerCaseId: 'abc' }, 400, 'consumerCaseId: must be a UUID'],
  ])('refuses %j', async (body, status, message) => {
    const response = await rest('POST', '/v1/documents', body);
    expect(response.status).toBe(status);
    expect(response.body.message).toBe(message);
  });

  it('refuses links to unknown cases', async () => {
    const file = await stored('x.pdf');
    const missing = '01a2003f-4ee6-75ce-9a3a-148295411474';
    const response = await rest('POST', '/v1/documents', { fileKey: file.fileKey, type: 'OTHER', businessCaseId: missing });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(`Business case ${missing} not found`);
  });
});

describe('GET /v1/documents', () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    const fresh = await createOrganization(service.db);
    org = fresh;
    rest = restClient(service.url, fresh.key);
    gql = graphqlClient(service.url, fresh.key);
    consumerCaseId = (await rest('POST', '/v1/consumer-cases', { email: 'list@example.com' })).body.id;
    businessCaseId = (await service.db.businessCase.create({ data: { organizationId: fresh.id, legalName: 'List Ltd' } })).id;
    const create = async (name: string, body: Record<string, unknown>) =>
      (await rest('POST', '/v1/documents', { fileKey: (await stored(name)).fileKey, ...body })).body.id;
    ids = {
      passport: await create('Passport Anna.pdf', { type: 'PASSPORT', consumerCaseId }),
      utility: await create('Utility bill March.pdf', { type: 'PROOF_OF_ADDRESS', consumerCaseId, status: 'VERIFIED' }),
      register: await create('Handelsregister.pdf', { type: 'CERTIFICATE_OF_INCORPORATION', businessCaseId }),
    };
  });

  const listed = async (query: string) => {
    const response = await rest('GET', `/v1/documents${query}`);
    expect(response.status).toBe(200);
    return response.body.items.map((d: { id: string }) => d.id);
  };

  it('lists newest first with meta and filters', async () => {
    const all = await rest('GET', '/v1/documents');
    expect(all.body.success).toBe(true);
    expect(all.body.meta).toEqual({ total: 3, page: 1, limit: 10, totalPages: 1 });
    expect(await listed('')).toEqual([ids.register, ids.utility, ids.passport]);
    expect(await listed('?type=PASSPORT')).toEqual([ids.passport]);
    expect(await listed('?status=VERIFIED')).toEqual([ids.utility]);
    expect(await listed(`?consumerCaseId=${consumerCaseId}`)).toEqual([ids.utility, ids.passport]);
    expect(await listed(`?businessCaseId=${businessCaseId}`)).toEqual([ids.register]);
    expect(await listed('?search=bill%20march')).toEqual([ids.utility]);
    expect(await listed('?limit=1&page=3')).toEqual([ids.passport]);
    expect((await rest('GET', '/v1/documents?type=SELFIE')).status).toBe(400);
  });

  it('shows a case its documents in GraphQL', async () => {
    const result = await gql(`query ($id: ID!, $b: ID!) {
      consumerCase(id: $id) { documents { totalCount edges { node { type fileName file { fileKey } } } } }
      businessCase(id: $b) { documents { edges { node { id consumerCase { id } businessCase { legalName } } } } }
    }`, { id: consumerCaseId, b: businessCaseId });
    expect(result.data.consumerCase.documents.totalCount).toBe(2);
    expect(result.data.consumerCase.documents.edges.map((e: { node: { type: string } }) => e.node.type)).toEqual(['PROOF_OF_ADDRESS', 'PASSPORT']);
    expect(result.data.businessCase.documents.edges).toEqual([{ node: { id: ids.register, consumerCase: null, businessCase: { legalName: 'List Ltd' } } }]);
  });

  it('updates type, status and links', async () => {
    const updated = await rest('PATCH', `/v1/documents/${ids.passport}`, { status: 'VERIFIED', type: 'ID_CARD', consumerCaseId: null, businessCaseId });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ status: 'VERIFIED', type: 'ID_CARD', consumerCaseId: null, businessCaseId });
    expect((await rest('PATCH', `/v1/documents/${ids.passport}`, { type: null })).body.message).toBe('type: must not be null');
    expect((await rest('PATCH', `/v1/documents/${ids.passport}`, { fileKey: 'x' })).body.message).toBe('fileKey: is not a known field');
    expect((await rest('GET', `/v1/documents/${ids.passport}`)).body.type).toBe('ID_CARD');
  });
});

describe('deletion rules', () => {
  it('deleting a document deletes its file when no other document uses it', async () => {
    const file = await stored('single.pdf');
    const id = (await rest('POST', '/v1/documents', { fileKey: file.fileKey, type: 'OTHER' })).body.id;
    const deleted = await rest('DELETE', `/v1/documents/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(id);
    expect((await rest('GET', `/v1/documents/${id}`)).status).toBe(404);
    expect(await objectExists(file.fileKey)).toBe(false);
    expect((await rest('GET', `/v1/files/signed-url?key=${file.fileKey}`)).status).toBe(404);
  });

  it('keeps the file when another document uses it, or with keepFile=true', async () => {
    const file = await stored('shared.pdf');
    const first = (await rest('POST', '/v1/documents', { fileKey: file.fileKey, type: 'PASSPORT' })).body.id;
    const second = (await rest('POST', '/v1/documents', { fileKey: file.fileKey, type: 'PROOF_OF_ADDRESS' })).body.id;
    await rest('DELETE', `/v1/documents/${first}`);
    expect(await objectExists(file.fileKey)).toBe(true);
    expect((await rest('DELETE', `/v1/documents/${second}?keepFile=true`)).status).toBe(200);
    expect(await objectExists(file.fileKey)).toBe(true);
    expect((await rest('GET', `/v1/files/signed-url?key=${file.fileKey}`)).status).toBe(200);
    expect((await rest('DELETE', `/v1/documents/${second}?keepFile=maybe`)).body.message).toBe('keepFile: must be true or false');
  });

  it('deleting a file removes its document records', async () => {
    const file = await stored('with-docs.pdf', png());
    const a = (await rest('POST', '/v1/documents', { fileKey: file.fileKey, type: 'OTHER' })).body.id;
    const b = (await rest('POST', '/v1/documents', { fileKey: file.fileKey, type: 'BANK_STATEMENT' })).body.id;
    const response = await rest('DELETE', `/v1/files/${file.fileKey}`);
    expect(response.body).toEqual({ success: true, message: `File ${file.fileKey} deleted with 2 document record(s)` });
    expect((await rest('GET', `/v1/documents/${a}`)).status).toBe(404);
    expect((await rest('GET', `/v1/documents/${b}`)).status).toBe(404);
  });
});

describe('another organization', () => {
  it('cannot see, change, delete or register anything of the first', async () => {
    const file = await stored('secret.pdf');
    const id = (await rest('POST', '/v1/documents', { fileKey: file.fileKey, type: 'PASSPORT', consumerCaseId })).body.id;
    const other = await createOrganization(service.db);
    const otherRest = restClient(service.url, other.key);
    for (const [method, body] of [['GET'], ['PATCH', { status: 'REJECTED' }], ['DELETE']] as const) {
      const response = await otherRest(method, `/v1/documents/${id}`, body);
      expect(response.status).toBe(404);
      expect(response.body.message).toBe(`Document ${id} not found`);
    }
    expect((await otherRest('GET', '/v1/documents')).body.meta.total).toBe(0);
    expect((await otherRest('GET', `/v1/documents?consumerCaseId=${consumerCaseId}`)).body.items).toEqual([]);
    const steal = await otherRest('POST', '/v1/documents', { fileKey: file.fileKey, type: 'PASSPORT' });
    expect(steal.status).toBe(404);
    const otherFile = await upload(service.url, other.key, 'private', formWith([{ name: 'file', data: pdf() }]));
    const link = await otherRest('POST', '/v1/documents', { fileKey: otherFile.body.fileKey, type: 'OTHER', consumerCaseId });
    expect(link.status).toBe(404);
    expect((await rest('GET', `/v1/documents/${id}`)).body.status).toBe('UPLOADED');
    expect(await objectExists(file.fileKey)).toBe(true);
  });
});
