import type { TenantDatabase } from '../db/tenant.ts';
import { computeOwnership, type Holding, type OwnershipParty } from '../domain/ownership.ts';
import type { ListTopic } from '../screening/current-index.ts';
import type { RiskInput } from './types.ts';

// Gathers what the risk model reads from a case as it stands: the latest
// screening of each subject (the case and, for a business, each party) with
// the hits' decisions and adverse media, countries, industry, ownership and
// document outcomes.

type CaseRef = { consumerCaseId: string } | { businessCaseId: string };

interface LatestScreening {
  /** [{sourceId, loadId, topics}] as the screening recorded them; topics absent before they were recorded. */
  listVersions: unknown;
  mediaStatus: string;
  hits: Array<{ status: string; score: number; topics: string[] }>;
  mediaFindings: Array<{ categories: unknown; relevance: number }>;
}

async function latestScreenings(db: TenantDatabase, where: CaseRef): Promise<LatestScreening[]> {
  return db.screening.findMany({
    where,
    distinct: ['subjectKey'],
    orderBy: [{ subjectKey: 'asc' }, { createdAt: 'desc' }],
    select: { listVersions: true, mediaStatus: true, hits: { select: { status: true, score: true, topics: true } }, mediaFindings: { select: { categories: true, relevance: true } } },
  });
}

/** Which lists of one kind the screenings searched, and how many subjects were searched against none. */
function coverage(screenings: LatestScreening[], topic: ListTopic) {
  const lists = new Set<string>();
  const searched = new Set<string>();
  let unscreenedSubjects = 0;
  for (const screening of screenings) {
    const versions = (screening.listVersions ?? []) as Array<{ sourceId: string; topics?: string[] }>;
    for (const version of versions) searched.add(version.sourceId);
    // A version recorded without topics (before they were) proves nothing.
    const covering = versions.filter((version) => version.topics?.includes(topic));
    for (const version of covering) lists.add(version.sourceId);
    if (covering.length === 0) unscreenedSubjects++;
  }
  return { lists: [...lists].sort(), searched: [...searched].sort(), unscreenedSubjects };
}

/** Confirmed and open hits on one topic; cleared ones (FALSE_POSITIVE) do not count. */
function hitCounts(screenings: LatestScreening[], topic: ListTopic) {
  const hits = screenings.flatMap((s) => s.hits).filter((h) => h.topics.includes(topic));
  const pending = hits.filter((h) => h.status === 'PENDING');
  return {
    confirmed: hits.filter((h) => h.status === 'TRUE_MATCH').length,
    pending: pending.length,
    ...(pending.length ? { bestPendingScore: Math.max(...pending.map((h) => h.score)) } : {}),
    ...coverage(screenings, topic),
  };
}

function screeningInputs(screenings: LatestScreening[]): Pick<RiskInput, 'sanctions' | 'pep' | 'adverseMedia'> {
  if (screenings.length === 0) return { sanctions: null, pep: null, adverseMedia: null };
  const searched = screenings.filter((s) => s.mediaStatus === 'CHECKED');
  return {
    sanctions: hitCounts(screenings, 'sanction'),
    pep: hitCounts(screenings, 'pep'),
    adverseMedia: searched.length
      ? searched.flatMap((s) => s.mediaFindings.flatMap((f) => (f.categories as Array<{ category: string }>).map((c) => ({ category: c.category, relevance: f.relevance }))))
      : null,
  };
}

async function documentOutcomes(db: TenantDatabase, where: CaseRef): Promise<RiskInput['documents']> {
  const groups = await db.document.groupBy({ by: ['status'], where, _count: { _all: true } });
  const count = (...statuses: string[]) => groups.filter((g) => statuses.includes(g.status)).reduce((sum, g) => sum + g._count._all, 0);
  return { verified: count('VERIFIED'), rejected: count('REJECTED'), pending: count('UPLOADED', 'PROCESSING') };
}

/** Longest chain of companies between the business and any holder above them. */
function companyLayers(holdings: Holding[], parties: OwnershipParty[]): number {
  const companies = new Set(parties.filter((p) => p.kind === 'COMPANY').map((p) => p.id));
  const depth = new Map<string, number>();
  const depthOf = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    depth.set(id, 0); // the structure is acyclic (checked on write); this only guards the recursion
    const below = holdings.filter((h) => h.ownerId === id).map((h) => (h.ownedId === null ? 1 : depthOf(h.ownedId) + 1));
    const value = Math.max(0, ...below);
    depth.set(id, value);
    return value;
  };
  return Math.max(0, ...[...companies].map(depthOf));
}

export async function consumerRiskInput(db: TenantDatabase, consumerCaseId: string): Promise<RiskInput> {
  const row = await db.consumerCase.findUniqueOrThrow({ where: { id: consumerCaseId }, select: { nationality: true } });
  return {
    subjectType: 'CONSUMER',
    countries: row.nationality ? [{ code: row.nationality, role: 'NATIONALITY' }] : [],
    ...screeningInputs(await latestScreenings(db, { consumerCaseId })),
    documents: await documentOutcomes(db, { consumerCaseId }),
  };
}

export async function businessRiskInput(db: TenantDatabase, businessCaseId: string): Promise<RiskInput> {
  const row = await db.businessCase.findUniqueOrThrow({
    where: { id: businessCaseId },
    select: { jurisdictionCountry: true, registeredAddress: true, operatingAddress: true, industryCode: true },
  });
  const [parties, holdings] = await Promise.all([
    db.businessParty.findMany({ where: { businessCaseId }, select: { id: true, name: true, kind: true, roles: true, country: true } }),
    db.partyHolding.findMany({ where: { businessCaseId }, select: { ownerId: true, ownedId: true, percentage: true } }),
  ]);
  const countryOf = (address: unknown) => (address as { country?: string } | null)?.country;
  const countries: RiskInput['countries'] = [];
  const add = (code: string | null | undefined, role: RiskInput['countries'][number]['role']) => {
    if (code && !countries.some((c) => c.code === code && c.role === role)) countries.push({ code, role });
  };
  add(row.jurisdictionCountry, 'INCORPORATION');
  add(countryOf(row.registeredAddress), 'INCORPORATION');
  add(countryOf(row.operatingAddress), 'OPERATION');
  for (const party of parties) add(party.country, 'PARTY');

  let ownership: RiskInput['ownership'];
  if (parties.length) {
    const structure = computeOwnership(parties as OwnershipParty[], holdings as Holding[]);
    const individuals = new Set(parties.filter((p) => p.kind === 'INDIVIDUAL').map((p) => p.id));
    const known = structure.effective.filter((e) => individuals.has(e.partyId)).reduce((sum, e) => sum + e.percentage, 0);
    ownership = {
      // The share of the business whose ultimate individual holders are not known.
      undisclosedPercentage: Math.max(0, Math.round((100 - known) * 100) / 100),
      noOwnerReachesThreshold: structure.noOwnerReachesThreshold,
      companyLayers: companyLayers(holdings as Holding[], parties as OwnershipParty[]),
      partiesWithoutCountry: parties.filter((p) => !p.country).length,
      hasCircularOwnership: false,
      threshold: structure.threshold,
    };
  }
  return {
    subjectType: 'BUSINESS',
    countries,
    ...screeningInputs(await latestScreenings(db, { businessCaseId })),
    ...(row.industryCode ? { industry: { naicsCode: row.industryCode } } : {}),
    ...(ownership ? { ownership } : {}),
    documents: await documentOutcomes(db, { businessCaseId }),
  };
}
