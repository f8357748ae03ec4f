import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/client.ts';
import { EVENT_TYPES, type EventType } from '../../src/webhooks/event-types.ts';
import { emitOverdueTasks } from '../../src/webhooks/overdue-tasks.ts';

/** A timestamp as PostgreSQL writes it in JSON: trailing zeros of the fraction dropped (".200" is ".2", ".000" nothing), offset +00:00. */
const asPostgresJson = (date: Date) => date.toISOString().replace(/\.(\d*?)0*Z$/, (_match, kept: string) => `${kept ? `.${kept}` : ''}+00:00`);

// Every type of the catalogue is produced by a real change here, written
// directly (as any code path would), so the triggers and the documented
// catalogue cannot drift apart.
let db: Database;
let organizationId: string;

beforeAll(async () => {
  db = createDatabase(inject('databaseUrl'), 2);
  organizationId = (await db.organization.create({ data: { name: `events-${randomUUID()}` } })).id;
});
afterAll(() => db.$disconnect());

const eventsOf = (resourceId: string) =>
  db.event.findMany({ where: { organizationId, resourceId }, orderBy: [{ transactionId: 'asc' }, { sequence: 'asc' }] });
const seen = new Set<string>();
async function expectEvents(resourceId: string, expected: Array<{ type: EventType; data: Record<string, unknown> }>) {
  const events = await eventsOf(resourceId);
  expect(events.map((e) => ({ type: e.type, data: e.data }))).toEqual(expected);
  for (const event of events) seen.add(event.type);
}

