import lists from './data/fatf-lists.json' with { type: 'json' };

// The FATF's two public lists as dated versions (data/fatf-lists.json): a
// version is in force from its publication date until the next one, so an
// assessment made on a given day uses the lists published by then, and an
// old assessment can be re-explained with the lists of its day.

export type FatfStatus = 'CALL_FOR_ACTION' | 'INCREASED_MONITORING';

export interface FatfListVersion {
  /** YYYY-MM-DD: the day the FATF published both lists, at the end of its plenary. */
  publishedOn: string;
  plenary: string;
  /** "High-Risk Jurisdictions subject to a Call for Action" (black list). */
  callForAction: {
    countries: string[];
    /** Those the FATF calls on to apply countermeasures, not only enhanced due diligence. */
    countermeasures: string[];
    sourceUrl: string | null;
  };
  /** "Jurisdictions under Increased Monitoring" (grey list). */
  increasedMonitoring: { countries: string[]; sourceUrl: string | null };
  changes: { added: string[]; removed: string[] };
  /** The page the membership was checked against. */
  verifiedFrom: string;
  corroboratedBy: string[];
  note?: string;
}

export type FatfLookup =
  | {
      known: true;
      countryCode: string;
      status: FatfStatus | null;
      /** Call for action with countermeasures (not only enhanced due diligence). */
      countermeasures: boolean;
      versionDate: string;
      version: FatfListVersion;
    }
  | { known: false; countryCode: string; status: null; countermeasures: false; versionDate: null; reason: string };

/** Oldest first, whatever the file's order. */
export const FATF_LIST_VERSIONS: readonly FatfListVersion[] = [...(lists.versions as FatfListVersion[])].sort((a, b) =>
  a.publishedOn.localeCompare(b.publishedOn),
);

/** The UTC calendar day of a date, to compare with publication days. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The version in force on a date: the latest published on or before it; null before the first one. */
export function fatfVersionAt(asOf: Date): FatfListVersion | null {
  const day = utcDay(asOf);
  let current: FatfListVersion | null = null;
  for (const version of FATF_LIST_VERSIONS) {
    if (version.publishedOn > day) break;
    current = version;
  }
  return current;
}

/** Why nothing is known on a date before the first version. */
export const noFatfVersionReason = (asOf: Date) =>
  `no FATF list version on or before ${utcDay(asOf)} (the data starts ${FATF_LIST_VERSIONS[0]?.publishedOn ?? 'nowhere'})`;

/** A country's status on the FATF lists in force on a date. Before the first version the status is unknown, not clean. */
export function fatfStatus(countryCode: string, asOf: Date): FatfLookup {
  const code = countryCode.trim().toUpperCase();
  const version = fatfVersionAt(asOf);
  if (!version) {
    return { known: false, countryCode: code, status: null, countermeasures: false, versionDate: null, reason: noFatfVersionReason(asOf) };
  }
  const status: FatfStatus | null = version.callForAction.countries.includes(code)
    ? 'CALL_FOR_ACTION'
    : version.increasedMonitoring.countries.includes(code)
      ? 'INCREASED_MONITORING'
      : null;
  return {
    known: true,
    countryCode: code,
    status,
    countermeasures: status === 'CALL_FOR_ACTION' && version.callForAction.countermeasures.includes(code),
    versionDate: version.publishedOn,
    version,
  };
}
