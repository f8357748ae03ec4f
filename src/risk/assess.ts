import { eddRules } from './edd.ts';
import {
  adverseMediaFactor,
  countryFactor,
  documentsFactor,
  industryFactor,
  ownershipFactor,
  pepFactor,
  sanctionsFactor,
} from './factors.ts';
import { LEVEL_FLOORS, REQUIRED_FACTORS, RISK_MODEL_VERSION, type RiskFactorKey } from './model.ts';
import type { RiskAssessmentResult, RiskFactor, RiskInput, RiskLevel, RiskOverrideKey } from './types.ts';

// The assessment: factor points are added, then rules that move the score
// are applied in a fixed order, each as an explicit entry so that the
// contributions always add up to the score:
//   1. cap: the sum is cut to 100;
//   2. floors, lowest first: an incomplete assessment (a required factor not
//      assessed) and a PEP are at least MEDIUM; a country on the FATF
//      call-for-action list makes it at least HIGH;
//   3. a confirmed sanctions match sets the score to 100 and the level to
//      PROHIBITED: dealing with a designated person is forbidden by law
//      (asset freeze), which no risk appetite can accept. The name says the
//      relationship must not go on, unlike "BLOCKED", which in OFAC's use
//      describes frozen property rather than a decision on the customer.
// A floor that fires when the score is already high enough is still listed,
// with 0 points, so the reviewer sees every rule that applied.

const MAX_SCORE = 100;

function override(key: RiskOverrideKey, label: string, contribution: number, explanation: string): RiskFactor {
  return { key, label, kind: 'OVERRIDE', assessed: true, weight: 0, value: 1, contribution, explanation };
}

/** The band of a score (PROHIBITED is never a band). */
export function levelForScore(score: number): Exclude<RiskLevel, 'PROHIBITED'> {
  if (score >= LEVEL_FLOORS.HIGH) return 'HIGH';
  if (score >= LEVEL_FLOORS.MEDIUM) return 'MEDIUM';
  return 'LOW';
}

export function assessRisk(input: RiskInput, asOf: Date): RiskAssessmentResult {
  const business = input.subjectType === 'BUSINESS';
  const country = countryFactor(input.countries, asOf);
  const ownership = business ? ownershipFactor(input.ownership) : null;
  const factors: RiskFactor[] = [
    sanctionsFactor(input.sanctions),
    pepFactor(input.pep),
    adverseMediaFactor(input.adverseMedia),
    country.factor,
    ...(business ? [industryFactor(input.industry), ownership!.factor] : []),
    documentsFactor(input.documents),
  ];
  let score = factors.reduce((sum, f) => sum + f.contribution, 0);

  if (score > MAX_SCORE) {
    factors.push(override('cap', 'Score capped at 100', MAX_SCORE - score, `factors add up to ${score}; the score stops at ${MAX_SCORE}`));
    score = MAX_SCORE;
  }
  const floor = (key: RiskOverrideKey, label: string, level: 'MEDIUM' | 'HIGH', why: string) => {
    const target = LEVEL_FLOORS[level];
    const lift = Math.max(0, target - score);
    const explanation = lift
      ? `${why}: at least ${level}, score raised from ${score} to ${target}`
      : `${why}: at least ${level}, already met (score ${score})`;
    factors.push(override(key, label, lift, explanation));
    score += lift;
  };

  const notAssessed = factors.filter((f) => f.kind === 'FACTOR' && !f.assessed).map((f) => f.key as RiskFactorKey);
  const missingRequired = notAssessed.filter((key) => REQUIRED_FACTORS.includes(key));
  if (missingRequired.length) {
    floor('incompleteFloor', 'Incomplete assessment', 'MEDIUM', `not assessed: ${missingRequired.join(', ')}`);
  }
  if (input.pep && input.pep.confirmed > 0) {
    floor('pepFloor', 'Politically exposed person', 'MEDIUM', `${input.pep.confirmed} confirmed PEP match${input.pep.confirmed === 1 ? '' : 'es'}`);
  }
  const callForAction = country.listings.filter((l) => l.status === 'CALL_FOR_ACTION');
  if (callForAction.length) {
    const which = callForAction.map((l) => `${l.code} (${l.role})`).join(', ');
    floor('callForActionFloor', 'FATF call-for-action country', 'HIGH', `${which} on the FATF call-for-action list of ${callForAction[0]!.versionDate}`);
  }

  let level: RiskLevel = levelForScore(score);
  if (input.sanctions && input.sanctions.confirmed > 0) {
    factors.push(
      override(
        'sanctionsProhibited',
        'Confirmed sanctions match',
        MAX_SCORE - score,
        `${input.sanctions.confirmed} confirmed sanctions match${input.sanctions.confirmed === 1 ? '' : 'es'}: PROHIBITED whatever the other factors, score set to ${MAX_SCORE}`,
      ),
    );
    score = MAX_SCORE;
    level = 'PROHIBITED';
  }

  const edd = eddRules({
    subjectType: input.subjectType,
    level,
    riskScore: score,
    pep: input.pep,
    ownershipOpacity: ownership?.opacity ?? [],
    fatfListings: country.listings,
  });
  return {
    riskScore: score,
    level,
    factors,
    notAssessed,
    ...edd,
    modelVersion: RISK_MODEL_VERSION,
    fatfListDate: country.fatfListDate,
  };
}
