import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import type { TenantDatabase } from '../db/tenant.ts';
import { AppError } from '../errors.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import type { HitStatus, ScreeningTrigger } from '../generated/prisma/enums.ts';
import { CurrentIndex, type WatchlistIndex } from './current-index.ts';
import { carriedDecision, entityKey, latestDecisions, outcomeOf } from './hit-review.ts';
import { ALGORITHM_VERSION, DEFAULT_THRESHOLD, type ScreeningHit } from './matching/name-index.ts';
import type { AdverseMediaFinding } from './media/screen-media.ts';
import { screenAdverseMedia } from './media/screen-media.ts';
import type { AdverseMediaProvider } from './media/provider.ts';
import type { ScreeningRequest } from './subjects.ts';

function mediaRow(providerId: string, finding: AdverseMediaFinding) {
  const published = finding.article.publishedAt ? new Date(finding.article.publishedAt) : null;
  return {
    providerId,
    articleId: finding.article.id,
    title: finding.article.title,
    summary: finding.article.summary ?? null,
    url: finding.article.url ?? null,
    source: finding.article.source ?? null,
    publishedAt: published && !Number.isNaN(published.getTime()) ? published : null,
    matchedText: finding.nameMatch.matchedText,
    nameScore: finding.nameMatch.score,
    categories: finding.categories.map(({ category, confidence, evidence }) => ({ category, confidence, evidence })),
    relevance: finding.relevance,
    classifierVersion: finding.classifierVersion,
  };
}

/** What a caller reads of the screening it asked for: Prisma's select or include (e.g. a GraphQL selection). */
export type ScreeningQuery = Pick<Prisma.ScreeningCreateArgs, 'select' | 'include'>;

export interface ScreeningSettings {
  threshold: number;
  adverseMedia: boolean;
}

/**
 * How long an organization's screening settings, once read, serve its
 * screenings on one instance: a read per screening cost more than the search.
 * A change made through this instance applies at once (settingsChanged);
 * each screening records the threshold it used.
 */
export const SETTINGS_TTL_MS = 1_000;

/** Hits kept per screening: beyond this a name is too common to review hit by hit anyway. */
export const MAX_HITS = 25;

export interface ScreenOptions {
  organizationId: string;
  requestedBy: string;
  trigger?: ScreeningTrigger;
  /** Overrides the organization's threshold for this screening. */
  threshold?: number | null;
  /** false: skip adverse media this time (default: the organization's setting). */
  adverseMedia?: boolean | null;
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
 * A new screening's relations that it was given no rows of are known to be
 * empty: they are left out of the read (each would cost a statement) and
 * answered as [].
 */
function withoutEmptyRelations(query: ScreeningQuery, created: { hits: number; mediaFindings: number }) {
  const key = query.select ? 'select' : 'include';
  const selection: Record<string, unknown> = { ...(query[key] ?? {}) };
  const known: Record<string, []> = {};
  for (const relation of ['hits', 'mediaFindings'] as const) {
    if (created[relation] === 0 && selection[relation]) {
      delete selection[relation];
      known[relation] = [];
    }
  }
  return { query: query[key] ? { [key]: selection } : {}, known };
}

/**
 * Runs screenings and records them: hits against the current list versions,
 * with reviewers' earlier decisions on the same subject applied while the
 * listed entity is unchanged.
 */
export class ScreeningService {
  readonly current: CurrentIndex;
  private readonly settingsCache: LRUCache<string, Promise<ScreeningSettings>>;

  constructor(
    private readonly options: {
      db: Database; logger: Logger; sourceIds: () => readonly string[]; media: AdverseMediaProvider | null;
      /** How long a check of the list versions and an organization's settings serve (defaults VERSION_CHECK_MS, SETTINGS_TTL_MS). */
      reuseMs?: { versions?: number; settings?: number };
    },
  ) {
    this.current = new CurrentIndex(options.db, options.sourceIds, options.reuseMs?.versions);
    this.settingsCache = new LRUCache({ max: 10_000, ttl: options.reuseMs?.settings ?? SETTINGS_TTL_MS });
  }

  async settings(db: TenantDatabase): Promise<ScreeningSettings> {
    const settings = await db.screeningSettings.findFirst({ select: { threshold: true, adverseMedia: true } });
    return { threshold: settings?.threshold ?? DEFAULT_THRESHOLD, adverseMedia: settings?.adverseMedia ?? true };
  }

