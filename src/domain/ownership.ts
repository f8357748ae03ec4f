import { badRequest } from '../errors.ts';

// Effective (indirect) ownership of a business through layers of companies,
// the ultimate beneficial owners at a threshold, and control persons. Pure
// functions over the case's parties; the API stores parties and holdings.

export type PartyKind = 'INDIVIDUAL' | 'COMPANY';
export type PartyRole = 'BENEFICIAL_OWNER' | 'SHAREHOLDER' | 'DIRECTOR' | 'OFFICER' | 'AUTHORIZED_SIGNATORY' | 'CONTROLLING_PERSON';

export interface OwnershipParty {
  id: string;
  name: string;
  kind: PartyKind;
  roles: PartyRole[];
}

/** `ownerId` holds `percentage` of `ownedId`: a company party, or the case's business itself (`ownedId` null). */
export interface Holding {
  ownerId: string;
  ownedId: string | null;
  percentage: number;
}

export interface OwnershipPath {
  /** From the owner down to the business: the owner first, then each company in between. */
  partyIds: string[];
  percentage: number;
}

export interface BeneficialOwner {
  partyId: string;
  name: string;
  effectivePercentage: number;
  paths: OwnershipPath[];
}

export interface OwnershipStructure {
  threshold: number;
  /** Effective share of the business held by each party, directly and through companies. */
  effective: Array<{ partyId: string; percentage: number }>;
  ultimateBeneficialOwners: BeneficialOwner[];
  /** Individuals who control the business by role rather than by shares. */
  controlPersons: Array<{ partyId: string; name: string; roles: PartyRole[] }>;
  /** True when no individual reaches the threshold (reviewers then identify senior managers). */
  noOwnerReachesThreshold: boolean;
  /** Shares whose holders were not entered: the business itself (`ownedId` null) or a company party. */
  undisclosed: Array<{ ownedId: string | null; percentage: number }>;
}

const CONTROL_ROLES: PartyRole[] = ['CONTROLLING_PERSON', 'DIRECTOR', 'OFFICER'];
/** Chains listed per beneficial owner: a layered structure can have millions; the share counts them all. */
export const MAX_PATHS = 100;
const EPSILON = 1e-9;
const round = (value: number) => Math.round(value * 1e4) / 1e4;

/**
 * Checks that a structure is possible: shares above 0 and at most 100, at
 * most 100% held in any one entity, only companies owned, no cycles. Throws a
 * 400 naming the problem.
 */
export function assertPossibleStructure(parties: OwnershipParty[], holdings: Holding[]): void {
  const byId = new Map(parties.map((p) => [p.id, p]));
  const name = (id: string | null) => (id === null ? 'the business' : (byId.get(id)?.name ?? id));
  for (const holding of holdings) {
    if (!Number.isFinite(holding.percentage) || holding.percentage <= 0 || holding.percentage > 100) {
      throw badRequest(`percentage: ${name(holding.ownerId)}'s share of ${name(holding.ownedId)} must be a number above 0 and at most 100`);
    }
    if (holding.ownerId === holding.ownedId) throw badRequest(`ownedBy: ${name(holding.ownerId)} cannot own itself`);
    const owned = holding.ownedId === null ? null : byId.get(holding.ownedId);
    if (holding.ownedId !== null && owned?.kind !== 'COMPANY') throw badRequest(`ownedBy: only companies have owners; ${name(holding.ownedId)} is an individual`);
  }
  const totals = new Map<string | null, number>();
  for (const holding of holdings) totals.set(holding.ownedId, (totals.get(holding.ownedId) ?? 0) + holding.percentage);
  for (const [ownedId, total] of totals) {
    if (total > 100 + EPSILON) throw badRequest(`percentage: the owners of ${name(ownedId)} hold ${round(total)}% together; at most 100% is possible`);
  }
  const cycle = findCycle(holdings);
  if (cycle) throw badRequest(`ownedBy: ownership is circular (${cycle.map(name).join(' → ')})`);
}

