import type { CountryListing } from './factors.ts';
import type { EddItem, RiskLevel, SubjectType } from './types.ts';

// Enhanced due diligence rules. Each rule that fires gives a reason and the
// checklist items it requires; an item required by several rules appears once
// with all their reasons. Grounds: FATF R.10 (INR.10 para. 20: EDD for
// higher-risk relationships), R.12 (PEPs: senior management approval, source
// of wealth and source of funds), R.19 (EDD for countries the FATF calls for),
// R.24/R.25 (beneficial ownership of legal persons and arrangements).

export const EDD_ITEMS: readonly EddItem[] = ['SOURCE_OF_FUNDS', 'SOURCE_OF_WEALTH', 'UBO_VERIFICATION', 'SENIOR_APPROVAL'];

/** What the caller turns into tasks, one per checklist item. */
export const EDD_TASKS: Record<EddItem, { title: string; description: string }> = {
  SOURCE_OF_FUNDS: {
    title: 'EDD: verify source of funds',
    description:
      'Establish where the money used in this relationship comes from (salary, sale of an asset, business revenue, loan...) and obtain evidence: bank statements, payslips, contracts, sale deeds. Record how the evidence matches the expected activity.',
  },
  SOURCE_OF_WEALTH: {
    title: 'EDD: verify source of wealth',
    description:
      "Establish how the customer's (or beneficial owners') overall wealth was built up (employment, business ownership, inheritance, investments) and corroborate it with independent evidence proportionate to the risk.",
  },
  UBO_VERIFICATION: {
    title: 'EDD: verify ultimate beneficial owners',
    description:
      'Business: identify every natural person who ultimately owns or controls it, through each layer of companies, and verify their identity from reliable independent sources (registers, certified documents); explain any undisclosed or circular shareholdings. Consumer: confirm that the customer acts on their own behalf, or identify and verify the person for whom they act.',
  },
  SENIOR_APPROVAL: {
    title: 'EDD: obtain senior management approval',
    description:
      'Have a member of senior management review the assessment and the EDD evidence, and approve (or refuse) establishing or continuing the relationship. Record the approver, the decision and its reasons.',
  },
};

export interface EddTriggers {
  subjectType: SubjectType;
  level: RiskLevel;
  riskScore: number;
  /** null: PEP screening not run (no rule fires; the incomplete-assessment rule covers it). */
  pep: { confirmed: number; pending: number } | null;
  /** Why the ownership is opaque (empty: not opaque); businesses only. */
  ownershipOpacity: string[];
  /** Countries of the subject found on the FATF lists. */
  fatfListings: CountryListing[];
}

export interface EddOutcome {
  eddRequired: boolean;
  eddReasons: string[];
  eddChecklist: Array<{ item: EddItem; reason: string }>;
}

export function eddRules(triggers: EddTriggers): EddOutcome {
  const reasonsByItem = new Map<EddItem, string[]>();
  const eddReasons: string[] = [];
  const require = (reason: string, items: readonly EddItem[]) => {
    eddReasons.push(reason);
    for (const item of items) reasonsByItem.set(item, [...(reasonsByItem.get(item) ?? []), reason]);
  };

  if (triggers.level === 'HIGH' || triggers.level === 'PROHIBITED') {
    require(`risk level ${triggers.level} (score ${triggers.riskScore})`, EDD_ITEMS);
  }
  // Only a confirmed PEP opens the checklist: an undecided hit is first a review
  // matter (most are namesakes), and deciding it re-assesses the case.
  const pep = triggers.pep;
  if (pep && pep.confirmed > 0) {
    require(`politically exposed person (${pep.confirmed} confirmed PEP hit${pep.confirmed === 1 ? '' : 's'})`, ['SOURCE_OF_FUNDS', 'SOURCE_OF_WEALTH', 'SENIOR_APPROVAL']);
  }
  if (triggers.subjectType === 'BUSINESS' && triggers.ownershipOpacity.length) {
    require(`opaque ownership: ${triggers.ownershipOpacity.join('; ')}`, ['UBO_VERIFICATION']);
  }
  for (const listing of triggers.fatfListings.filter((l) => l.status === 'CALL_FOR_ACTION')) {
    require(
      `${listing.code} (${listing.role}) is on the FATF call-for-action list of ${listing.versionDate}${listing.countermeasures ? ' (countermeasures)' : ''}`,
      EDD_ITEMS,
    );
  }

  const eddChecklist = EDD_ITEMS.flatMap((item) => {
    const reasons = reasonsByItem.get(item);
    return reasons ? [{ item, reason: reasons.join('; ') }] : [];
  });
  return { eddRequired: eddChecklist.length > 0, eddReasons, eddChecklist };
}
