import type { HitStatus, ScreeningOutcome } from '../generated/prisma/enums.ts';

export interface PriorDecision {
  id: string;
  sourceId: string;
  externalId: string;
  entityFingerprint: string;
  decision: HitStatus;
  reason: string;
  decidedBy: string;
  createdAt: Date;
}

/** A listed entity across list versions: the publisher's id within its source. */
export const entityKey = (hit: { sourceId: string; externalId: string }) => `${hit.sourceId}\u0000${hit.externalId}`;

/** The latest decision per listed entity (decisions come newest first). */
export function latestDecisions(decisions: PriorDecision[]): Map<string, PriorDecision> {
  const latest = new Map<string, PriorDecision>();
  for (const decision of decisions) {
    const key = entityKey(decision);
    if (!latest.has(key)) latest.set(key, decision);
  }
  return latest;
}

/**
 * A decision holds while the listed entity is unchanged; once the listing
 * changes (new alias, date of birth, identifier ...) the hit is open again,
 * and the explanation says which decision no longer applies.
 */
export function carriedDecision(prior: PriorDecision | undefined, fingerprint: string) {
  if (!prior) return { status: 'PENDING' as HitStatus, decisionId: null, stale: null };
  if (prior.entityFingerprint === fingerprint) return { status: prior.decision, decisionId: prior.id, stale: null };
  return {
    status: 'PENDING' as HitStatus,
    decisionId: null,
    stale: { decisionId: prior.id, decision: prior.decision, decidedBy: prior.decidedBy, decidedAt: prior.createdAt.toISOString(), reason: 'the listed entity changed since this decision' },
  };
}

/** A confirmed match outweighs everything; any open hit needs review; else all were cleared. */
export function outcomeOf(statuses: HitStatus[]): ScreeningOutcome {
  if (statuses.length === 0) return 'NO_HITS';
  if (statuses.includes('TRUE_MATCH')) return 'CONFIRMED_MATCH';
  if (statuses.includes('PENDING')) return 'PENDING_REVIEW';
  return 'CLEARED';
}