  /** The organization's settings as its screenings use them: read at most once per SETTINGS_TTL_MS on this instance. */
  private recentSettings(db: TenantDatabase, organizationId: string): Promise<ScreeningSettings> {
    let settings = this.settingsCache.get(organizationId);
    if (!settings) {
      settings = this.settings(db);
      this.settingsCache.set(organizationId, settings);
      settings.catch(() => this.settingsCache.delete(organizationId));
    }
    return settings;
  }

  /** A change of the organization's settings applies to its next screening here (other instances: within SETTINGS_TTL_MS). */
  settingsChanged(organizationId: string) {
    this.settingsCache.delete(organizationId);
  }

  async threshold(db: TenantDatabase): Promise<number> {
    return (await this.settings(db)).threshold;
  }

  /** Adverse media about the subject; a provider failure is recorded, it does not fail the screening. */
  private async searchMedia(request: ScreeningRequest, threshold: number) {
    const provider = this.options.media!;
    try {
      const findings = await screenAdverseMedia(provider, { name: request.name, kind: request.kind, aliases: request.aliases }, { threshold });
      return { status: 'CHECKED' as const, error: null, rows: findings.map((finding) => mediaRow(provider.id, finding)) };
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message, provider: provider.id }, 'adverse media search failed; screening recorded without it');
      return { status: 'FAILED' as const, error: (error as Error).message.slice(0, 500), rows: [] };
    }
  }

  /** Screens one subject and stores the screening with its hits; returns its id. */
  async screen(db: TenantDatabase, request: ScreeningRequest, options: ScreenOptions): Promise<string> {
    return (await this.record(db, request, options, { select: { id: true } })).id;
  }

  /**
   * Screens one subject and returns the stored screening as `query` selects it
   * (a GraphQL selection), read back in the transaction that wrote it rather
   * than in one of its own.
   */
  screenAndRead<Q extends ScreeningQuery>(db: TenantDatabase, request: ScreeningRequest, options: ScreenOptions, query: Q): Promise<Prisma.ScreeningGetPayload<Q>> {
    return this.record(db, request, options, query) as Promise<Prisma.ScreeningGetPayload<Q>>;
  }

  private async record(db: TenantDatabase, request: ScreeningRequest, options: ScreenOptions, query: ScreeningQuery): Promise<{ id: string }> {
    const watchlists = await this.current.get();
    // "No hits" against no list at all would read as a clean result.
    if (watchlists.versions.length === 0) {
      throw new AppError('SERVICE_UNAVAILABLE', 'No watchlist version is loaded yet, so a screening would find nothing; see GET /v1/watchlists');
    }
    const settings = await this.recentSettings(db, options.organizationId);
    const threshold = options.threshold ?? settings.threshold;
    const wantsMedia = this.options.media !== null && (options.adverseMedia ?? settings.adverseMedia);
    // The media search waits on the network while the lists are searched here.
    const media = wantsMedia ? this.searchMedia(request, threshold) : null;
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
      const carried = carriedDecision(priors.get(entityKey(hit)), entry.fingerprint);
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
    const mediaResult = media ? await media : null;
    const mediaRows = (mediaResult?.rows ?? []).map((row) => ({ ...row, organizationId: options.organizationId }));
    const { subjectKey, target, name, aliases, kind, birthDate, countries, identifiers, consumerCaseId, businessCaseId, businessPartyId } = request;
    const { query: read, known } = withoutEmptyRelations(query, { hits: hitRows.length, mediaFindings: mediaRows.length });
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
        // Nested writes only when there is something to write: each adds work to the statement plan.
        ...(hitRows.length ? { hits: { createMany: { data: hitRows } } } : {}),
        mediaStatus: mediaResult?.status ?? 'NOT_REQUESTED',
        mediaError: mediaResult?.error ?? null,
        ...(mediaRows.length ? { mediaFindings: { createMany: { data: mediaRows } } } : {}),
      },
      ...read,
    } as Prisma.ScreeningCreateArgs);
    return Object.assign(screening, known);
  }

  /** Records a reviewer's decision on a hit (it applies to later screenings of the same subject); returns the screening's case links. */
  async decide(db: TenantDatabase, organizationId: string, hitId: string, decision: { status: 'TRUE_MATCH' | 'FALSE_POSITIVE'; reason: string; decidedBy: string }) {
    const hit = await db.screeningHit.findUniqueOrThrow({
      where: { id: hitId },
      include: { screening: { select: { subjectKey: true, consumerCaseId: true, businessCaseId: true, hits: { select: { id: true, status: true } } } } },
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
    return { consumerCaseId: hit.screening.consumerCaseId, businessCaseId: hit.screening.businessCaseId };
  }
}
