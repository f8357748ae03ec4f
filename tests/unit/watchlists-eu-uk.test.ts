// The EU Financial Sanctions Files loader on excerpts of the Commission's real
// files (tests/fixtures/lists/SOURCES.md). No UK parser exists yet: no real
// sample of the FCDO UK Sanctions List could be found (see SOURCES.md).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../src/db/client.ts';
import { parseEuFsf } from '../../src/screening/lists/eu-fsf.ts';
import { refreshSource } from '../../src/screening/lists/list-loader.ts';

const FIXTURES = new URL('../fixtures/lists/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

/** One sanctionEntity around elements, for format cases the real excerpts do not show. */
const entry = (elements: string, subject = 'person') =>
  `<export xmlns="http://eu.europa.ec/fpi/fsd/export" generationDate="2026-01-01T00:00:00.000+01:00"><sanctionEntity logicalId="9">` +
  `<subjectType code="${subject}"/><nameAlias wholeName="Listed Name" nameLanguage="" strong="true"/>${elements}</sanctionEntity></export>`;
const only = (elements: string, subject?: string) => parseEuFsf(entry(elements, subject)).entities[0]!;

describe('EU FSF XML, the file of 21 Dec 2018 (excerpt)', () => {
  const eu = parseEuFsf(read('eu-fsf-2018-12-21-excerpt.xml'));
  const byId = (id: string) => eu.entities.find((e) => e.externalId === id)!;

  it('reads both entries and the generation date', () => {
    expect(eu.generatedAt).toBe('2018-12-21T14:39:54.511+01:00');
    expect(eu.entities.map((e) => [e.externalId, e.kind])).toEqual([['1', 'PERSON'], ['207', 'ORGANIZATION']]);
  });

  it('reads a person with a full date of birth, a passport of unknown country and the reference', () => {
    expect(byId('1')).toEqual({
      externalId: '1',
      kind: 'PERSON',
      names: [{ full: 'Robert Gabriel Mugabe', strength: 'PRIMARY' }],
      birthDates: ['1924-02-21'],
      birthPlaces: [],
      nationalities: [],
      countries: [],
      addresses: [],
      identifiers: [{ type: 'EU reference', number: 'EU.36.64' }, { type: 'National passport', number: 'AD001095' }],
      programs: ['ZWE'],
      topics: ['sanction'],
    });
  });

  it('keeps the name as designated first and its 18 translations and aliases as strong aliases', () => {
    const ibda = byId('207');
    expect(ibda.names[0]).toEqual({ full: 'İslami Büyük Doğu Akıncılar Cephesi', strength: 'PRIMARY' });
    expect(ibda.names).toHaveLength(19);
    expect(ibda.names.slice(1).every((n) => n.strength === 'STRONG')).toBe(true);
    expect(ibda.names.map((n) => n.full)).toEqual(expect.arrayContaining(['Great Islamic Eastern Warriors Front', 'IBDA-C', 'Фронт на великите ислямски източни воини']));
    expect(ibda).toMatchObject({ programs: ['TERR'], identifiers: [{ type: 'EU reference', number: 'EU.3523.13' }], birthDates: [] });
  });
});

describe('EU FSF XML, the file of 11 Dec 2024 (excerpt)', () => {
  const eu = parseEuFsf(read('eu-fsf-2024-12-11-excerpt.xml'));

  it('reads citizenship, birth place, aliases and the remark', () => {
    expect(eu.generatedAt).toBe('2024-12-11T21:24:35.826+01:00');
    expect(eu.entities).toEqual([
      {
        externalId: '13',
        kind: 'PERSON',
        names: [
          { full: 'Saddam Hussein Al-Tikriti', strength: 'PRIMARY' },
          { full: 'Abu Ali', strength: 'STRONG' },
          { full: 'Abou Ali', strength: 'STRONG' },
        ],
        birthDates: ['1937-04-28'],
        birthPlaces: ['al-Awja, near Tikrit, IRAQ'],
        nationalities: ['IQ'],
        countries: [],
        addresses: [],
        identifiers: [],
        programs: ['IRQ'],
        topics: ['sanction'],
        remarks: 'UNSC RESOLUTION 1483',
      },
    ]);
  });
});

describe('EU FSF XML, format cases not in the excerpts', () => {
  // Birth-date attributes as ammitto/ammitto's spec copies them from the live export (logicalIds 1865 and 117055).
  it('spreads a span of birth years, and drops a span open at one end', () => {
    expect(only('<birthdate circa="true" calendarType="GREGORIAN" city="Tirin Kot District, Uruzgan Province" yearRangeFrom="1953" yearRangeTo="1958" countryIso2Code="AF" countryDescription="AFGHANISTAN" logicalId="1865"/>')).toMatchObject({
      birthDates: ['1953', '1954', '1955', '1956', '1957', '1958'],
      birthPlaces: ['Tirin Kot District, Uruzgan Province, AFGHANISTAN'],
    });
    expect(only('<birthdate circa="false" calendarType="GREGORIAN" yearRangeTo="1980" countryIso2Code="ER" countryDescription="ERITREA" logicalId="117055"/>').birthDates).toEqual([]);
  });

  it('keeps a date at the precision given, and only the year of a circa date', () => {
    expect(only('<birthdate circa="false" year="1962"/><birthdate circa="false" monthOfYear="3" year="1970"/>').birthDates).toEqual(['1962', '1970-03']);
    expect(only('<birthdate circa="true" birthdate="1960-05-01" dayOfMonth="1" monthOfYear="5" year="1960"/>').birthDates).toEqual(['1960']);
  });

  it('marks strong="false" aliases weak and composes a name from its parts', () => {
    expect(only('<nameAlias firstName="Ivan" middleName="" lastName="Petrov" wholeName="" strong="false"/>').names).toEqual([
      { full: 'Listed Name', strength: 'PRIMARY' },
      { full: 'Ivan Petrov', strength: 'WEAK' },
    ]);
  });

  it('writes addresses out and keeps their countries; "00"/UNKNOWN is no country', () => {
    const company = only(
      '<address city="Damascus" street="Baramkeh" poBox="" zipCode="" region="" place="" countryIso2Code="SY" countryDescription="SYRIAN ARAB REPUBLIC"/>' +
        '<address city="" street="" poBox="" zipCode="" region="" place="" countryIso2Code="00" countryDescription="UNKNOWN"/>',
      'enterprise',
    );
    expect(company).toMatchObject({ kind: 'ORGANIZATION', addresses: ['Baramkeh, Damascus, SYRIAN ARAB REPUBLIC'], countries: ['SY'] });
  });

  it('refuses what is not a complete EU file instead of loading part of it', () => {
    expect(() => parseEuFsf('<html><body>maintenance</body></html>')).toThrow('not an EU financial sanctions file: no export element');
    expect(() => parseEuFsf('<export generationDate="2026-01-01"></export>')).toThrow('the EU file has no entries');
    expect(() => parseEuFsf(read('eu-fsf-2018-12-21-excerpt.xml').slice(0, 3_000))).toThrow('not well-formed XML');
    expect(() => parseEuFsf(entry('', 'vessel'))).toThrow('sanctionEntity 9: unknown subjectType "vessel"');
  });
});

describe('loading an EU file', () => {
  const db = createDatabase(inject('databaseUrl'), 1);
  afterAll(() => db.$disconnect());

  it('stores its entries with the generation date as publication date', async () => {
    const path = fileURLToPath(new URL('eu-fsf-2018-12-21-excerpt.xml', FIXTURES));
    const source = { id: `eu-fsf-${randomUUID().slice(0, 8)}`, name: 'EU FSF excerpt', format: 'eu-fsf-xml' as const, files: { primary: path } };
    const outcome = await refreshSource(db, source, pino({ level: 'silent' }));
    expect(outcome).toMatchObject({ status: 'LOADED', entityCount: 2 });
    const load = await db.watchlistLoad.findUniqueOrThrow({ where: { id: outcome.loadId } });
    expect(load.publishedAt?.toISOString()).toBe('2018-12-21T13:39:54.511Z');
  });
});
