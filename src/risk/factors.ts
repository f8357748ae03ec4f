import countries from 'i18n-iso-countries';
import { fatfStatus, fatfVersionAt, noFatfVersionReason } from './fatf.ts';
import { industryRisk } from './industry.ts';
import {
  ADVERSE_MEDIA_SEVERITY,
  COUNTRY_ROLE_WEIGHTS,
  DOCUMENT_VALUES,
  FACTOR_LABELS,
  FACTOR_WEIGHTS,
  FATF_STATUS_VALUES,
  INDUSTRY_LEVEL_VALUES,
  OWNERSHIP,
  PEP_VALUES,
  type RiskFactorKey,
} from './model.ts';
import type { CountryRole, ListCoverage, RiskFactor, RiskInput } from './types.ts';

// One function per factor: each turns one part of the input into a value
// (0..1) with an explanation a reviewer can check by hand. Missing input
// gives an unassessed factor (value 0, "not assessed: ..."), never a silent 0.

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
/** Integer points; toFixed first so that 0.9 × 70 = 63.000000000000001 stays 63. */
export const points = (weight: number, value: number) => Math.round(Number((weight * value).toFixed(9)));

function assessed(key: RiskFactorKey, value: number, explanation: string, details?: Record<string, unknown>): RiskFactor {
  const weight = FACTOR_WEIGHTS[key];
  const v = round4(clamp01(value));
  return { key, label: FACTOR_LABELS[key], kind: 'FACTOR', assessed: true, weight, value: v, contribution: points(weight, v), explanation, ...(details ? { details } : {}) };
}

