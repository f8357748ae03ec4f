// Screening over the API: ad-hoc names, consumer and business cases (with
// their parties), the organization's threshold, reviewers' decisions carried
// to later screenings, and automatic re-screening when a list changes.
// The lists are real: entries cut from the shared OFAC SDN files, and the
// OpenSanctions PEP file as published.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forOrganization } from '../../src/db/tenant.ts';
import { createLogger } from '../../src/logger.ts';
import { ScreeningService } from '../../src/screening/screening-service.ts';
import type { ScreeningRequest } from '../../src/screening/subjects.ts';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient, restClient } from '../helpers/http.ts';
import { createKey, createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';

const DATASETS = fileURLToPath(new URL('../../../shared/datasets/sanctions/', import.meta.url));
const MEDIA_CORPUS = fileURLToPath(new URL('../fixtures/media/corpus/', import.meta.url));
const suffix = Date.now().toString(36);
const OFAC = `ofac-${suffix}`;
const PEPS = `peps-${suffix}`;
const QUEUE_SCHEMA = `jobs_screenings_${suffix}`;

let service: RunningService;
let org: TestOrganization;
let rest: ReturnType<typeof restClient>;
let listDir: string;

/** Lines of an OFAC file whose first field (ent_num) is one of `entities`, minus `without` (alt_num/add_num). */
async function ofacLines(file: string, entities: string[], without: string[] = []) {
  const lines = (await readFile(join(DATASETS, file), 'utf8')).split('\r\n');
  return lines.filter((line) => entities.includes(line.split(',')[0]!) && !without.includes(line.split(',')[1]!)).join('\r\n') + '\r\n';
}

/** Version 1: Maduro, Kadyrov (one alias held back), a Kadyrov-linked company. Version 2: Kadyrov's other alias and Usmayev added. */
async function writeOfacVersion(version: 1 | 2) {
  const entities = version === 1 ? ['22790', '23343', '30606'] : ['22790', '23343', '30606', '30612'];
  const without = version === 1 ? ['48091'] : [];
  await writeFile(join(listDir, 'sdn.csv'), await ofacLines('ofac_sdn.csv', entities));
  await writeFile(join(listDir, 'alt.csv'), await ofacLines('ofac_alt.csv', entities, without));
  await writeFile(join(listDir, 'add.csv'), await ofacLines('ofac_add.csv', entities));
}

const currentLoad = (sourceId: string) =>
  service.db.watchlistLoad.findFirst({ where: { sourceId, status: 'LOADED' }, orderBy: { finishedAt: 'desc' } });

beforeAll(async () => {
  listDir = await mkdtemp(join(tmpdir(), 'screening-lists-'));
  await writeOfacVersion(1);
  const sources = [
    { id: OFAC, name: 'OFAC SDN (cut)', format: 'ofac-csv', files: { primary: join(listDir, 'sdn.csv'), aliases: join(listDir, 'alt.csv'), addresses: join(listDir, 'add.csv') } },
    { id: PEPS, name: 'US Congress PEPs', format: 'senzing-json', files: { primary: join(DATASETS, 'us_congress_senzing.json') } },
  ];
  service = await startTestService({
    env: { WATCHLIST_SOURCES: JSON.stringify(sources), WATCHLIST_REFRESH_CRON: 'off', ADVERSE_MEDIA_CORPUS: MEDIA_CORPUS, JOB_QUEUE_SCHEMA: QUEUE_SCHEMA },
  });
  await waitFor(async () => (await currentLoad(OFAC)) && (await currentLoad(PEPS)), 'the start-up list load');
  // The start-up versions queue a re-screening too; once it has run it cannot
  // re-screen the cases these tests create (a loaded machine may run it late).
  await waitFor(async () => {
    const [jobs] = await service.db.$queryRawUnsafe<Array<{ pending: number; done: number }>>(
      `SELECT count(*) FILTER (WHERE state < 'completed')::int AS pending, count(*) FILTER (WHERE state = 'completed')::int AS done
         FROM ${QUEUE_SCHEMA}.job WHERE name = 'screening-rescreen'`,
    );
    return jobs!.pending === 0 && jobs!.done > 0;
  }, 'the start-up re-screening');
  org = await createOrganization(service.db, undefined, 'screening');
  rest = restClient(service.url, org.key);
}, 120_000);
afterAll(() => service?.stop());

describe('POST /v1/screenings', () => {
  it('finds a listed person despite accents and order, explains the score and names the list version', async () => {
    const before = await rest('GET', '/v1/screenings');
    const response = await rest('POST', '/v1/screenings', { name: 'Nicolás Maduro Moros', kind: 'PERSON', birthDate: '1962-11-23', countries: ['VE'] });
    expect(response.status).toBe(201);
    const top = response.body.hits[0];
    expect(top).toMatchObject({ sourceId: OFAC, externalId: '22790', primaryName: 'Nicolas MADURO MOROS', status: 'PENDING', topics: ['sanction'] });
    expect(top.score).toBeGreaterThan(0.95);
    expect(top.score).toBeLessThanOrEqual(1);
    expect(top.explanation.birthDate.effect).toBe('MATCH');
    expect(top.explanation.country.effect).toBe('MATCH');
    expect(top.listVersion).toBe((await currentLoad(OFAC))!.id);
    expect(top.algorithmVersion).toBe(response.body.algorithmVersion);
    expect(response.body).toMatchObject({ target: 'AD_HOC', outcome: 'PENDING_REVIEW', hitCount: response.body.hits.length, requestedBy: expect.stringMatching(/^API key /) });
    expect(response.body.listVersions).toEqual(expect.arrayContaining([{ sourceId: OFAC, loadId: top.listVersion }]));
    const after = await rest('GET', '/v1/screenings');
    expect(after.body.meta.total).toBe(before.body.meta.total + 1);
    const again = await rest('GET', `/v1/screenings/${response.body.id}`);
    expect(again.body.hits[0].id).toBe(top.id);
  });

  it('lowers the score when the date of birth disagrees, and finds PEPs', async () => {
    const matching = await rest('POST', '/v1/screenings', { name: 'Nicolas Maduro', kind: 'PERSON', birthDate: '1962-11-23' });
    const other = await rest('POST', '/v1/screenings', { name: 'Nicolas Maduro', kind: 'PERSON', birthDate: '1990-01-01' });
    const score = (body: any) => body.hits.find((h: any) => h.externalId === '22790')?.score ?? 0;
    expect(score(matching.body)).toBeGreaterThan(score(other.body));
    const pep = await rest('POST', '/v1/screenings', { name: 'Jake Auchincloss', kind: 'PERSON' });
    expect(pep.body.hits[0]).toMatchObject({ sourceId: PEPS, primaryName: 'Jake Auchincloss', topics: ['pep'] });
  });

  it('is also a GraphQL mutation with the same result', async () => {
    const result = await graphqlClient(service.url, org.key)(
      'mutation($input: ScreenNameInput!) { screenName(input: $input) { outcome hits { externalId score explanation } } }',
      { input: { name: 'Ramzan KADYROW', kind: 'PERSON' } },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.screenName.hits[0]).toMatchObject({ externalId: '23343' });
  });

  it('refuses bad input with 400 and records nothing', async () => {
    const before = (await rest('GET', '/v1/screenings')).body.meta.total;
    for (const body of [
      { name: '', kind: 'PERSON' },
      { name: 'A B', kind: 'ALIEN' },
      { name: 'A B', kind: 'PERSON', birthDate: '23/11/1962' },
      { name: 'A B', kind: 'PERSON', countries: ['Venezuela'] },
      { name: 'A B', kind: 'PERSON', threshold: 1.5 },
      { name: 'x'.repeat(301), kind: 'PERSON' },
      { kind: 'PERSON' },
    ]) {
      const response = await rest('POST', '/v1/screenings', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect((await rest('GET', '/v1/screenings')).body.meta.total).toBe(before);
  });
});

describe('what a screening costs the database', () => {
  it('is one transaction once the list versions and the settings are known, read back in it', async () => {
    // The service's own class over the test database, counting what it asks of it.
    const counts = { transactions: 0, versionChecks: 0 };
    const counting = <T extends object>(target: T, count: Record<string, keyof typeof counts>): T =>
      new Proxy(target, {
        get(object, property) {
          const value = Reflect.get(object, property) as unknown;
          if (typeof property === 'string' && property in count && typeof value === 'function') {
            return (...args: unknown[]) => {
              counts[count[property]!]++;
              return value.apply(object, args);
            };
          }
          if (property === 'watchlistLoad') return counting(value as object, { findMany: 'versionChecks' });
          return typeof value === 'function' ? value.bind(object) : value;
        },
      });
    const root = counting(service.db, { $transaction: 'transactions' });
    const screening = new ScreeningService({ db: root, logger: createLogger('silent'), sourceIds: () => [OFAC, PEPS], media: null, reuseMs: { versions: 60_000, settings: 60_000 } });
    const db = forOrganization(root, org.id, { actor: 'test' });
    const request: ScreeningRequest = {
      target: 'AD_HOC', subjectKey: `ad_hoc_ref:cost-${suffix}`, name: 'Ottoline Quennell', aliases: [], kind: 'PERSON', birthDate: null, countries: [], identifiers: [],
    };
    const options = { organizationId: org.id, requestedBy: 'test' };
    await screening.screen(db, request, options);
    const since = (before: typeof counts) => ({ transactions: counts.transactions - before.transactions, versionChecks: counts.versionChecks - before.versionChecks });

    let before = { ...counts };
    for (let i = 0; i < 5; i++) await screening.screen(db, request, options);
    expect(since(before)).toEqual({ transactions: 5, versionChecks: 0 });

    before = { ...counts };
    const read = await screening.screenAndRead(db, request, options, { include: { hits: true, mediaFindings: true } });
    expect(read).toMatchObject({ outcome: 'NO_HITS', hitCount: 0, hits: [], mediaFindings: [], name: 'Ottoline Quennell' });
    expect(since(before)).toEqual({ transactions: 1, versionChecks: 0 });
    const listed = await screening.screenAndRead(db, { ...request, name: 'Nicolas Maduro Moros' }, options, { include: { hits: { orderBy: { score: 'desc' } } } });
    expect(listed.hits[0]).toMatchObject({ externalId: '22790', screeningId: listed.id });

    // A settings change made here, and a fresh check of the versions, are read at once.
    before = { ...counts };
    screening.settingsChanged(org.id);
    await screening.current.get({ fresh: true });
    await screening.screen(db, request, options);
    expect(since(before)).toEqual({ transactions: 2, versionChecks: 1 });
  });
});

describe('adverse media', () => {
  it('stores the articles that name the subject with their risk categories, and feeds them into the risk assessment', async () => {
    const screened = await rest('POST', '/v1/screenings', { name: 'Muhammad Tariq Haddad', kind: 'PERSON' });
    expect(screened.body.mediaStatus).toBe('CHECKED');
    const laundering = screened.body.mediaFindings.filter((f: any) => f.categories.some((c: any) => c.category === 'MONEY_LAUNDERING'));
    expect(laundering.length).toBeGreaterThan(0);
    expect(laundering[0]).toMatchObject({ providerId: 'local-corpus', matchedText: expect.stringMatching(/Haddad/), classifierVersion: expect.any(String) });
    expect(laundering[0].categories[0].evidence.length).toBeGreaterThan(0);
    const stored = await rest('GET', `/v1/screenings/${screened.body.id}`);
    expect(stored.body.mediaFindings).toEqual(screened.body.mediaFindings);

    const skipped = await rest('POST', '/v1/screenings', { name: 'Muhammad Tariq Haddad', kind: 'PERSON', adverseMedia: false });
    expect(skipped.body).toMatchObject({ mediaStatus: 'NOT_REQUESTED', mediaFindings: [] });
    const nobody = await rest('POST', '/v1/screenings', { name: 'Ottoline Quennell', kind: 'PERSON' });
    expect(nobody.body).toMatchObject({ mediaStatus: 'CHECKED', mediaFindings: [] });

    const id = (await rest('POST', '/v1/consumer-cases', { email: `mh-${suffix}@example.com`, firstName: 'Muhammad Tariq', lastName: 'Haddad', nationality: 'AE' })).body.id;
    await rest('POST', `/v1/consumer-cases/${id}/screenings`, {});
    const assessment = (await rest('GET', `/v1/consumer-cases/${id}/risk-assessment`)).body;
    expect(assessment.inputs.adverseMedia.some((m: any) => m.category === 'MONEY_LAUNDERING')).toBe(true);
    expect(assessment.factors.find((f: any) => f.key === 'adverseMedia').contribution).toBeGreaterThan(0);
  });
});

describe('screening settings', () => {
  it('applies the organization\'s threshold to its screenings only', async () => {
    const other = await createOrganization(service.db, undefined, 'screening-other');
    const changed = await rest('PATCH', '/v1/screening-settings', { threshold: 0.97 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ threshold: 0.97, thresholdIsDefault: false, updatedBy: expect.any(String) });
    const strict = await rest('POST', '/v1/screenings', { name: 'Ramzan Kadirov', kind: 'PERSON' });
    expect(strict.body.threshold).toBe(0.97);
    expect(strict.body.hits.every((h: any) => h.score >= 0.97)).toBe(true);
    const elsewhere = await restClient(service.url, other.key)('POST', '/v1/screenings', { name: 'Ramzan Kadirov', kind: 'PERSON' });
    expect(elsewhere.body.threshold).toBe(changed.body.defaultThreshold);
    expect(elsewhere.body.hits.length).toBeGreaterThan(strict.body.hits.length);
    expect((await rest('PATCH', '/v1/screening-settings', { threshold: 0.2 })).status).toBe(400);
    const reset = await rest('PATCH', '/v1/screening-settings', { threshold: null });
    expect(reset.body).toMatchObject({ thresholdIsDefault: true, threshold: reset.body.defaultThreshold });
  });
});

describe('case screening, decisions and re-screening', () => {
  let kadyrovCase: string;
  let usmayevCase: string;
  let bystanderCase: string;

  it('screens a consumer case; a FALSE_POSITIVE decision is kept and carried to the next screening', async () => {
    kadyrovCase = (await rest('POST', '/v1/consumer-cases', { email: `rk-${suffix}@example.com`, firstName: 'Ramzan', lastName: 'Kadyrov', dateOfBirth: '1976-10-05', nationality: 'RU' })).body.id;
    const screened = await rest('POST', `/v1/consumer-cases/${kadyrovCase}/screenings`, {});
    expect(screened.status).toBe(201);
    const [screening] = screened.body.screenings;
    expect(screening).toMatchObject({ target: 'CONSUMER_CASE', consumerCaseId: kadyrovCase, subjectKey: `consumer_case:${kadyrovCase}`, outcome: 'PENDING_REVIEW' });
    const hit = screening.hits.find((h: any) => h.externalId === '23343');
    expect(hit.explanation.birthDate.effect).toBe('MATCH');

    const decided = await rest('POST', `/v1/screening-hits/${hit.id}/decision`, { decision: 'FALSE_POSITIVE', reason: 'Different person: passport checked', userId: 'reviewer-7' });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ status: 'FALSE_POSITIVE', decisionCarriedOver: false, decision: { decision: 'FALSE_POSITIVE', reason: 'Different person: passport checked', decidedBy: 'reviewer-7', hitId: hit.id } });
    const after = await rest('GET', `/v1/screenings/${screening.id}`);
    expect(after.body.outcome).toBe(screening.hits.length === 1 ? 'CLEARED' : 'PENDING_REVIEW');

    const next = (await rest('POST', `/v1/consumer-cases/${kadyrovCase}/screenings`, {})).body.screenings[0];
    const carried = next.hits.find((h: any) => h.externalId === '23343');
    expect(carried).toMatchObject({ status: 'FALSE_POSITIVE', decisionCarriedOver: true, decision: { id: decided.body.decision.id } });
    expect(carried.id).not.toBe(hit.id);
  });

  it('refuses a bad decision with 400 and a hit of another organization with 404', async () => {
    const list = await rest('GET', `/v1/screenings?consumerCaseId=${kadyrovCase}`);
    const hit = list.body.items[0].hits[0];
    expect((await rest('POST', `/v1/screening-hits/${hit.id}/decision`, { decision: 'PENDING', reason: 'x' })).status).toBe(400);
    expect((await rest('POST', `/v1/screening-hits/${hit.id}/decision`, { decision: 'TRUE_MATCH', reason: '  ' })).status).toBe(400);
    const stranger = restClient(service.url, (await createOrganization(service.db)).key);
    expect((await stranger('POST', `/v1/screening-hits/${hit.id}/decision`, { decision: 'TRUE_MATCH', reason: 'x' })).status).toBe(404);
    expect((await stranger('GET', `/v1/screening-hits/${hit.id}`)).status).toBe(404);
    expect((await stranger('GET', `/v1/screenings/${list.body.items[0].id}`)).status).toBe(404);
    expect((await stranger('GET', '/v1/screening-hits')).body.meta.total).toBe(0);
    expect((await stranger('GET', `/v1/screenings?consumerCaseId=${kadyrovCase}`)).status).toBe(404);
    const unchanged = await rest('GET', `/v1/screening-hits/${hit.id}`);
    expect(unchanged.body.status).toBe(hit.status);
  });

  it('needs screening:review to decide and screening:write to screen', async () => {
    const readOnly = restClient(service.url, await createKey(service.db, org.id, ['screening:read', 'screening:write']));
    const hit = (await rest('GET', '/v1/screening-hits?status=PENDING')).body.items[0];
    const denied = await readOnly('POST', `/v1/screening-hits/${hit.id}/decision`, { decision: 'TRUE_MATCH', reason: 'x' });
    expect(denied).toMatchObject({ status: 403, body: { statusCode: 403, error: 'Forbidden' } });
    expect(denied.body.message).toMatch(/screening:review/);
  });

  it('screens a business case and each party; a registration number raises the company\'s score', async () => {
    const business = (await rest('POST', '/v1/business-cases', { legalName: 'Absolute Championship Akhmat', registrationNumber: '1142036002976', jurisdictionCountry: 'RU' })).body;
    await rest('POST', `/v1/business-cases/${business.id}/parties`, { kind: 'INDIVIDUAL', name: 'Ramzan Akhmatovich Kadyrov', roles: ['CONTROLLING_PERSON'], country: 'RU' });
    await rest('POST', `/v1/business-cases/${business.id}/parties`, { kind: 'INDIVIDUAL', name: 'Erika Mustermann', roles: ['DIRECTOR'], country: 'DE' });
    const screened = await rest('POST', `/v1/business-cases/${business.id}/screenings`, {});
    expect(screened.status).toBe(201);
    const [company, kadyrov, clean] = screened.body.screenings;
    expect(company).toMatchObject({ target: 'BUSINESS_CASE', businessCaseId: business.id, kind: 'ORGANIZATION' });
    const companyHit = company.hits.find((h: any) => h.externalId === '30606');
    expect(companyHit.explanation.identifier).toMatchObject({ effect: 'MATCH' });
    expect(kadyrov).toMatchObject({ target: 'BUSINESS_PARTY', businessCaseId: business.id, kind: 'PERSON' });
    expect(kadyrov.hits[0].externalId).toBe('23343');
    expect(clean).toMatchObject({ outcome: 'NO_HITS', hitCount: 0 });
    const listed = await rest('GET', `/v1/screenings?businessCaseId=${business.id}`);
    expect(listed.body.meta.total).toBe(3);
  });

  it('when a list changes, re-screens the affected cases, reopens changed entities and opens tasks for new hits', async () => {
    usmayevCase = (await rest('POST', '/v1/consumer-cases', { email: `vu-${suffix}@example.com`, firstName: 'Vakhit', lastName: 'Usmayev', dateOfBirth: '1964-11-20' })).body.id;
    bystanderCase = (await rest('POST', '/v1/consumer-cases', { email: `jd-${suffix}@example.com`, firstName: 'Johanna', lastName: 'Lindqvist' })).body.id;
    for (const id of [usmayevCase, bystanderCase]) {
      const screened = await rest('POST', `/v1/consumer-cases/${id}/screenings`, {});
      expect(screened.body.screenings[0].hits.filter((h: any) => h.sourceId === OFAC)).toEqual([]);
    }
    const before = (await currentLoad(OFAC))!.id;
    await writeOfacVersion(2);
    const outcomes = await service.watchlists.refreshAll();
    expect(outcomes.find((o) => o.sourceId === OFAC)).toMatchObject({ status: 'LOADED' });
    expect((await currentLoad(OFAC))!.id).not.toBe(before);

    const tasks = await waitFor(async () => {
      const body = (await rest('GET', `/v1/tasks?consumerCaseId=${usmayevCase}&limit=50`)).body;
      const review = body.items.filter((t: any) => t.title.startsWith('Review'));
      return review.length ? review : null;
    }, 'the re-screening task');
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ title: 'Review 1 new watchlist hit for Vakhit Usmayev', priority: 'HIGH' });
    const latest = (await rest('GET', `/v1/screenings?consumerCaseId=${usmayevCase}`)).body.items[0];
    expect(latest).toMatchObject({ trigger: 'LIST_UPDATE', requestedBy: 'watchlist refresh', outcome: 'PENDING_REVIEW' });
    expect(latest.hits[0]).toMatchObject({ externalId: '30612', status: 'PENDING' });

    // Kadyrov's listing gained an alias: the cleared hit is open again, saying why.
    const kadyrov = await waitFor(async () => {
      const body = (await rest('GET', `/v1/screenings?consumerCaseId=${kadyrovCase}`)).body;
      return body.items[0].trigger === 'LIST_UPDATE' ? body.items[0] : null;
    }, 'the re-screening of the changed entity');
    const reopened = kadyrov.hits.find((h: any) => h.externalId === '23343');
    expect(reopened).toMatchObject({ status: 'PENDING', decision: null });
    expect(reopened.explanation.previousDecision).toMatchObject({ decision: 'FALSE_POSITIVE', decidedBy: 'reviewer-7' });
    const kadyrovTasks = (await rest('GET', `/v1/tasks?consumerCaseId=${kadyrovCase}&limit=50`)).body.items;
    expect(kadyrovTasks.filter((t: any) => t.title.startsWith('Review'))).toHaveLength(1);

    // Not affected by the change: not re-screened, no task.
    const bystander = (await rest('GET', `/v1/screenings?consumerCaseId=${bystanderCase}`)).body;
    expect(bystander.meta.total).toBe(1);
    expect((await rest('GET', `/v1/tasks?consumerCaseId=${bystanderCase}`)).body.items).toEqual([]);

    // The same version again changes nothing and opens nothing.
    expect((await service.watchlists.refreshAll()).find((o) => o.sourceId === OFAC)).toMatchObject({ status: 'UNCHANGED' });
  }, 120_000);
});

