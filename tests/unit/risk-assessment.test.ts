// Risk assessment on realistic profiles; every expected number is worked out
// by hand in the comments from the weights in src/risk/model.ts
// (sanctions 40, pep 25, adverseMedia 70, countryRisk 40, industry 30,
// ownership 40, documents 30; bands LOW < 30 ≤ MEDIUM < 60 ≤ HIGH).
import countries from 'i18n-iso-countries';
import { describe, expect, it } from 'vitest';
import { assessRisk } from '../../src/risk/assess.ts';
import { EDD_ITEMS, EDD_TASKS } from '../../src/risk/edd.ts';
import { FATF_LIST_VERSIONS, fatfStatus } from '../../src/risk/fatf.ts';
import { industryRisk } from '../../src/risk/industry.ts';
import type { RiskAssessmentResult, RiskInput } from '../../src/risk/types.ts';

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

/** A consumer screened clean, German, with verified documents. */
const cleanConsumer = (): RiskInput => ({
  subjectType: 'CONSUMER',
  countries: [
    { code: 'DE', role: 'NATIONALITY' },
    { code: 'DE', role: 'RESIDENCE' },
  ],
  sanctions: { confirmed: 0, pending: 0 },
  pep: { confirmed: 0, pending: 0 },
  adverseMedia: [],
  documents: { verified: 2, rejected: 0, pending: 0 },
});

/** A German company in a low-risk industry (soybean farming), fully disclosed ownership. */
const cleanBusiness = (): RiskInput => ({
  subjectType: 'BUSINESS',
  countries: [{ code: 'DE', role: 'INCORPORATION' }],
  sanctions: { confirmed: 0, pending: 0 },
  pep: { confirmed: 0, pending: 0 },
  adverseMedia: [],
  industry: { naicsCode: '111110' },
  ownership: { undisclosedPercentage: 0, noOwnerReachesThreshold: false, companyLayers: 0, partiesWithoutCountry: 0 },
  documents: { verified: 3, rejected: 0, pending: 0 },
});

const factor = (result: RiskAssessmentResult, key: string) => {
  const found = result.factors.find((f) => f.key === key);
  if (!found) throw new Error(`no factor ${key}`);
  return found;
};
const contributions = (result: RiskAssessmentResult) => Object.fromEntries(result.factors.map((f) => [f.key, f.contribution]));
const items = (result: RiskAssessmentResult) => result.eddChecklist.map((e) => e.item);

/** Checked on every assessment below: the score is the sum of the entries, each factor is round(weight × value). */
function expectConsistent(result: RiskAssessmentResult) {
  expect(result.factors.reduce((sum, f) => sum + f.contribution, 0)).toBe(result.riskScore);
  expect(Number.isInteger(result.riskScore)).toBe(true);
  expect(result.riskScore).toBeGreaterThanOrEqual(0);
  expect(result.riskScore).toBeLessThanOrEqual(100);
  for (const f of result.factors.filter((f) => f.kind === 'FACTOR')) {
    expect(f.contribution).toBe(Math.round(f.weight * f.value));
    if (!f.assessed) expect(f.explanation).toMatch(/^not assessed: /);
  }
  expect(result.eddRequired).toBe(result.eddChecklist.length > 0);
}

