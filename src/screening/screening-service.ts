import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import type { HitStatus, ScreeningTrigger } from '../generated/prisma/enums.ts';
import { CurrentIndex, type WatchlistIndex } from './current-index.ts';
import { carriedDecision, latestDecisions, outcomeOf } from './hit-review.ts';
import { ALGORITHM_VERSION, DEFAULT_THRESHOLD, type ScreeningHit } from './matching/name-index.ts';
import type { ScreeningRequest } from './subjects.ts';

/** Hits kept per screening: beyond this a name is too common to review hit by hit anyway. */
export const MAX_HITS = 25;

export interface ScreenOptions {
  organizationId: string;
  requestedBy: string;
  trigger?: ScreeningTrigger;
  /** Overrides the organization's threshold for this screening. */
  threshold?: number | null;
}

/** Finds a subject's hits in the current list versions (each name and alias), strongest first, one per entity. */
export function searchAll(watchlists: WatchlistIndex, request: ScreeningRequest, threshold: number): ScreeningHit[] {
  const best = new Map<string, ScreeningHit>();
  for (const name of [request.name, ...request.aliases]) {
    const hits = watchlists.index.search(
      { name, kind: request.kind, ...(request.birthDate ? { birthDate: request.birthDate } : {}), countries: request.countries, identifiers: request.identifiers },
      { threshold, limit: MAX_HITS },
    );
    for (const hit of hits) {
      const current = best.get(hit.entityId);
      if (!current || hit.score > current.score) best.set(hit.entityId, hit);
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, MAX_HITS);
}

/**
 * Runs screenings and records them: hits against the current list versions,
 * with reviewers' earlier decisions on the same subject applied while the
 * listed entity is unchanged.
 */
export class ScreeningService {
  readonly current: CurrentIndex;

  constructor(private readonly options: { db: Database; logger: Logger; sourceIds: () => readonly string[] }) {
    this.current = new CurrentIndex(options.db, options.sourceIds);
  }

  async threshold(db: TenantDatabase): Promise<number> {
    const settings = await db.screeningSettings.findFirst({ select: { threshold: true } });
    return settings?.threshold ?? DEFAULT_THRESHOLD;
  }

  /** Screens one subject and stores the screening with its hits; returns its id. */
  async screen(db: TenantDatabase, request: ScreeningRequest, options: ScreenOptions): Promise<string> {
    const watchlists = await this.current.get();
    const threshold = options.threshold ?? (await this.threshold(db));
    const hits = searchAll(watchlists, request, threshold);
    const priors = hits.length
      ? latestDecisions(
          await db.hitDecision.findMany({
            where: { subjectKey: request.subjectKey, OR: hits.map((h) => ({ sourceId: h.sourceId, externalId: h.externalId })) },
            orderBy: { createdAt: 'desc' },
          }),
        )
      : new Map();
    const statuses: HitStatus[] = [];
    const hitRows = hits.map((hit) => {
      const entry = watchlists.entities.get(hit.entityId)!;
      const carried = carriedDecision(priors.get(`${hit.sourceId}\u0000${hit.externalId}`), entry.fingerprint);
      statuses.push(carried.status);
      return {
        organizationId: options.organizationId,
        watchlistEntityId: hit.entityId,
        sourceId: hit.sourceId,
        listVersion: hit.listVersion,
        externalId: hit.externalId,
        entityFingerprint: entry.fingerprint,
        entityKind: hit.kind,
        primaryName: hit.primaryName,
        topics: entry.entity.topics,
        programs: entry.entity.programs,
        score: hit.score,
        algorithmVersion: hit.algorithmVersion,
        explanation: { ...hit.explanation, ...(carried.stale ? { previousDecision: carried.stale } : {}) } as object,
        status: carried.status,
        decisionId: carried.decisionId,
      };
    });
    const { subjectKey, target, name, aliases, kind, birthDate, countries, identifiers, consumerCaseId, businessCaseId, businessPartyId } = request;
    const screening = await db.screening.create({
      data: {
        target, subjectKey, name, aliases, kind, birthDate, countries, identifiers,
        consumerCaseId: consumerCaseId ?? null, businessCaseId: businessCaseId ?? null, businessPartyId: businessPartyId ?? null,
        threshold,
        algorithmVersion: ALGORITHM_VERSION,
        listVersions: watchlists.versions as unknown as object[],
        trigger: options.trigger ?? 'MANUAL',
        requestedBy: options.requestedBy,
        outcome: outcomeOf(statuses),
        hitCount: hitRows.length,
        organizationId: options.organizationId,
        hits: { create: hitRows },
      },
      select: { id: true },
    });
    return screening.id;
  }

  /** Records a reviewer's decision on a hit; it applies to later screenings of the same subject. */
  async decide(db: TenantDatabase, organizationId: string, hitId: string, decision: { status: 'TRUE_MATCH' | 'FALSE_POSITIVE'; reason: string; decidedBy: string }) {
    const hit = await db.screeningHit.findUniqueOrThrow({
      where: { id: hitId },
      include: { screening: { select: { subjectKey: true, hits: { select: { id: true, status: true } } } } },
    });
    const statuses = hit.screening.hits.map((h) => (h.id === hitId ? decision.status : h.status));
    // One statement: the decision, the hit and the screening's outcome change together.
    await db.screeningHit.update({
      where: { id: hitId },
      data: {
        status: decision.status,
        decision: {
          create: {
            organizationId,
            subjectKey: hit.screening.subjectKey,
            sourceId: hit.sourceId,
            externalId: hit.externalId,
            entityFingerprint: hit.entityFingerprint,
            decision: decision.status,
            reason: decision.reason,
            decidedBy: decision.decidedBy,
            hitId,
          },
        },
        screening: { update: { outcome: outcomeOf(statuses) } },
      },
    });
  }
}
