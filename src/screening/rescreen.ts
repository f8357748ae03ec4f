import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { forOrganization, type TenantDatabase } from '../db/tenant.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { assessCase } from '../risk/case-assessment.ts';
import { indexOf, listedEntityOf, type ListVersion, type WatchlistIndex } from './current-index.ts';
import { entityFingerprint } from './entity-fingerprint.ts';
import { entityKey } from './hit-review.ts';
import { type ScreeningService, searchAll } from './screening-service.ts';
import { currentSubject } from './subjects.ts';

export const RESCREEN_QUEUE = 'screening-rescreen';
export const LIST_UPDATE_REQUESTER = 'watchlist refresh';

/**
 * The entities a new list version added or changed, compared with the
 * version before it (by the publisher's id and content fingerprint).
 */
export async function changedEntities(db: Database, load: ListVersion): Promise<WatchlistIndex> {
  const current = await db.watchlistLoad.findUniqueOrThrow({ where: { id: load.loadId } });
  const previous = await db.watchlistLoad.findFirst({
    where: { sourceId: load.sourceId, status: 'LOADED', finishedAt: { lt: current.finishedAt } },
    orderBy: { finishedAt: 'desc' },
  });
  const before = new Map<string, string>();
  if (previous) {
    for (const row of await db.watchlistEntity.findMany({ where: { loadId: previous.id } })) before.set(row.externalId, entityFingerprint(listedEntityOf(row)));
  }
  const rows = await db.watchlistEntity.findMany({ where: { loadId: load.loadId } });
  // A first version changes nothing for subjects screened before it existed... except that it is all new.
  return indexOf(rows.filter((row) => before.get(row.externalId) !== entityFingerprint(listedEntityOf(row))), [load]);
}

export interface RescreenSummary {
  organizations: number;
  subjectsChecked: number;
  rescreened: number;
  tasksCreated: number;
}

/**
 * After a list refresh: every case subject screened before (its latest
 * screening) is searched against the added or changed entities only; those
 * with a possible match are screened again in full, and new open hits (not
 * in the previous screening, or changed since) open a review task on the case.
 */
export async function rescreenAfterListChange(
  deps: { db: Database; logger: Logger; screening: ScreeningService },
  loads: ListVersion[],
): Promise<RescreenSummary> {
  const summary: RescreenSummary = { organizations: 0, subjectsChecked: 0, rescreened: 0, tasksCreated: 0 };
  // The new versions may be younger than this instance's last check of them.
  await deps.screening.current.get({ fresh: true });
  const deltas = await Promise.all(loads.map((load) => changedEntities(deps.db, load)));
  if (deltas.every((delta) => delta.entities.size === 0)) return summary;
  const organizations = await deps.db.organization.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
  for (const { id: organizationId } of organizations) {
    const db = forOrganization(deps.db, organizationId, { actor: 'watchlist re-screening' });
    const latest = await db.screening.findMany({
      where: { target: { not: 'AD_HOC' } },
      distinct: ['subjectKey'],
      orderBy: [{ subjectKey: 'asc' }, { createdAt: 'desc' }],
      select: { id: true, target: true, consumerCaseId: true, businessCaseId: true, businessPartyId: true },
    });
    if (latest.length === 0) continue;
    summary.organizations++;
    const threshold = await deps.screening.threshold(db);
    for (const previous of latest) {
      const request = await currentSubject(db, previous);
      if (!request) continue;
      summary.subjectsChecked++;
      if (!deltas.some((delta) => searchAll(delta, request, threshold).length > 0)) continue;
      // Hits of the previous screening are read only for the few subjects the change concerns.
      const previousHits = await db.screeningHit.findMany({ where: { screeningId: previous.id }, select: { sourceId: true, externalId: true, entityFingerprint: true } });
      const screeningId = await deps.screening.screen(db, request, { organizationId, requestedBy: LIST_UPDATE_REQUESTER, trigger: 'LIST_UPDATE' });
      summary.rescreened++;
      if (await openReviewTask(db, screeningId, previousHits)) summary.tasksCreated++;
      const assessed = request.businessCaseId ? { businessCaseId: request.businessCaseId } : request.consumerCaseId ? { consumerCaseId: request.consumerCaseId } : null;
      if (assessed) await assessCase(db, organizationId, assessed, LIST_UPDATE_REQUESTER);
    }
  }
  deps.logger.info({ ...summary, loads }, 'cases re-screened after a watchlist change');
  return summary;
}

async function openReviewTask(
  db: TenantDatabase,
  screeningId: string,
  previousHits: Array<{ sourceId: string; externalId: string; entityFingerprint: string }>,
): Promise<boolean> {
  const known = new Set(previousHits.map((h) => `${entityKey(h)}\u0000${h.entityFingerprint}`));
  const screening = await db.screening.findUniqueOrThrow({ where: { id: screeningId }, include: { hits: { where: { status: 'PENDING' }, orderBy: { score: 'desc' } } } });
  const fresh = screening.hits.filter((h) => !known.has(`${entityKey(h)}\u0000${h.entityFingerprint}`));
  if (fresh.length === 0) return false;
  const lines = fresh.map((h) => `- ${h.primaryName} (${h.sourceId} ${h.externalId}), score ${h.score}`);
  await db.task.create({
    data: {
      title: `Review ${fresh.length} new watchlist hit${fresh.length === 1 ? '' : 's'} for ${screening.name}`,
      description: `A watchlist update matched ${screening.name}. Screening ${screening.id}:\n${lines.join('\n')}`,
      priority: 'HIGH',
      consumerCaseId: screening.target === 'CONSUMER_CASE' ? screening.consumerCaseId : null,
      businessCaseId: screening.businessCaseId,
    } as never,
  });
  return true;
}

/** Re-screens cases when a list changes: a queued job (one at a time, any instance, retried if interrupted). */
export const createRescreenQueue = (queue: JobQueue) =>
  queue.createQueue(RESCREEN_QUEUE, { name: RESCREEN_QUEUE, policy: 'singleton', retryLimit: 3, retryDelay: 30 });

export async function attachRescreening(queue: JobQueue, deps: { db: Database; logger: Logger; screening: ScreeningService }) {
  await createRescreenQueue(queue);
  await queue.process<{ loads: ListVersion[] }>(RESCREEN_QUEUE, { pollingIntervalSeconds: 2 }, async (job) => {
    await rescreenAfterListChange(deps, job.data.loads);
  });
}
