import { countryCodeOf, listedDate, type ListedEntity, type ListedName, unique } from './listed-entity.ts';

// Senzing entity JSON lines, as OpenSanctions publishes its datasets (one
// record per line: NAMES, DATES, COUNTRIES, ADDRESSES, IDENTIFIERS, RISKS).

type SenzingRecord = {
  RECORD_ID: string;
  RECORD_TYPE?: string;
  NAMES?: Array<Record<string, string>>;
  DATES?: Array<Record<string, string>>;
  COUNTRIES?: Array<Record<string, string>>;
  ADDRESSES?: Array<Record<string, string>>;
  IDENTIFIERS?: Array<Record<string, string>>;
  RISKS?: Array<{ TOPIC?: string }>;
  URL?: string;
};

function names(record: SenzingRecord): ListedName[] {
  return (record.NAMES ?? [])
    .map((name) => ({
      full: name.NAME_FULL ?? name.NAME_ORG ?? [name.NAME_FIRST, name.NAME_MIDDLE, name.NAME_LAST].filter(Boolean).join(' '),
      strength: name.NAME_TYPE === 'PRIMARY' ? ('PRIMARY' as const) : ('STRONG' as const),
    }))
    .filter((name) => name.full.trim())
    .sort((a, b) => (a.strength === 'PRIMARY' ? -1 : b.strength === 'PRIMARY' ? 1 : 0));
}

/**
 * One entity per person or organization record; other records (OpenSanctions
 * exports positions too, without a RECORD_TYPE) are not screening subjects.
 * A malformed line throws with its line number.
 */
export function parseSenzing(jsonLines: string): ListedEntity[] {
  return jsonLines
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line)
    .map(({ line, number }) => {
      try {
        return { record: JSON.parse(line) as SenzingRecord, number };
      } catch {
        throw new Error(`line ${number}: not valid JSON`);
      }
    })
    .filter(({ record }) => record.RECORD_TYPE === 'PERSON' || record.RECORD_TYPE === 'ORGANIZATION')
    .map(({ record, number }) => {
      if (!record.RECORD_ID) throw new Error(`line ${number}: no RECORD_ID`);
      const topics = (record.RISKS ?? []).map((r) => r.TOPIC ?? '');
      const nationalities = (record.COUNTRIES ?? []).flatMap((c) => [c.NATIONALITY, c.CITIZENSHIP].filter(Boolean)).map(countryCodeOf);
      const countries = (record.COUNTRIES ?? []).flatMap((c) => Object.values(c)).map(countryCodeOf);
      return {
        externalId: record.RECORD_ID,
        kind: record.RECORD_TYPE === 'ORGANIZATION' ? ('ORGANIZATION' as const) : ('PERSON' as const),
        names: names(record),
        birthDates: unique((record.DATES ?? []).map((d) => listedDate(d.DATE_OF_BIRTH ?? '')).filter((d): d is string => Boolean(d))),
        birthPlaces: [],
        nationalities: unique(nationalities.filter((c): c is string => Boolean(c))),
        countries: unique(countries.filter((c): c is string => Boolean(c))),
        addresses: (record.ADDRESSES ?? []).map((a) => a.ADDR_FULL ?? Object.values(a).join(', ')).filter(Boolean),
        identifiers: (record.IDENTIFIERS ?? [])
          .filter((i) => i.OTHER_ID_TYPE !== 'OPEN_SANCTIONS')
          .map((i) => ({ type: i.OTHER_ID_TYPE ?? i.NATIONAL_ID_TYPE ?? 'ID', number: i.OTHER_ID_NUMBER ?? i.NATIONAL_ID_NUMBER ?? i.PASSPORT_NUMBER ?? '' }))
          .filter((i) => i.number),
        programs: topics.filter(Boolean),
        topics: [...(topics.includes('role.pep') ? (['pep'] as const) : []), ...(topics.some((t) => t.startsWith('sanction')) ? (['sanction'] as const) : [])],
        ...(record.URL ? { remarks: record.URL } : {}),
      };
    });
}