function notAssessed(key: RiskFactorKey, why: string, details?: Record<string, unknown>): RiskFactor {
  return {
    key,
    label: FACTOR_LABELS[key],
    kind: 'FACTOR',
    assessed: false,
    weight: FACTOR_WEIGHTS[key],
    value: 0,
    contribution: 0,
    explanation: `not assessed: ${why}`,
    ...(details ? { details } : {}),
  };
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Which lists a hit count rests on, for the explanation; `missing` when no
 * list of the kind was searched for some subject, so that "no hits" there
 * means nothing. Inputs stored before coverage was recorded have no lists.
 */
function coverageOf(kind: string, input: ListCoverage) {
  if (input.lists === undefined) return { against: '', missing: null };
  const searched = input.searched?.length ? input.searched.join(', ') : 'none';
  const unscreened = input.unscreenedSubjects ?? 0;
  const missing = input.lists.length === 0
    ? `${kind} not screened: no ${kind} list among the lists searched (${searched})`
    : unscreened > 0 ? `${kind} not screened for ${count(unscreened, 'subject', 'subjects')}: screened against ${input.lists.join(', ')} for the others` : null;
  // Hits stand whatever else was searched; a subject searched against no such list is still said.
  return { against: `${input.lists.length ? `; screened against ${input.lists.join(', ')}` : ''}${unscreened > 0 ? `; ${count(unscreened, 'subject', 'subjects')} not screened for ${kind}` : ''}`, missing };
}

const coverageDetails = (input: ListCoverage) =>
  input.lists === undefined ? {} : { lists: input.lists, searched: input.searched ?? [], unscreenedSubjects: input.unscreenedSubjects ?? 0 };

export function sanctionsFactor(sanctions: RiskInput['sanctions']): RiskFactor {
  if (!sanctions) return notAssessed('sanctions', 'no sanctions screening');
  const { confirmed, pending } = sanctions;
  const { against, missing } = coverageOf('sanctions', sanctions);
  const lists = coverageDetails(sanctions);
  if (confirmed > 0) return assessed('sanctions', 1, `${count(confirmed, 'confirmed sanctions match', 'confirmed sanctions matches')}${against}`, { confirmed, pending, ...lists });
  if (pending > 0) {
    // An undecided hit counts at its match score; without one, as a certain match until someone decides.
    const score = sanctions.bestPendingScore === undefined ? 1 : clamp01(sanctions.bestPendingScore);
    return assessed('sanctions', score, `${count(pending, 'undecided sanctions hit', 'undecided sanctions hits')} (best score ${round4(score)})${against}`, { confirmed, pending, bestPendingScore: score, ...lists });
  }
  // No hits is a clean result only where a sanctions list was searched.
  if (missing) return notAssessed('sanctions', missing, { confirmed, pending, ...lists });
  return assessed('sanctions', 0, against ? `screened against ${sanctions.lists!.join(', ')}: no sanctions hits` : 'screened: no sanctions hits', { confirmed, pending, ...lists });
}

export function pepFactor(pep: RiskInput['pep']): RiskFactor {
  if (!pep) return notAssessed('pep', 'no PEP screening');
  const { against, missing } = coverageOf('PEP', pep);
  const details = { confirmed: pep.confirmed, pending: pep.pending, ...coverageDetails(pep) };
  if (pep.confirmed > 0) return assessed('pep', PEP_VALUES.confirmed, `${count(pep.confirmed, 'confirmed PEP match', 'confirmed PEP matches')}${against}`, details);
  if (pep.pending > 0) return assessed('pep', PEP_VALUES.pending, `${count(pep.pending, 'undecided PEP hit', 'undecided PEP hits')}${against}`, details);
  if (missing) return notAssessed('pep', missing, details);
  return assessed('pep', 0, against ? `screened against ${pep.lists!.join(', ')}: no PEP hits` : 'screened: no PEP hits', details);
}

const normalizeCategory = (category: string) =>
  category.trim().toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');

export function adverseMediaFactor(findings: RiskInput['adverseMedia']): RiskFactor {
  if (!findings) return notAssessed('adverseMedia', 'no adverse media screening');
  if (findings.length === 0) return assessed('adverseMedia', 0, 'screened: no adverse media');
  const unknownCategories = new Set<string>();
  const scored = findings.map((finding) => {
    const category = normalizeCategory(finding.category);
    let severity = ADVERSE_MEDIA_SEVERITY[category];
    if (severity === undefined) {
      unknownCategories.add(finding.category);
      severity = ADVERSE_MEDIA_SEVERITY.OTHER ?? 0.5;
    }
    const relevance = clamp01(finding.relevance);
    return { category, severity, relevance, value: round4(severity * relevance) };
  });
  const strongest = scored.reduce((best, s) => (s.value > best.value ? s : best));
  const label = strongest.category.toLowerCase().replaceAll('_', ' ');
  return assessed(
    'adverseMedia',
    strongest.value,
    `${count(findings.length, 'finding', 'findings')}; strongest: ${label} (severity ${strongest.severity} × relevance ${strongest.relevance} = ${strongest.value})`,
    { strongest, findings: scored, ...(unknownCategories.size ? { unknownCategories: [...unknownCategories], unknownCountedAs: 'OTHER' } : {}) },
  );
}

export interface CountryListing {
  code: string;
  role: CountryRole;
  status: 'CALL_FOR_ACTION' | 'INCREASED_MONITORING';
  countermeasures: boolean;
  versionDate: string;
}

export function countryFactor(
  subjectCountries: RiskInput['countries'],
  asOf: Date,
): { factor: RiskFactor; listings: CountryListing[]; fatfListDate: string | null } {
  const version = fatfVersionAt(asOf);
  const fatfListDate = version?.publishedOn ?? null;
  const entries = subjectCountries.map((c) => ({ code: c.code.trim().toUpperCase(), role: c.role }));
  // Alpha-2 only: isValid also accepts alpha-3 and numeric codes, which the FATF data does not use.
  const isAlpha2 = (code: string) => /^[A-Z]{2}$/.test(code) && countries.isValid(code);
  const unrecognized = entries.filter((c) => !isAlpha2(c.code)).map((c) => c.code);
  const known = entries.filter((c) => isAlpha2(c.code));
  const extra = unrecognized.length ? { unrecognized } : {};
  if (known.length === 0) {
    const why = entries.length ? `no recognizable country code (${unrecognized.join(', ')})` : 'no country recorded';
    return { factor: notAssessed('countryRisk', why, extra), listings: [], fatfListDate };
  }
  if (!version) {
    const why = `FATF status unknown: ${noFatfVersionReason(asOf)}`;
    return { factor: notAssessed('countryRisk', why, { countries: known, ...extra }), listings: [], fatfListDate };
  }
  const rows = known.map((c) => {
    const lookup = fatfStatus(c.code, asOf);
    const status = lookup.status;
    const roleWeight = COUNTRY_ROLE_WEIGHTS[c.role];
    const value = status ? round4(FATF_STATUS_VALUES[status] * roleWeight) : 0;
    return { code: c.code, role: c.role, status, countermeasures: lookup.countermeasures, roleWeight, value };
  });
  const listings: CountryListing[] = rows.flatMap((r) =>
    r.status ? [{ code: r.code, role: r.role, status: r.status, countermeasures: r.countermeasures, versionDate: version.publishedOn }] : [],
  );
  const value = Math.max(...rows.map((r) => r.value));
  const listed = rows.filter((r) => r.status).sort((a, b) => b.value - a.value);
  const explanation = listed.length
    ? `${listed
        .map((r) =>
          r.status === 'CALL_FOR_ACTION'
            ? `${r.code} (${r.role}) on the call-for-action list${r.countermeasures ? ' (countermeasures)' : ''}`
            : `${r.code} (${r.role}) grey-listed`,
        )
        .join('; ')} per FATF list of ${version.publishedOn}`
    : `none of ${rows.map((r) => `${r.code} (${r.role})`).join(', ')} is listed per FATF list of ${version.publishedOn}`;
  return {
    factor: assessed('countryRisk', value, explanation, { fatfListDate: version.publishedOn, countries: rows, ...extra }),
    listings,
    fatfListDate,
  };
}

export function industryFactor(industry: RiskInput['industry']): RiskFactor {
  const code = industry?.naicsCode?.trim();
  if (!code) return notAssessed('industry', 'no NAICS code');
  const risk = industryRisk(code);
  if (!risk) return notAssessed('industry', `"${code}" is not a NAICS code (2 to 6 digits)`);
  return assessed('industry', INDUSTRY_LEVEL_VALUES[risk.level], `${risk.level}: ${risk.reason}`, {
    naicsCode: risk.naicsCode,
    level: risk.level,
    matchedPrefix: risk.matched?.prefix ?? null,
  });
}

export function ownershipFactor(ownership: RiskInput['ownership']): { factor: RiskFactor; opacity: string[] } {
  if (!ownership) return { factor: notAssessed('ownership', 'no ownership structure recorded'), opacity: [] };
  const threshold = ownership.threshold ?? OWNERSHIP.defaultThreshold;
  const undisclosed = Math.min(100, Math.max(0, ownership.undisclosedPercentage));
  const components: Array<{ component: string; value: number }> = [];
  const opacity: string[] = [];
  if (undisclosed > 0) components.push({ component: `${undisclosed}% undisclosed`, value: round4(Math.min(1, undisclosed / OWNERSHIP.undisclosedFullAt)) });
  if (undisclosed >= threshold) opacity.push(`${undisclosed}% of the shares have undisclosed holders (UBO threshold ${threshold}%)`);
  if (ownership.noOwnerReachesThreshold) {
    components.push({ component: `no individual reaches ${threshold}%`, value: OWNERSHIP.noOwnerReachesThreshold });
    opacity.push(`no individual reaches the ${threshold}% UBO threshold`);
  }
  if (ownership.companyLayers > 1) {
    components.push({ component: `${ownership.companyLayers} company layers`, value: round4((ownership.companyLayers - 1) * OWNERSHIP.perExtraLayer) });
  }
  if (ownership.companyLayers >= OWNERSHIP.opaqueFromLayers) opacity.push(`${ownership.companyLayers} layers of companies`);
  if (ownership.partiesWithoutCountry > 0) {
    components.push({ component: `${count(ownership.partiesWithoutCountry, 'party', 'parties')} without a country`, value: OWNERSHIP.partiesWithoutCountry });
  }
  if (ownership.hasCircularOwnership) {
    components.push({ component: 'circular ownership', value: OWNERSHIP.circular });
    opacity.push('circular ownership');
  }
  const sum = round4(components.reduce((total, c) => total + c.value, 0));
  const value = Math.min(1, sum);
  const explanation = components.length
    ? `${components.map((c) => `${c.component} (${c.value})`).join(' + ')}${sum > 1 ? ` = ${sum}, capped at 1` : components.length > 1 ? ` = ${sum}` : ''}`
    : 'fully disclosed: owners identified, no complex layering';
  return { factor: assessed('ownership', value, explanation, { threshold, components, opacity }), opacity };
}

export function documentsFactor(documents: RiskInput['documents']): RiskFactor {
  const { verified, rejected, pending } = documents;
  const details = { verified, rejected, pending };
  if (verified + rejected + pending === 0) return notAssessed('documents', 'no documents', details);
  if (verified === 0 && rejected === 0) return notAssessed('documents', `${count(pending, 'document', 'documents')} awaiting verification`, details);
  if (rejected > 0 && verified === 0) return assessed('documents', DOCUMENT_VALUES.rejectedNoneVerified, `${rejected} rejected, none verified`, details);
  if (rejected > 0) return assessed('documents', DOCUMENT_VALUES.rejectedSomeVerified, `${rejected} rejected, ${verified} verified`, details);
  return assessed('documents', 0, `${verified} verified${pending ? `, ${pending} pending` : ''}, none rejected`, details);
}
