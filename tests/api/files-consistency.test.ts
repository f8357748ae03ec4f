// A failed storage write leaves no database record; a failed database write
// leaves no object in the store.
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { pdf } from '../helpers/sample-files.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';
import { formWith, upload } from '../helpers/uploads.ts';
import { TEST_BUCKET } from '../setup/servers.ts';

async function objectCount(prefix: string) {
  const entries = await readdir(join(inject('s3Directory'), TEST_BUCKET, prefix), { recursive: true }).catch(() => [] as string[]);
  return entries.filter((name) => name.endsWith('._S3rver_object')).length;
}

describe('when the store is down', () => {
  let service: RunningService;
  beforeAll(async () => {
    // Port 9 (discard) on loopback: nothing answers there.
    service = await startTestService({ env: { S3_ENDPOINT: 'http://127.0.0.1:9' } });
  });
  afterAll(() => service.stop());

  it('an upload answers 503 and writes no record', async () => {
    const org = await createOrganization(service.db);
    const response = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data: pdf() }]));
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      statusCode: 503,
      message: 'File storage is unavailable (could not store the file); try again later',
      error: 'Service Unavailable',
    });
    expect(await service.db.storedFile.count({ where: { organizationId: org.id } })).toBe(0);
  });
});

describe('when the database refuses the record', () => {
  const databaseName = `nofiles_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  let service: RunningService;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    const url = new URL(inject('databaseUrl'));
    url.pathname = `/${databaseName}`;
    service = await startTestService({ databaseUrl: url.toString() });
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query('REVOKE INSERT ON files FROM compliance_tenant');
    await client.end();
  });
  afterAll(async () => {
    await service.stop();
    await admin.query(`DROP DATABASE ${databaseName} WITH (FORCE)`);
    await admin.end();
  });

  it('an upload answers 500 and leaves no object behind', async () => {
    const org = await createOrganization(service.db);
    const response = await upload(service.url, org.key, 'private', formWith([{ name: 'file', data: pdf() }]));
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' });
    expect(await objectCount(`private/${org.id}`)).toBe(0);
  });
});