/** A cycle of ownership (owner → owned → ... → owner), if any. */
function findCycle(holdings: Holding[]): string[] | null {
  const owns = new Map<string, string[]>();
  for (const h of holdings) if (h.ownedId !== null) owns.set(h.ownerId, [...(owns.get(h.ownerId) ?? []), h.ownedId]);
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const next of owns.get(id) ?? []) {
      const found = visit(next);
      if (found) return found;
    }
    stack.pop();
    state.set(id, 'done');
    return null;
  };
  for (const id of owns.keys()) {
    const found = visit(id);
    if (found) return found;
  }
  return null;
}

/**
 * Effective ownership: a party's share of the business is the sum, over every
 * chain of holdings from it to the business, of the product of the shares
 * along the chain. Individuals at or above `threshold` percent are the
 * ultimate beneficial owners (with their chains, at most MAX_PATHS of them).
 */
export function computeOwnership(parties: OwnershipParty[], holdings: Holding[], threshold = 25): OwnershipStructure {
  assertPossibleStructure(parties, holdings);
  const heldBy = new Map<string, Holding[]>();
  for (const h of holdings) heldBy.set(h.ownerId, [...(heldBy.get(h.ownerId) ?? []), h]);
  // Each party's share once (memoized over the acyclic structure): the
  // number of chains can double with every layer of companies, the shares cannot.
  const shares = new Map<string, number>();
  const shareOf = (id: string): number => {
    let share = shares.get(id);
    if (share === undefined) {
      share = (heldBy.get(id) ?? []).reduce((sum, h) => sum + (h.ownedId === null ? h.percentage : (h.percentage * shareOf(h.ownedId)) / 100), 0);
      shares.set(id, share);
    }
    return share;
  };
  // The chains shown for an owner: at most MAX_PATHS, each leading to the
  // business (branches holding nothing of it are not walked).
  const chains = (id: string): OwnershipPath[] => {
    const found: OwnershipPath[] = [];
    const walk = (current: string, trail: string[], percentage: number) => {
      for (const h of heldBy.get(current) ?? []) {
        if (found.length >= MAX_PATHS) return;
        const share = (percentage * h.percentage) / 100;
        if (h.ownedId === null) found.push({ partyIds: [...trail, current], percentage: share });
        else if (shareOf(h.ownedId) > 0) walk(h.ownedId, [...trail, current], share);
      }
    };
    walk(id, [], 100);
    return found;
  };
  const effective = parties.map((party) => ({ party, percentage: shareOf(party.id) }));
  const ultimateBeneficialOwners = effective
    .filter((e) => e.party.kind === 'INDIVIDUAL' && e.percentage >= threshold - EPSILON)
    .sort((a, b) => b.percentage - a.percentage || a.party.name.localeCompare(b.party.name))
    .map((e) => ({
      partyId: e.party.id,
      name: e.party.name,
      effectivePercentage: round(e.percentage),
      paths: chains(e.party.id).map((p) => ({ partyIds: p.partyIds, percentage: round(p.percentage) })),
    }));
  const totals = new Map<string | null, number>([[null, 0]]);
  for (const party of parties) if (party.kind === 'COMPANY') totals.set(party.id, 0);
  for (const h of holdings) totals.set(h.ownedId, (totals.get(h.ownedId) ?? 0) + h.percentage);
  // A company that holds nothing in the structure does not matter for its owners' shares.
  const relevant = (ownedId: string | null) => ownedId === null || (heldBy.get(ownedId)?.length ?? 0) > 0;
  return {
    threshold,
    effective: effective.map((e) => ({ partyId: e.party.id, percentage: round(e.percentage) })),
    ultimateBeneficialOwners,
    controlPersons: parties
      .filter((p) => p.kind === 'INDIVIDUAL' && p.roles.some((r) => CONTROL_ROLES.includes(r)))
      .map((p) => ({ partyId: p.id, name: p.name, roles: p.roles.filter((r) => CONTROL_ROLES.includes(r)) })),
    noOwnerReachesThreshold: ultimateBeneficialOwners.length === 0,
    undisclosed: [...totals]
      .filter(([ownedId, total]) => relevant(ownedId) && total < 100 - EPSILON)
      .map(([ownedId, total]) => ({ ownedId, percentage: round(100 - total) })),
  };
}