describe('FATF lists as dated data', () => {
  it('has versions in date order, valid country codes, a verification source each, and no country on both lists', () => {
    const dates = FATF_LIST_VERSIONS.map((v) => v.publishedOn);
    expect(dates).toEqual([...new Set(dates)].sort());
    expect(dates[0]).toBe('2023-02-24');
    for (const v of FATF_LIST_VERSIONS) {
      const codes = [...v.callForAction.countries, ...v.increasedMonitoring.countries, ...v.changes.added, ...v.changes.removed];
      expect(codes.filter((c) => !countries.isValid(c)), v.publishedOn).toEqual([]);
      expect(v.verifiedFrom).toMatch(/^https?:\/\//);
      expect(v.callForAction.countries.filter((c) => v.increasedMonitoring.countries.includes(c))).toEqual([]);
      expect(v.callForAction.countermeasures.every((c) => v.callForAction.countries.includes(c))).toBe(true);
    }
  });

  it('records each grey list as the previous one with its announced additions and removals', () => {
    for (let i = 1; i < FATF_LIST_VERSIONS.length; i++) {
      const previous = FATF_LIST_VERSIONS[i - 1]!;
      const current = FATF_LIST_VERSIONS[i]!;
      const expected = new Set(previous.increasedMonitoring.countries);
      for (const code of current.changes.removed) expect(expected.delete(code), `${current.publishedOn} removes ${code}`).toBe(true);
      for (const code of current.changes.added) expected.add(code);
      expect([...current.increasedMonitoring.countries].sort(), current.publishedOn).toEqual([...expected].sort());
    }
  });

  it('answers with the version in force on the date: Nigeria grey-listed until October 2025, then not', () => {
    const before = fatfStatus('NG', day('2025-10-23'));
    expect(before).toMatchObject({ known: true, status: 'INCREASED_MONITORING', versionDate: '2025-06-13' });
    const after = fatfStatus('ng', day('2025-10-24'));
    expect(after).toMatchObject({ known: true, countryCode: 'NG', status: null, versionDate: '2025-10-24' });
  });

  it('switches on the publication day: Croatia added on 2023-06-23, removed on 2025-06-13', () => {
    expect(fatfStatus('HR', day('2023-06-22'))).toMatchObject({ status: null, versionDate: '2023-02-24' });
    expect(fatfStatus('HR', day('2023-06-23'))).toMatchObject({ status: 'INCREASED_MONITORING', versionDate: '2023-06-23' });
    expect(fatfStatus('HR', day('2025-06-12'))).toMatchObject({ status: 'INCREASED_MONITORING', versionDate: '2025-02-21' });
    expect(fatfStatus('HR', day('2025-06-13'))).toMatchObject({ status: null, versionDate: '2025-06-13' });
  });

  it('tells call for action with countermeasures (Iran) from call for enhanced due diligence (Myanmar)', () => {
    expect(fatfStatus('IR', day('2024-01-01'))).toMatchObject({ status: 'CALL_FOR_ACTION', countermeasures: true });
    expect(fatfStatus('MM', day('2024-01-01'))).toMatchObject({ status: 'CALL_FOR_ACTION', countermeasures: false });
  });

  it('says unknown, not clean, before the first version', () => {
    const lookup = fatfStatus('IR', day('2023-02-23'));
    expect(lookup.known).toBe(false);
    expect(lookup.status).toBeNull();
    expect(lookup.versionDate).toBeNull();
    if (!lookup.known) expect(lookup.reason).toContain('2023-02-24');
  });
});

describe('industry risk from NAICS codes', () => {
  it('covers longer codes by prefix and lets the longest prefix win', () => {
    // 5223 (MEDIUM) covers 522310; 522390 (HIGH) is its own entry.
    expect(industryRisk('5223')).toMatchObject({ level: 'MEDIUM', matched: { prefix: '5223' } });
    expect(industryRisk('522310')).toMatchObject({ level: 'MEDIUM', matched: { prefix: '5223' } });
    expect(industryRisk('522390')).toMatchObject({ level: 'HIGH', matched: { prefix: '522390' } });
    // 7132 covers casinos (713210) and other gambling (713290).
    expect(industryRisk('713210')).toMatchObject({ level: 'HIGH', matched: { prefix: '7132' } });
    expect(industryRisk('71329')).toMatchObject({ level: 'HIGH', matched: { prefix: '7132' } });
    // Securities (5231) are MEDIUM, currency exchange dealing (523160) HIGH.
    expect(industryRisk('523150')).toMatchObject({ level: 'MEDIUM', matched: { prefix: '5231' } });
    expect(industryRisk('523160')).toMatchObject({ level: 'HIGH', matched: { prefix: '523160' } });
  });

  it('does not read a broad code as one of its riskier industries', () => {
    // "52" (finance) is not "522390": a prefix entry only covers longer codes.
    expect(industryRisk('52')).toMatchObject({ level: 'LOW', matched: null });
    expect(industryRisk('111110')).toMatchObject({ level: 'LOW', matched: null });
  });

  it('rejects what is not a 2- to 6-digit code', () => {
    expect(industryRisk('5')).toBeNull();
    expect(industryRisk('5223901')).toBeNull();
    expect(industryRisk('52-53')).toBeNull();
  });
});

describe('risk assessment', () => {
  it('rates a clean domestic consumer LOW with every factor assessed', () => {
    const result = assessRisk(cleanConsumer(), day('2025-11-01'));
    expectConsistent(result);
    expect(result).toMatchObject({ riskScore: 0, level: 'LOW', notAssessed: [], eddRequired: false, eddChecklist: [], fatfListDate: '2025-10-24' });
    expect(result.factors.map((f) => f.key)).toEqual(['sanctions', 'pep', 'adverseMedia', 'countryRisk', 'documents']);
    expect(factor(result, 'countryRisk').explanation).toBe('none of DE (NATIONALITY), DE (RESIDENCE) is listed per FATF list of 2025-10-24');
  });

  it('rates a grey-listed nationality MEDIUM, naming the list, and LOW once the country leaves the list', () => {
    const input = { ...cleanConsumer(), countries: [{ code: 'NG', role: 'NATIONALITY' as const }, { code: 'DE', role: 'RESIDENCE' as const }] };
    // Nigeria grey-listed on 2024-06-01: 0.75 × role 1 = 0.75; 0.75 × 40 = 30 → MEDIUM.
    const listed = assessRisk(input, day('2024-06-01'));
    expectConsistent(listed);
    expect(listed).toMatchObject({ riskScore: 30, level: 'MEDIUM', fatfListDate: '2024-02-23', eddRequired: false });
    expect(factor(listed, 'countryRisk')).toMatchObject({ value: 0.75, contribution: 30, explanation: 'NG (NATIONALITY) grey-listed per FATF list of 2024-02-23' });
    // Removed on 2025-10-24.
    const delisted = assessRisk(input, day('2025-11-01'));
    expect(delisted).toMatchObject({ riskScore: 0, level: 'LOW', fatfListDate: '2025-10-24' });
  });

  it('counts a related party\'s grey-listed country at half', () => {
    const input = { ...cleanConsumer(), countries: [...cleanConsumer().countries, { code: 'NG', role: 'PARTY' as const }] };
    // 0.75 × 0.5 = 0.375; 0.375 × 40 = 15 → LOW.
    const result = assessRisk(input, day('2024-06-01'));
    expectConsistent(result);
    expect(result).toMatchObject({ riskScore: 15, level: 'LOW' });
    expect(factor(result, 'countryRisk').value).toBe(0.375);
  });

  it('lifts a confirmed PEP to MEDIUM by an explicit rule and opens the PEP checklist', () => {
    const result = assessRisk({ ...cleanConsumer(), pep: { confirmed: 1, pending: 0 } }, day('2025-11-01'));
    expectConsistent(result);
    // pep 1 × 25 = 25, floor to 30: +5.
    expect(result).toMatchObject({ riskScore: 30, level: 'MEDIUM' });
    expect(contributions(result)).toMatchObject({ pep: 25, pepFloor: 5 });
    expect(factor(result, 'pepFloor')).toMatchObject({ kind: 'OVERRIDE', explanation: '1 confirmed PEP match: at least MEDIUM, score raised from 25 to 30' });
    expect(items(result)).toEqual(['SOURCE_OF_FUNDS', 'SOURCE_OF_WEALTH', 'SENIOR_APPROVAL']);
    expect(result.eddChecklist[0]!.reason).toBe('politically exposed person (1 confirmed PEP hit)');
  });

  it('scores an undecided PEP hit but leaves the checklist to its review (deciding it re-assesses)', () => {
    const result = assessRisk({ ...cleanConsumer(), pep: { confirmed: 0, pending: 2 } }, day('2025-11-01'));
    expectConsistent(result);
    // 0.5 × 25 = 12.5 → 13; no floor for undecided hits.
    expect(result).toMatchObject({ riskScore: 13, level: 'LOW', eddRequired: false });
    expect(result.factors.some((f) => f.key === 'pepFloor')).toBe(false);
    expect(items(result)).toEqual([]);
  });

  it('makes a confirmed sanctions match PROHIBITED at 100, whatever the rest', () => {
    const result = assessRisk({ ...cleanConsumer(), sanctions: { confirmed: 1, pending: 0 } }, day('2025-11-01'));
    expectConsistent(result);
    // sanctions 40, then the rule adds 60.
    expect(result).toMatchObject({ riskScore: 100, level: 'PROHIBITED' });
    expect(contributions(result)).toMatchObject({ sanctions: 40, sanctionsProhibited: 60 });
    expect(items(result)).toEqual(EDD_ITEMS);
    expect(result.eddReasons).toEqual(['risk level PROHIBITED (score 100)']);
  });

  it('counts an undecided sanctions hit at its match score', () => {
    const result = assessRisk({ ...cleanConsumer(), sanctions: { confirmed: 0, pending: 1, bestPendingScore: 0.85 } }, day('2025-11-01'));
    expectConsistent(result);
    // 0.85 × 40 = 34 → MEDIUM; not PROHIBITED until confirmed.
    expect(result).toMatchObject({ riskScore: 34, level: 'MEDIUM' });
  });

  it('rates a money transmitter with 40% undisclosed ownership HIGH, with UBO verification', () => {
    const input: RiskInput = {
      ...cleanBusiness(),
      industry: { naicsCode: '522390' },
      ownership: { undisclosedPercentage: 40, noOwnerReachesThreshold: false, companyLayers: 1, partiesWithoutCountry: 0 },
    };
    const result = assessRisk(input, day('2025-11-01'));
    expectConsistent(result);
    // industry HIGH: 1 × 30 = 30; ownership 40 / 50 = 0.8 → 32; 62 → HIGH.
    expect(result).toMatchObject({ riskScore: 62, level: 'HIGH', notAssessed: [] });
    expect(contributions(result)).toEqual({ sanctions: 0, pep: 0, adverseMedia: 0, countryRisk: 0, industry: 30, ownership: 32, documents: 0 });
    expect(factor(result, 'ownership')).toMatchObject({ value: 0.8, explanation: '40% undisclosed (0.8)' });
    expect(items(result)).toEqual(EDD_ITEMS);
    const ubo = result.eddChecklist.find((e) => e.item === 'UBO_VERIFICATION')!;
    expect(ubo.reason).toBe('risk level HIGH (score 62); opaque ownership: 40% of the shares have undisclosed holders (UBO threshold 25%)');
  });

  it('asks for UBO verification alone when only the ownership is opaque', () => {
    const input: RiskInput = {
      ...cleanBusiness(),
      ownership: { undisclosedPercentage: 0, noOwnerReachesThreshold: true, companyLayers: 2, partiesWithoutCountry: 1 },
    };
    const result = assessRisk(input, day('2025-11-01'));
    expectConsistent(result);
    // 0.5 (no owner at 25%) + 0.25 (2 layers: one extra) + 0.25 (party without country) = 1 → 40 → MEDIUM.
    expect(result).toMatchObject({ riskScore: 40, level: 'MEDIUM' });
    expect(factor(result, 'ownership').value).toBe(1);
    expect(result.eddChecklist).toEqual([{ item: 'UBO_VERIFICATION', reason: 'opaque ownership: no individual reaches the 25% UBO threshold' }]);
  });

  it('rates credible money-laundering coverage HIGH from the strongest finding', () => {
    const input: RiskInput = {
      ...cleanConsumer(),
      adverseMedia: [
        { category: 'money laundering', relevance: 0.9 },
        { category: 'FRAUD', relevance: 0.5 },
      ],
    };
    const result = assessRisk(input, day('2025-11-01'));
    expectConsistent(result);
    // money laundering 1 × 0.9 = 0.9 beats fraud 0.8 × 0.5 = 0.4; 0.9 × 70 = 63 → HIGH.
    expect(result).toMatchObject({ riskScore: 63, level: 'HIGH' });
    expect(factor(result, 'adverseMedia').explanation).toBe('2 findings; strongest: money laundering (severity 1 × relevance 0.9 = 0.9)');
    expect(items(result)).toEqual(EDD_ITEMS);
  });

  it('counts an unknown adverse-media category as OTHER and says so', () => {
    const result = assessRisk({ ...cleanConsumer(), adverseMedia: [{ category: 'Piracy', relevance: 1 }] }, day('2025-11-01'));
    // OTHER 0.5 × 1 = 0.5 → 35 → MEDIUM.
    expect(result).toMatchObject({ riskScore: 35, level: 'MEDIUM' });
    expect(factor(result, 'adverseMedia').details).toMatchObject({ unknownCategories: ['Piracy'], unknownCountedAs: 'OTHER' });
  });

  it('makes a call-for-action country at least HIGH and opens the full checklist', () => {
    const input = { ...cleanConsumer(), countries: [{ code: 'MM', role: 'NATIONALITY' as const }] };
    const result = assessRisk(input, day('2025-11-01'));
    expectConsistent(result);
    // Myanmar: 1 × 40 = 40, floor to 60: +20.
    expect(result).toMatchObject({ riskScore: 60, level: 'HIGH' });
    expect(contributions(result)).toMatchObject({ countryRisk: 40, callForActionFloor: 20 });
    expect(result.eddReasons).toContain('MM (NATIONALITY) is on the FATF call-for-action list of 2025-10-24');
    expect(items(result)).toEqual(EDD_ITEMS);
  });

  it('caps the score at 100 with an explicit negative entry', () => {
    const input: RiskInput = {
      ...cleanBusiness(),
      countries: [{ code: 'IR', role: 'INCORPORATION' }],
      adverseMedia: [{ category: 'TERRORIST_FINANCING', relevance: 1 }],
    };
    const result = assessRisk(input, day('2025-11-01'));
    expectConsistent(result);
    // country 40 + media 70 = 110 → cap −10; the call-for-action floor (60) is already met.
    expect(result).toMatchObject({ riskScore: 100, level: 'HIGH' });
    expect(contributions(result)).toMatchObject({ countryRisk: 40, adverseMedia: 70, cap: -10, callForActionFloor: 0 });
    expect(factor(result, 'countryRisk').explanation).toBe('IR (INCORPORATION) on the call-for-action list (countermeasures) per FATF list of 2025-10-24');
  });

  it('reports missing inputs as not assessed and holds the level at MEDIUM', () => {
    const input: RiskInput = { ...cleanConsumer(), sanctions: null, adverseMedia: null, documents: { verified: 0, rejected: 0, pending: 0 } };
    const result = assessRisk(input, day('2025-11-01'));
    expectConsistent(result);
    // Nothing scores; sanctions and documents are required: floor to 30. Adverse media is not required.
    expect(result).toMatchObject({ riskScore: 30, level: 'MEDIUM', notAssessed: ['sanctions', 'adverseMedia', 'documents'] });
    expect(factor(result, 'documents')).toMatchObject({ assessed: false, explanation: 'not assessed: no documents' });
    expect(factor(result, 'incompleteFloor').explanation).toBe('not assessed: sanctions, documents: at least MEDIUM, score raised from 0 to 30');
  });

  it('does not treat documents still awaiting verification as verified', () => {
    const result = assessRisk({ ...cleanConsumer(), documents: { verified: 0, rejected: 0, pending: 2 } }, day('2025-11-01'));
    expect(result).toMatchObject({ riskScore: 30, level: 'MEDIUM', notAssessed: ['documents'] });
    expect(factor(result, 'documents').explanation).toBe('not assessed: 2 documents awaiting verification');
  });

  it('scores rejected documents: all rejected in full, some verified at half', () => {
    // 1 × 30 = 30; 0.5 × 30 = 15.
    expect(assessRisk({ ...cleanConsumer(), documents: { verified: 0, rejected: 1, pending: 0 } }, day('2025-11-01')).riskScore).toBe(30);
    expect(assessRisk({ ...cleanConsumer(), documents: { verified: 1, rejected: 1, pending: 0 } }, day('2025-11-01')).riskScore).toBe(15);
  });

  it('says the country risk is unknown before the first FATF version', () => {
    const result = assessRisk(cleanConsumer(), day('2022-12-31'));
    expectConsistent(result);
    expect(result).toMatchObject({ fatfListDate: null, notAssessed: ['countryRisk'], level: 'MEDIUM', riskScore: 30 });
    expect(factor(result, 'countryRisk').explanation).toBe(
      'not assessed: FATF status unknown: no FATF list version on or before 2022-12-31 (the data starts 2023-02-24)',
    );
  });

  it('does not take an alpha-3 code for a country it can look up', () => {
    const only = assessRisk({ ...cleanConsumer(), countries: [{ code: 'NGA', role: 'NATIONALITY' }] }, day('2024-06-01'));
    expect(factor(only, 'countryRisk')).toMatchObject({ assessed: false, explanation: 'not assessed: no recognizable country code (NGA)' });
    expect(only.level).toBe('MEDIUM');
    const mixed = assessRisk({ ...cleanConsumer(), countries: [{ code: 'NGA', role: 'NATIONALITY' }, { code: 'de', role: 'RESIDENCE' }] }, day('2024-06-01'));
    expect(factor(mixed, 'countryRisk')).toMatchObject({ assessed: true, value: 0, details: { unrecognized: ['NGA'] } });
  });

  it('reports a business without ownership data or NAICS code, requiring only the ownership', () => {
    const { ownership: _o, industry: _i, ...rest } = cleanBusiness();
    const result = assessRisk(rest, day('2025-11-01'));
    expectConsistent(result);
    expect(result).toMatchObject({ notAssessed: ['industry', 'ownership'], riskScore: 30, level: 'MEDIUM' });
    expect(factor(result, 'incompleteFloor').explanation).toMatch(/^not assessed: ownership:/);
    expect(factor(result, 'industry').explanation).toBe('not assessed: no NAICS code');
  });
});

describe('which lists the screenings searched', () => {
  const searched = ['ofac-sdn', 'un-consolidated'];
  const consumer = (pep: Partial<NonNullable<RiskInput['pep']>>): RiskInput => ({
    ...cleanConsumer(),
    sanctions: { confirmed: 0, pending: 0, lists: searched, searched, unscreenedSubjects: 0 },
    pep: { confirmed: 0, pending: 0, ...pep },
  });

  it('never calls a category clean when no list of it was searched: sanctions lists only, so PEPs are not screened', () => {
    const result = assessRisk(consumer({ lists: [], searched, unscreenedSubjects: 1 }), day('2025-11-01'));
    expectConsistent(result);
    expect(factor(result, 'pep')).toMatchObject({
      assessed: false, contribution: 0,
      explanation: 'not assessed: PEP not screened: no PEP list among the lists searched (ofac-sdn, un-consolidated)',
      details: { lists: [], searched, unscreenedSubjects: 1 },
    });
    expect(factor(result, 'sanctions')).toMatchObject({ assessed: true, explanation: 'screened against ofac-sdn, un-consolidated: no sanctions hits' });
    expect(result).toMatchObject({ notAssessed: ['pep'], level: 'MEDIUM', riskScore: 30 });
  });

  it('names the PEP list searched when it found nothing', () => {
    const result = assessRisk(consumer({ lists: ['opensanctions-peps'], searched: [...searched, 'opensanctions-peps'], unscreenedSubjects: 0 }), day('2025-11-01'));
    expect(factor(result, 'pep')).toMatchObject({ assessed: true, explanation: 'screened against opensanctions-peps: no PEP hits' });
    expect(result).toMatchObject({ notAssessed: [], level: 'LOW', riskScore: 0 });
  });

  it('is not clean while one subject (a party) was searched against no PEP list; a hit elsewhere still counts', () => {
    const partly = assessRisk(consumer({ lists: ['opensanctions-peps'], searched, unscreenedSubjects: 1 }), day('2025-11-01'));
    expect(factor(partly, 'pep')).toMatchObject({
      assessed: false, explanation: 'not assessed: PEP not screened for 1 subject: screened against opensanctions-peps for the others',
    });
    const hit = assessRisk(consumer({ confirmed: 1, lists: ['opensanctions-peps'], searched, unscreenedSubjects: 1 }), day('2025-11-01'));
    expect(factor(hit, 'pep')).toMatchObject({
      assessed: true, contribution: 25, explanation: '1 confirmed PEP match; screened against opensanctions-peps; 1 subject not screened for PEP',
    });
  });
});

describe('EDD tasks', () => {
  it('has a title and description for every checklist item', () => {
    expect(EDD_TASKS.SOURCE_OF_FUNDS.title).toBe('EDD: verify source of funds');
    for (const item of EDD_ITEMS) {
      expect(EDD_TASKS[item].title).toMatch(/^EDD: /);
      expect(EDD_TASKS[item].description.length).toBeGreaterThan(40);
    }
  });
});

describe('adverse media categories', () => {
  it('knows every category the media classifier reports (none falls to OTHER)', async () => {
    const { RISK_CATEGORIES } = await import('../../src/screening/media/risk-lexicon.ts');
    const { ADVERSE_MEDIA_SEVERITY } = await import('../../src/risk/model.ts');
    expect(RISK_CATEGORIES.filter((category) => !(category in ADVERSE_MEDIA_SEVERITY))).toEqual([]);
  });
});
