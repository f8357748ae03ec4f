// The list loaders on the publishers' real files (snapshots in ../shared/datasets/sanctions).
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countryCodeOf, listedDate } from '../../src/screening/lists/listed-entity.ts';
import { parseOfac, remarkFacts } from '../../src/screening/lists/ofac.ts';
import { parseSenzing } from '../../src/screening/lists/senzing.ts';
import { readLocation } from '../../src/screening/lists/sources.ts';
import { parseUnList } from '../../src/screening/lists/un.ts';
import { freePort } from '../helpers/ports.ts';

const DATASETS = new URL('../../../shared/datasets/sanctions/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DATASETS), 'utf8');

describe('OFAC legacy CSV', () => {
  const sdn = parseOfac({ primary: read('ofac_sdn.csv'), aliases: read('ofac_alt.csv'), addresses: read('ofac_add.csv') });
  const byId = (id: string) => sdn.find((e) => e.externalId === id)!;

  it('reads every SDN entry with its aliases (as in the dataset README)', () => {
    expect(sdn).toHaveLength(8976);
    expect(sdn.flatMap((e) => e.names.filter((n) => n.strength === 'STRONG'))).toHaveLength(11910);
    expect(new Set(sdn.map((e) => e.kind))).toEqual(new Set(['PERSON', 'ORGANIZATION', 'VESSEL', 'AIRCRAFT']));
  });

  it('turns a person\'s remarks into dates, places and documents', () => {
    expect(byId('2676')).toMatchObject({
      kind: 'PERSON',
      names: [
        { full: 'Dr. Ayman AL ZAWAHIRI', strength: 'PRIMARY' },
        { full: 'Ayman AL-ZAWAHIRI', strength: 'STRONG' },
        { full: 'Ahmad Fuad SALIM', strength: 'STRONG' },
        { full: 'Aiman Muhammad Rabi AL-ZAWAHIRI', strength: 'STRONG' },
      ],
      birthDates: ['1951-06-19'],
      birthPlaces: ['Giza, Egypt'],
      identifiers: [{ type: 'Passport', number: '1084010', country: 'EG' }, { type: 'Passport', number: '19820215' }],
      programs: ['SDGT'],
    });
    expect(byId('2686').birthDates).toEqual(['1960-08-31', '1953-08-31', '1955-08-31', '1958-08-31']);
    expect(byId('2686').programs).toEqual(['SDGT', 'SYRIA']);
  });

  it('keeps weak aliases from the remarks apart, and addresses with their countries', () => {
    expect(byId('306')).toMatchObject({
      kind: 'ORGANIZATION',
      names: [{ full: 'BANCO NACIONAL DE CUBA', strength: 'PRIMARY' }, { full: 'NATIONAL BANK OF CUBA', strength: 'STRONG' }, { full: 'BNC', strength: 'WEAK' }],
      countries: ['CH', 'ES', 'JP', 'PA'],
    });
    expect(byId('306').addresses[0]).toBe('Zweierstrasse 35, Zurich CH-8022, Switzerland');
    expect(byId('4632').programs).toEqual(['IRAN', 'SDGT', 'IRGC', 'IFSR']);
  });

  it('reads the Consolidated (non-SDN) list in the same layout', () => {
    const consolidated = parseOfac({ primary: read('ofac_cons_prim.csv'), aliases: read('ofac_cons_alt.csv') });
    expect(consolidated).toHaveLength(442);
    expect(consolidated.flatMap((e) => e.names.filter((n) => n.strength === 'STRONG'))).toHaveLength(1073);
  });

  it('refuses a file without entries instead of yielding an empty list', () => {
    expect(() => parseOfac({ primary: '<html>Service unavailable</html>' })).toThrow('the OFAC file has no entries');
  });
});

describe('OFAC remarks', () => {
  it.each([
    ['DOB 1929 to 1930; POB Japan', { birthDates: ['1929', '1930'], birthPlaces: ['Japan'] }],
    ['DOB circa 1955; nationality Iraq; alt. nationality Syria', { birthDates: ['1955'], nationalities: ['IQ', 'SY'] }],
    ['DOB Dec 1948; citizen Russia; National ID No. 123-45 (Russia)', { birthDates: ['1948-12'], nationalities: ['RU'], identifiers: [{ type: 'National ID', number: '123-45', country: 'RU' }] }],
    ["a.k.a. 'ABU ALI'; a.k.a. 'THE DOCTOR'.", { weakAliases: ['ABU ALI', 'THE DOCTOR'] }],
  ])('%s', (remarks, facts) => {
    expect(remarkFacts(remarks)).toMatchObject(facts);
  });
});

describe('UN consolidated XML', () => {
  const un = parseUnList(read('un_consolidated.xml'));
  const byId = (id: string) => un.entities.find((e) => e.externalId === id)!;

  it('reads individuals and entities (as in the dataset README) with the generation date', () => {
    expect(un.generatedAt).toBe('2026-02-27T00:00:09.554Z');
    expect(un.entities.filter((e) => e.kind === 'PERSON')).toHaveLength(730);
    expect(un.entities.filter((e) => e.kind === 'ORGANIZATION')).toHaveLength(273);
  });

  it('keeps alias quality, nationality, documents and reference', () => {
    expect(byId('6907994')).toMatchObject({
      names: [
        { full: 'FRANK KAKOLELE BWAMBALE', strength: 'PRIMARY' },
        { full: 'FRANK KAKORERE', strength: 'STRONG' },
        { full: 'FRANK KAKORERE BWAMBALE', strength: 'STRONG' },
        { full: 'AIGLE BLANC', strength: 'STRONG' },
      ],
      nationalities: ['CD'],
      programs: ['DRC'],
      listedOn: '2005-11-01',
    });
    expect(byId('6907994').identifiers[0]).toEqual({ type: 'UN reference', number: 'CDi.002' });
    const weak = un.entities.flatMap((e) => e.names).filter((n) => n.strength === 'WEAK');
    expect(weak.length).toBeGreaterThan(500); // 615 aliases of "Low" quality, some empty
  });

  it('spreads a "between" birth date over its years', () => {
    expect(un.entities.some((e) => e.birthDates.join() === '1973,1974')).toBe(true);
  });

  it('refuses something that is not the UN list', () => {
    expect(() => parseUnList('<html><body>maintenance</body></html>')).toThrow('not a UN consolidated list: no CONSOLIDATED_LIST element');
    expect(() => parseUnList('<CONSOLIDATED_LIST><INDIVIDUALS></INDIVIDUALS></CONSOLIDATED_LIST>')).toThrow('the UN list has no entries');
  });
});

describe('OpenSanctions Senzing JSON lines', () => {
  it('reads the PEP dataset: the 1,317 people (its other 2 records are positions, not people)', () => {
    const peps = parseSenzing(read('us_congress_senzing.json'));
    expect(peps).toHaveLength(1317);
    expect(peps[0]).toMatchObject({
      externalId: 'NK-AQ4HymsADSK2D63MkyTqfC', kind: 'PERSON', names: [{ full: 'Jennifer L. McClellan', strength: 'PRIMARY' }],
      birthDates: ['1972'], nationalities: ['US'], topics: ['pep'],
    });
    expect(peps.every((p) => p.topics.includes('pep'))).toBe(true);
  });

  it('names the line of a malformed record', () => {
    expect(() => parseSenzing('{"RECORD_ID":"a","RECORD_TYPE":"PERSON","NAMES":[]}\n{broken')).toThrow('line 2: not valid JSON');
  });
});

describe('publishers\' country names and dates', () => {
  it.each([
    ['Democratic Republic of the Congo', 'CD'], ['Iran (Islamic Republic of)', 'IR'], ["Democratic People's Republic of Korea", 'KP'],
    ['Syrian Arab Republic', 'SY'], ['Syria', 'SY'], ['United Kingdom', 'GB'], ['us', 'US'], ['Atlantis', null],
  ])('%s → %s', (name, code) => expect(countryCodeOf(name)).toBe(code));

  it.each([['10 Dec 1948', '1948-12-10'], ['Dec 1948', '1948-12'], ['circa 1948', '1948'], ['1948-12-10', '1948-12-10'], ['sometime', null]])('%s → %s', (text, date) =>
    expect(listedDate(text)).toBe(date),
  );
});

describe('reading a source\'s files (no network here: local servers, a refused port, an unresolvable host)', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    // /busy answers 503; /silent never answers.
    server = createServer((request, response) => {
      if (request.url === '/busy') response.writeHead(503).end('busy');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('names the file and the cause, not just "fetch failed"', async () => {
    const refused = `http://127.0.0.1:${await freePort()}/sdn.csv`;
    const reasons = await Promise.all(
      [refused, 'http://lists.invalid/consolidated.xml', `${base}/busy`, `${base}/silent`, '/no/such/dir/sdn.csv'].map((location) =>
        readLocation(location, 500).then(() => 'read', (error: Error) => error.message),
      ),
    );
    expect(reasons[0]).toMatch(new RegExp(`^${refused}: ECONNREFUSED`));
    // ENOTFOUND, or EAI_AGAIN where no resolver answers at all.
    expect(reasons[1]).toMatch(/^http:\/\/lists\.invalid\/consolidated\.xml: (ENOTFOUND|EAI_AGAIN) \(getaddrinfo \w+ lists\.invalid\)$/);
    expect(reasons[2]).toBe(`${base}/busy: HTTP 503 Service Unavailable`);
    expect(reasons[3]).toBe(`${base}/silent: timeout: no complete answer within 0.5 s`);
    expect(reasons[4]).toBe("/no/such/dir/sdn.csv: ENOENT (no such file or directory, open '/no/such/dir/sdn.csv')");
  });
});
