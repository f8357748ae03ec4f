// Audit records written before 20261203100000_audit_summaries: its one-time
// rewrite summarizes analyses' results and values over 128 KB (however well
// they compress), leaves the rest of the row and small values alone, changes
// nothing a second time, and leaves the trail append-only.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { expect, inject, it } from 'vitest';

const MIGRATION = readFileSync('prisma/migrations/20261203100000_audit_summaries/migration.sql', 'utf8');
const REWRITE = MIGRATION.slice(MIGRATION.indexOf('ALTER TABLE "audit_events" DISABLE'));

it('summarizes the bulk of records written before, once, and the trail stays append-only', async () => {
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  try {
    const org = '00000000-0000-4000-8000-0000000000a5';
    const analysis = { id: 'a', organization_id: org, status: 'SUCCEEDED', text_content: 'Invoice 42', result: { blocks: Array.from({ length: 2000 }, (_, i) => ({ Id: String(i), Text: 'word' })) } };
    const note = { id: 'n', organization_id: org, body: 'y'.repeat(200_000), pinned: false };
    const { rows: inserted } = await client.query<{ id: string }>(
      `INSERT INTO audit_events (organization_id, resource_type, action, after) VALUES
         ($1, 'document_analyses', 'CREATE', $2::jsonb), ($1, 'notes', 'CREATE', $3::jsonb), ($1, 'notes', 'CREATE', '{"body":"small"}'::jsonb)
       RETURNING id`,
      [org, JSON.stringify(analysis), JSON.stringify(note)],
    );
    const read = async () => (await client.query<{ after: Record<string, unknown> }>(
      'SELECT after FROM audit_events WHERE id = ANY($1::uuid[]) ORDER BY array_position($1::uuid[], id)', [inserted.map((row) => row.id)],
    )).rows.map((row) => row.after);

    await client.query(REWRITE);
    const [analysed, large, small] = await read();
    const summary = (bytes: unknown) => ({ omitted: 'too large for the audit trail', bytes, md5: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(analysed).toEqual({ id: 'a', organization_id: org, status: 'SUCCEEDED', text_content: summary(12), result: summary(expect.any(Number)) });
    expect(large).toEqual({ id: 'n', organization_id: org, body: summary(200_002), pinned: false });
    expect(small).toEqual({ body: 'small' });

    await client.query(REWRITE);
    expect(await read()).toEqual([analysed, large, small]);
    await expect(client.query('DELETE FROM audit_events WHERE id = $1', [inserted[0]!.id])).rejects.toThrow(/append-only/);
  } finally {
    await client.end();
  }
});
