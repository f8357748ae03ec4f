import type { RiskFactorKey } from './model.ts';

// What the risk model reads and what it returns. The caller gathers the
// inputs from the case (screenings, decisions, documents, parties); the
// model itself reads nothing else, so an assessment can be recomputed from
// its stored inputs.

export type SubjectType = 'CONSUMER' | 'BUSINESS';

export type CountryRole = 'NATIONALITY' | 'RESIDENCE' | 'INCORPORATION' | 'OPERATION' | 'PARTY';

/**
 * Which lists the latest screenings searched for one kind of listing
 * (sanctions, PEPs). Absent in inputs stored before it was recorded.
 */
export interface ListCoverage {
  /** Lists of this kind searched (source ids). */
  lists?: string[];
  /** Every list searched, of any kind. */
  searched?: string[];
  /** Subjects (the case, each party) whose latest screening searched no list of this kind. */
  unscreenedSubjects?: number;
}

export interface RiskInput {
  subjectType: SubjectType;
  /** ISO 3166-1 alpha-2 codes with the subject's tie to each; PARTY: a related party's country. */
  countries: Array<{ code: string; role: CountryRole }>;
  /**
   * Sanctions-list hits of the subject and its parties: confirmed (true
   * matches), pending (undecided). bestPendingScore: the highest match score
   * (0..1) among pending hits; absent counts as 1. null: not screened.
   */
  sanctions: ({ confirmed: number; pending: number; bestPendingScore?: number } & ListCoverage) | null;
  /** PEP hits of the subject or of its parties. null: not screened. */
  pep: ({ confirmed: number; pending: number } & ListCoverage) | null;
  /** Findings with their category and relevance (0..1); [] screened and nothing found; null not screened. */
  adverseMedia: Array<{ category: string; relevance: number }> | null;
  /** Business only. */
  industry?: { naicsCode?: string };
  /** Business only; absent: no ownership structure recorded. */
  ownership?: {
    /** Share (0..100) of the business whose holders are not known. */
    undisclosedPercentage: number;
    noOwnerReachesThreshold: boolean;
    /** Longest chain of companies between the business and an individual owner (0: held by individuals directly). */
    companyLayers: number;
    partiesWithoutCountry: number;
    hasCircularOwnership?: boolean;
    /** UBO threshold in percent; 25 when absent. */
    threshold?: number;
  };
  /** Identity and company documents by verification outcome. */
  documents: { verified: number; rejected: number; pending: number };
}

/** PROHIBITED: a confirmed sanctions match, whatever the score. */
export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH' | 'PROHIBITED';

export type RiskOverrideKey = 'cap' | 'incompleteFloor' | 'pepFloor' | 'callForActionFloor' | 'sanctionsProhibited';

export interface RiskFactor {
  key: RiskFactorKey | RiskOverrideKey;
  label: string;
  /** FACTOR: contribution = round(weight × value). OVERRIDE: a rule moving the score; weight 0, value 1. */
  kind: 'FACTOR' | 'OVERRIDE';
  /** false: the input was missing; value and contribution are 0 and the explanation says why. */
  assessed: boolean;
  weight: number;
  /** 0..1 */
  value: number;
  /** Points; all contributions add up to riskScore. */
  contribution: number;
  explanation: string;
  details?: Record<string, unknown>;
}

export type EddItem = 'SOURCE_OF_FUNDS' | 'SOURCE_OF_WEALTH' | 'UBO_VERIFICATION' | 'SENIOR_APPROVAL';

export interface RiskAssessmentResult {
  /** Integer 0..100, the sum of the factors' contributions. */
  riskScore: number;
  level: RiskLevel;
  factors: RiskFactor[];
  /** Keys of the factors that could not be assessed for lack of input. */
  notAssessed: RiskFactorKey[];
  eddRequired: boolean;
  eddReasons: string[];
  eddChecklist: Array<{ item: EddItem; reason: string }>;
  modelVersion: string;
  /** Publication date of the FATF lists used; null when the date is before the first version. */
  fatfListDate: string | null;
}
