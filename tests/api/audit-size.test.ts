// The audit trail stays small to write and to read: an analysis' result and
// text are recorded as their size and checksum (not megabytes of blocks), any
// other value over 128 KB likewise, and reading events loads `before` and
// `after` only when they are selected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { textPdf } from '../helpers/sample-files.ts';
import { selectsOn } from '../helpers/sql-spy.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;
let analysisId: string;

beforeAll(async () => {
  service = await startTestService();
  org = await createOrganization(service.db, undefined, 'audit-size');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await textPdf([['Audit size sample', 'Invoice 42']]))]), 'sample.pdf');
  const file = await fetch(`${service.url}/v1/files/upload/private`, { method: 'POST', headers: { 'x-api-key': org.key }, body: form }).then((response) => response.json());
  const parsed = await restClient(service.url, org.key)('GET', `/v1/document-analysis/parse/${encodeURIComponent(file.fileKey)}`);
  expect(parsed.status).toBe(200);
  analysisId = (await service.db.documentAnalysis.findFirstOrThrow({ where: { organizationId: org.id }, orderBy: { createdAt: 'desc' } })).id;
}, 120_000);
afterAll(() => service?.stop());

const omitted = (bytes: unknown = expect.any(Number)) => ({ omitted: 'too large for the audit trail', bytes, md5: expect.stringMatching(/^[0-9a-f]{32}$/) });

describe('audit records of large rows', () => {
  it('record an analysis\' result and text as their size and checksum, the rest of the row as it is', async () => {
    const events = await restClient(service.url, org.key)('GET', `/v1/audit-events?resourceType=document_analyses&resourceId=${analysisId}`);
    const finished = events.body.items.find((e: { after: { status: string } }) => e.after?.status === 'SUCCEEDED');
    expect(finished.after).toMatchObject({ id: analysisId, status: 'SUCCEEDED', block_count: expect.any(Number), result: omitted(), text_content: omitted() });
    expect(JSON.stringify(finished)).not.toContain('Invoice 42');
    // The analysis itself keeps its whole result.
    const analysis = await service.db.documentAnalysis.findUniqueOrThrow({ where: { id: analysisId } });
    expect(analysis.textContent).toContain('Invoice 42');
  });

  it('record any value over 128 KB as its size and checksum', async () => {
    await service.db.documentAnalysis.update({ where: { id: analysisId }, data: { error: 'x'.repeat(200_000) } });
    const events = await restClient(service.url, org.key)('GET', `/v1/audit-events?resourceType=document_analyses&resourceId=${analysisId}&limit=1`);
    const [update] = events.body.items;
    // The JSON text of the value: 200,000 characters and its quotes.
    expect(update.after.error).toEqual(omitted(200_002));
    expect(update.before.error).toBeNull();
  });
});

describe('audit records of derived columns', () => {
  it('record a note\'s rendered HTML as its size and checksum, its body whole', async () => {
    const rest = restClient(service.url, org.key);
    const task = await rest('POST', '/v1/tasks', { title: 'Audited note' });
    const created = await rest('POST', '/v1/notes', { body: '# Heading\n\nSome *text*', format: 'MARKDOWN', taskId: task.body.id });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const events = await rest('GET', `/v1/audit-events?resourceType=notes&resourceId=${created.body.id}`);
    const [create] = events.body.items;
    expect(create.after).toMatchObject({ body: '# Heading\n\nSome *text*', body_html: { omitted: 'derived from the columns recorded beside it', bytes: expect.any(Number), md5: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    expect(JSON.stringify(create.after)).not.toContain('<h1>');
  });
});

describe('reading audit events', () => {
  const gql = () => graphqlClient(service.url, org.key);

  it('loads before and after only when they are selected', async () => {
    const idsOnly = await selectsOn('audit_events', async () => {
      const answer = await gql()('{ auditEvents(limit: 10) { items { id action } } }');
      expect(answer.errors).toBeUndefined();
      expect(answer.data.auditEvents.items.length).toBeGreaterThan(0);
    });
    const reads = idsOnly.filter((text) => !/count\(/i.test(text));
    expect(reads).toHaveLength(1);
    expect(reads[0]).not.toMatch(/"before"|"after"/);

    const withAfter = await selectsOn('audit_events', () => gql()('{ auditEvents(limit: 10) { items { id after } } }'));
    expect(withAfter.some((text) => /"after"/.test(text) && !/"before"/.test(text))).toBe(true);
  });
});
