// The risk model's numbers in one place. A factor's contribution is
// round(weight × value), value in 0..1, so a weight is the most points a
// factor can give. Weights add up to more than 100 on purpose: one serious
// factor alone should reach MEDIUM or HIGH; the score is then capped at 100
// by an explicit "cap" entry, so contributions always add up to the score.
//
// Change RISK_MODEL_VERSION whenever a number here changes: stored
// assessments say which model produced them. (A new FATF list version does
// not change the model; the assessment records the list date instead.)

export const RISK_MODEL_VERSION = 'risk-model-1.0';

export type RiskFactorKey = 'sanctions' | 'pep' | 'adverseMedia' | 'countryRisk' | 'industry' | 'ownership' | 'documents';

/**
 * | factor        | weight | applies to | value 1 means                                            |
 * |---------------|-------:|------------|----------------------------------------------------------|
 * | sanctions     |     40 | all        | an undecided hit at score 1 (confirmed: PROHIBITED rule)  |
 * | pep           |     25 | all        | a confirmed PEP hit (undecided: 0.5); see the PEP floor    |
 * | adverseMedia  |     70 | all        | credible money-laundering/terrorism coverage (sev × rel.) |
 * | countryRisk   |     40 | all        | a call-for-action country (grey list: 0.75) × role        |
 * | industry      |     30 | business   | a high-risk NAICS sector (medium: 0.5)                    |
 * | ownership     |     40 | business   | opaque ownership (sum of the components below, max 1)    |
 * | documents     |     30 | all        | documents rejected and none verified (some verified: 0.5) |
 */
export const FACTOR_WEIGHTS: Record<RiskFactorKey, number> = {
  sanctions: 40,
  pep: 25,
  adverseMedia: 70,
  countryRisk: 40,
  industry: 30,
  ownership: 40,
  documents: 30,
};

export const FACTOR_LABELS: Record<RiskFactorKey, string> = {
  sanctions: 'Sanctions screening',
  pep: 'Politically exposed persons',
  adverseMedia: 'Adverse media',
  countryRisk: 'Country risk (FATF lists)',
  industry: 'Industry risk',
  ownership: 'Ownership opacity',
  documents: 'Document verification',
};

/** Factors for businesses only; consumer assessments leave them out. */
export const BUSINESS_ONLY_FACTORS: readonly RiskFactorKey[] = ['industry', 'ownership'];

/**
 * Factors whose absence keeps the level at MEDIUM or above ("incomplete"
 * rule): without them nothing says the subject is low risk. Adverse media
 * and industry, when missing, are reported as not assessed but do not hold
 * the level up on their own.
 */
export const REQUIRED_FACTORS: readonly RiskFactorKey[] = ['sanctions', 'pep', 'countryRisk', 'documents', 'ownership'];

/**
 * Level bands over the 0..100 score. PROHIBITED is not a band: it is set by
 * a confirmed sanctions match whatever the score (and the score is then 100).
 * | level  | score   |
 * |--------|---------|
 * | LOW    |  0 – 29 |
 * | MEDIUM | 30 – 59 |
 * | HIGH   | 60 – 100|
 */
export const LEVEL_FLOORS = { LOW: 0, MEDIUM: 30, HIGH: 60 } as const;

export const PEP_VALUES = { confirmed: 1, pending: 0.5 } as const;

/** FATF status → value; the grey list asks for a risk-based view, the black list for EDD or countermeasures. */
export const FATF_STATUS_VALUES = { CALL_FOR_ACTION: 1, INCREASED_MONITORING: 0.75 } as const;

/** How much a country counts by its link to the subject: the subject's own ties fully, a related party's less. */
export const COUNTRY_ROLE_WEIGHTS = {
  NATIONALITY: 1,
  RESIDENCE: 1,
  INCORPORATION: 1,
  OPERATION: 0.75,
  PARTY: 0.5,
} as const;

export const INDUSTRY_LEVEL_VALUES = { LOW: 0, MEDIUM: 0.5, HIGH: 1 } as const;

export const DOCUMENT_VALUES = { rejectedNoneVerified: 1, rejectedSomeVerified: 0.5 } as const;

/**
 * Ownership opacity: components add up, capped at 1.
 * - undisclosed share: percentage / 50 (half the business unaccounted for is fully opaque);
 * - no individual reaches the UBO threshold: 0.5;
 * - company layers above one: 0.25 per extra layer;
 * - parties without a country: 0.25 (their country risk cannot be assessed);
 * - circular ownership: 1.
 * A structure is "opaque" for the UBO_VERIFICATION rule when an undisclosed
 * share could hide an owner at the threshold, no owner reaches it, ownership
 * is circular, or there are at least three company layers.
 */
export const OWNERSHIP = {
  undisclosedFullAt: 50,
  noOwnerReachesThreshold: 0.5,
  perExtraLayer: 0.25,
  partiesWithoutCountry: 0.25,
  circular: 1,
  defaultThreshold: 25,
  opaqueFromLayers: 3,
} as const;

/**
 * Adverse-media categories → severity (0..1); a finding's value is
 * severity × relevance and the factor takes the strongest finding. Based on
 * the FATF's "designated categories of offences" (FATF Recommendations,
 * General Glossary): laundering, terrorist and proliferation financing and
 * sanctions evasion weigh most. Keys are normalized (upper case, `_` for
 * spaces and dashes); unknown categories count as OTHER and are reported.
 */
export const ADVERSE_MEDIA_SEVERITY: Record<string, number> = {
  // The media classifier's categories (src/screening/media/risk-lexicon.ts) first, then common synonyms.
  MONEY_LAUNDERING: 1,
  TERRORISM_FINANCING: 1,
  TERRORIST_FINANCING: 1,
  TERRORISM: 1,
  PROLIFERATION_FINANCING: 1,
  SANCTIONS_EVASION: 1,
  SANCTIONS: 1,
  ORGANIZED_CRIME: 0.9,
  DRUG_TRAFFICKING: 0.9,
  NARCOTICS: 0.9,
  HUMAN_TRAFFICKING: 0.9,
  ARMS_TRAFFICKING: 0.9,
  FRAUD: 0.8,
  BRIBERY_CORRUPTION: 0.8,
  MARKET_ABUSE: 0.7,
  TAX_CRIMES: 0.7,
  REGULATORY_ENFORCEMENT: 0.4,
  CORRUPTION: 0.8,
  BRIBERY: 0.8,
  TAX_CRIME: 0.7,
  TAX_EVASION: 0.7,
  CYBERCRIME: 0.7,
  ENVIRONMENTAL_CRIME: 0.6,
  REGULATORY: 0.4,
  REGULATORY_ACTION: 0.4,
  OTHER: 0.5,
};