describe('domain events written by the database', () => {
  it('consumer and business cases: created, status_changed (only on a status change), deleted', async () => {
    const person = await db.consumerCase.create({ data: { organizationId, email: 'e@example.com' } });
    await db.consumerCase.update({ where: { id: person.id }, data: { firstName: 'Ann' } });
    await db.consumerCase.update({ where: { id: person.id }, data: { status: 'IN_REVIEW' } });
    await db.consumerCase.delete({ where: { id: person.id } });
    await expectEvents(person.id, [
      { type: 'consumer_case.created', data: { id: person.id, status: 'PENDING' } },
      { type: 'consumer_case.status_changed', data: { id: person.id, status: 'IN_REVIEW', previousStatus: 'PENDING' } },
      { type: 'consumer_case.deleted', data: { id: person.id, status: 'IN_REVIEW' } },
    ]);
    const company = await db.businessCase.create({ data: { organizationId, legalName: 'Events Ltd' } });
    await db.businessCase.update({ where: { id: company.id }, data: { status: 'APPROVED' } });
    await db.businessCase.delete({ where: { id: company.id } });
    await expectEvents(company.id, [
      { type: 'business_case.created', data: { id: company.id, status: 'PENDING' } },
      { type: 'business_case.status_changed', data: { id: company.id, status: 'APPROVED', previousStatus: 'PENDING' } },
      { type: 'business_case.deleted', data: { id: company.id, status: 'APPROVED' } },
    ]);
  });

  it('tasks: created, assigned, status_changed, overdue', async () => {
    const dueDate = new Date(Date.now() - 60_000);
    const task = await db.task.create({ data: { organizationId, title: 'Events', priority: 'HIGH', dueDate } });
    await db.taskAssignee.create({ data: { organizationId, taskId: task.id, userId: 'u-1' } });
    await db.task.update({ where: { id: task.id }, data: { status: 'IN_PROGRESS' } });
    await emitOverdueTasks(db);
    await expectEvents(task.id, [
      { type: 'task.created', data: { id: task.id, status: 'TODO', priority: 'HIGH', dueDate: asPostgresJson(dueDate) } },
      { type: 'task.assigned', data: { taskId: task.id, userId: 'u-1' } },
      { type: 'task.status_changed', data: { id: task.id, status: 'IN_PROGRESS', previousStatus: 'TODO' } },
      { type: 'task.overdue', data: { id: task.id, status: 'IN_PROGRESS', dueDate: asPostgresJson(dueDate) } },
    ]);
  });

  it('documents: created, analyzed (with the documents of the file)', async () => {
    const file = await db.storedFile.create({
      data: { organizationId, key: `private/${organizationId}/${randomUUID()}.pdf`, visibility: 'PRIVATE', fileName: 'a.pdf', contentType: 'application/pdf', size: 1, sha256: '0'.repeat(64) },
    });
    const document = await db.document.create({ data: { organizationId, fileId: file.id, type: 'PASSPORT' } });
    const analysis = await db.documentAnalysis.create({ data: { organizationId, fileId: file.id, kind: 'IDENTITY' } });
    await db.documentAnalysis.update({ where: { id: analysis.id }, data: { status: 'RUNNING' } });
    await db.documentAnalysis.update({ where: { id: analysis.id }, data: { status: 'SUCCEEDED' } });
    await expectEvents(document.id, [{ type: 'document.created', data: { id: document.id, type: 'PASSPORT', fileId: file.id } }]);
    await expectEvents(analysis.id, [
      { type: 'document.analyzed', data: { analysisId: analysis.id, fileId: file.id, kind: 'IDENTITY', status: 'SUCCEEDED', documentIds: [document.id] } },
    ]);
  });

  it('screenings: completed, hit_found (only with hits), hit_reviewed; risk assessments: completed', async () => {
    const load = await db.watchlistLoad.create({ data: { sourceId: 'test-source', status: 'LOADED', startedAt: new Date() } });
    const entity = await db.watchlistEntity.create({ data: { loadId: load.id, sourceId: 'test-source', externalId: randomUUID(), kind: 'Person', names: [], identifiers: [] } });
    const screening = (hitCount: number) => db.screening.create({
      data: {
        organizationId, target: 'AD_HOC', subjectKey: randomUUID(), name: 'Someone', kind: 'PERSON', threshold: 0.8, algorithmVersion: 't',
        listVersions: [], requestedBy: 'test', outcome: hitCount ? 'PENDING_REVIEW' : 'NO_HITS', hitCount,
      },
    });
    const clear = await screening(0);
    const hit = await screening(1);
    const row = await db.screeningHit.create({
      data: {
        organizationId, screeningId: hit.id, watchlistEntityId: entity.id, sourceId: 'test-source', listVersion: load.id, externalId: entity.externalId,
        entityFingerprint: '0'.repeat(64), entityKind: 'Person', primaryName: 'Someone', score: 0.9, algorithmVersion: 't', explanation: {},
      },
    });
    await db.screeningHit.update({ where: { id: row.id }, data: { status: 'FALSE_POSITIVE' } });
    const summary = (s: typeof hit) => ({ id: s.id, target: 'AD_HOC', trigger: 'MANUAL', outcome: s.outcome, hitCount: s.hitCount });
    await expectEvents(clear.id, [{ type: 'screening.completed', data: summary(clear) }]);
    await expectEvents(hit.id, [{ type: 'screening.completed', data: summary(hit) }, { type: 'screening.hit_found', data: summary(hit) }]);
    await expectEvents(row.id, [{ type: 'screening.hit_reviewed', data: { id: row.id, screeningId: hit.id, status: 'FALSE_POSITIVE', previousStatus: 'PENDING' } }]);

    const person = await db.consumerCase.create({ data: { organizationId, email: 'risk@example.com' } });
    const assessment = await db.riskAssessment.create({
      data: { organizationId, consumerCaseId: person.id, riskScore: 42, level: 'MEDIUM', factors: [], edd: {}, inputs: {}, modelVersion: 't', requestedBy: 'test' },
    });
    await expectEvents(assessment.id, [
      { type: 'risk_assessment.completed', data: { id: assessment.id, level: 'MEDIUM', riskScore: 42, consumerCaseId: person.id } },
    ]);
  });

  it('onboarding: submitted, checks_completed (not draft saves)', async () => {
    const person = await db.consumerCase.create({ data: { organizationId, email: 'onboard@example.com' } });
    const invitation = await db.onboardingInvitation.create({
      data: {
        organizationId, consumerCaseId: person.id, tokenHash: randomUUID().replaceAll('-', '').padEnd(64, '0'), email: 'onboard@example.com', fullName: 'On Board',
        fromAddress: 'a@b.co', senderCompanyName: 'B', requestedDocuments: ['IDENTITY_DOCUMENT'], expiresAt: new Date(Date.now() + 3_600_000), invitedBy: 'test',
      },
    });
    await db.onboardingInvitation.update({ where: { id: invitation.id }, data: { draft: { firstName: 'On' } } });
    const submittedAt = new Date();
    await db.onboardingInvitation.update({ where: { id: invitation.id }, data: { submittedAt } });
    await db.onboardingInvitation.update({ where: { id: invitation.id }, data: { checksCompletedAt: new Date() } });
    const onboarding = (await eventsOf(person.id)).filter((e) => e.type.startsWith('onboarding.'));
    expect(onboarding.map((e) => ({ type: e.type, data: e.data }))).toEqual([
      { type: 'onboarding.submitted', data: { consumerCaseId: person.id, invitationId: invitation.id, submittedAt: asPostgresJson(submittedAt) } },
      { type: 'onboarding.checks_completed', data: { consumerCaseId: person.id, invitationId: invitation.id } },
    ]);
    for (const event of onboarding) seen.add(event.type);
  });

  it('covered every type of the catalogue', () => {
    expect([...seen].sort()).toEqual(Object.keys(EVENT_TYPES).sort());
  });

  it('cannot be written or changed by the tenant role', async () => {
    const [event] = await db.event.findMany({ where: { organizationId }, take: 1 });
    const attempt = (statement: string) =>
      db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT set_config('role', 'compliance_tenant', TRUE), set_config('app.organization_id', ${organizationId}, TRUE)`;
        await tx.$executeRawUnsafe(statement);
      });
    await expect(attempt(`UPDATE events SET type = 'x' WHERE id = '${event!.id}'`)).rejects.toThrow(/permission denied/);
    await expect(attempt(`DELETE FROM events WHERE id = '${event!.id}'`)).rejects.toThrow(/permission denied/);
    await expect(attempt(`SELECT emit_event('${organizationId}', 'task.created', 'task', 'x', '{}')`)).rejects.toThrow(/permission denied/);
  });
});