describe('risk assessment', () => {
  const sum = (assessment: any) => assessment.factors.reduce((total: number, f: any) => total + f.contribution, 0);

  it('follows the screening: open sanctions hit, then PROHIBITED with the full EDD checklist once confirmed; history kept', async () => {
    const id = (await rest('POST', '/v1/consumer-cases', { email: `nm-${suffix}@example.com`, firstName: 'Nicolas', lastName: 'Maduro Moros', dateOfBirth: '1962-11-23', nationality: 'VE' })).body.id;
    expect((await rest('GET', `/v1/consumer-cases/${id}/risk-assessment`)).status).toBe(404);
    const screening = (await rest('POST', `/v1/consumer-cases/${id}/screenings`, {})).body.screenings[0];
    const open = (await rest('GET', `/v1/consumer-cases/${id}/risk-assessment`)).body;
    expect(open.consumerCaseId).toBe(id);
    expect(['MEDIUM', 'HIGH']).toContain(open.level);
    expect(sum(open)).toBe(open.riskScore);
    expect(open.factors.find((f: any) => f.key === 'sanctions')).toMatchObject({ assessed: true });
    expect(open.fatfListDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(open.inputs.sanctions.pending).toBeGreaterThan(0);

    const hit = screening.hits.find((h: any) => h.externalId === '22790');
    await rest('POST', `/v1/screening-hits/${hit.id}/decision`, { decision: 'TRUE_MATCH', reason: 'Same person: DOB and nationality match' });
    const blocked = (await rest('GET', `/v1/consumer-cases/${id}/risk-assessment`)).body;
    expect(blocked).toMatchObject({ level: 'PROHIBITED', recommendation: 'PROHIBITED', riskScore: 100, edd: { required: true } });
    expect(sum(blocked)).toBe(100);
    expect(blocked.edd.checklist.map((c: any) => c.item).sort()).toEqual(['SENIOR_APPROVAL', 'SOURCE_OF_FUNDS', 'SOURCE_OF_WEALTH', 'UBO_VERIFICATION']);
    const tasks = (await rest('GET', `/v1/tasks?consumerCaseId=${id}&limit=50`)).body.items;
    expect(tasks.filter((t: any) => t.title.startsWith('EDD:'))).toHaveLength(4);
    expect(tasks.map((t: any) => t.id).sort()).toEqual(expect.arrayContaining([...blocked.edd.taskIds].sort()));

    // Assessing again adds history but no second set of EDD tasks.
    const again = await rest('POST', `/v1/consumer-cases/${id}/risk-assessments`, { userId: 'analyst-2' });
    expect(again).toMatchObject({ status: 201, body: { level: 'PROHIBITED', requestedBy: 'analyst-2' } });
    expect((await rest('GET', `/v1/tasks?consumerCaseId=${id}&limit=50`)).body.items.filter((t: any) => t.title.startsWith('EDD:'))).toHaveLength(4);
    const history = (await rest('GET', `/v1/risk-assessments?consumerCaseId=${id}`)).body;
    expect(history.meta.total).toBe(3);
    expect(history.items.map((a: any) => a.level)).toEqual(['PROHIBITED', 'PROHIBITED', open.level]);
    const stranger = restClient(service.url, (await createOrganization(service.db)).key);
    expect((await stranger('GET', `/v1/risk-assessments/${again.body.id}`)).status).toBe(404);
    expect((await stranger('GET', `/v1/risk-assessments?consumerCaseId=${id}`)).status).toBe(404);
  });

  it('opens source of funds, source of wealth and senior approval once a PEP hit is confirmed', async () => {
    const id = (await rest('POST', '/v1/consumer-cases', { email: `ja-${suffix}@example.com`, firstName: 'Jake', lastName: 'Auchincloss', nationality: 'US' })).body.id;
    const screening = (await rest('POST', `/v1/consumer-cases/${id}/screenings`, {})).body.screenings[0];
    const undecided = (await rest('GET', `/v1/consumer-cases/${id}/risk-assessment`)).body;
    expect(undecided.inputs.pep.pending).toBeGreaterThan(0);
    expect(undecided.edd.checklist).toEqual([]);
    const pepHit = screening.hits.find((h: any) => h.topics.includes('pep') && h.primaryName === 'Jake Auchincloss');
    await rest('POST', `/v1/screening-hits/${pepHit.id}/decision`, { decision: 'TRUE_MATCH', reason: 'Member of Congress, confirmed' });
    const assessment = (await rest('GET', `/v1/consumer-cases/${id}/risk-assessment`)).body;
    expect(assessment.inputs.pep.confirmed).toBe(1);
    expect(assessment.edd.required).toBe(true);
    expect(assessment.edd.checklist.map((c: any) => c.item)).toEqual(expect.arrayContaining(['SOURCE_OF_FUNDS', 'SOURCE_OF_WEALTH', 'SENIOR_APPROVAL']));
  });

  it('says what it could not assess rather than calling an unscreened case low risk', async () => {
    const id = (await rest('POST', '/v1/consumer-cases', { email: `un-${suffix}@example.com`, firstName: 'Ines', lastName: 'Okafor' })).body.id;
    const assessment = (await rest('POST', `/v1/consumer-cases/${id}/risk-assessments`, {})).body;
    expect(assessment.notAssessed).toEqual(expect.arrayContaining(['sanctions', 'pep']));
    expect(assessment.level).not.toBe('LOW');
    expect(sum(assessment)).toBe(assessment.riskScore);
  });

  it('weighs industry and undisclosed ownership for a business, and shows the history on the case in GraphQL', async () => {
    const business = (await rest('POST', '/v1/business-cases', { legalName: `Quickwire Remit ${suffix} LLC`, industryCode: '522390', jurisdictionCountry: 'US' })).body;
    await rest('POST', `/v1/business-cases/${business.id}/parties`, { kind: 'INDIVIDUAL', name: 'Maren Holt', roles: ['BENEFICIAL_OWNER'], country: 'US', ownershipPercentage: 60 });
    await rest('POST', `/v1/business-cases/${business.id}/screenings`, {});
    const assessment = (await rest('GET', `/v1/business-cases/${business.id}/risk-assessment`)).body;
    expect(assessment.inputs).toMatchObject({ subjectType: 'BUSINESS', industry: { naicsCode: '522390' }, ownership: { undisclosedPercentage: 40 } });
    expect(assessment.factors.find((f: any) => f.key === 'industry').contribution).toBeGreaterThan(0);
    expect(assessment.factors.find((f: any) => f.key === 'ownership').contribution).toBeGreaterThan(0);
    expect(assessment.edd.checklist.map((c: any) => c.item)).toContain('UBO_VERIFICATION');
    const graph = await graphqlClient(service.url, org.key)(
      'query($id: ID!) { businessCase(id: $id) { riskAssessments(first: 5) { totalCount edges { node { id level riskScore } } } } }',
      { id: business.id },
    );
    expect(graph.errors).toBeUndefined();
    expect(graph.data.businessCase.riskAssessments).toMatchObject({ totalCount: 1, edges: [{ node: { id: assessment.id, level: assessment.level } }] });
  });
});
