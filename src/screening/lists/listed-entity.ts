import countries from 'i18n-iso-countries';

// One entry of a watchlist, whatever its publisher's format: what screening
// compares a subject with, and what a reviewer needs to judge a hit.

export type ListedEntityKind = 'PERSON' | 'ORGANIZATION' | 'VESSEL' | 'AIRCRAFT';

/** PRIMARY: the listed name; STRONG: an alias the publisher calls reliable; WEAK: a low-quality alias. */
export type NameStrength = 'PRIMARY' | 'STRONG' | 'WEAK';

export interface ListedName {
  full: string;
  strength: NameStrength;
}

export interface ListedIdentifier {
  type: string;
  number: string;
  /** ISO 3166-1 alpha-2 when the publisher names a country we recognise. */
  country?: string;
}

export interface ListedEntity {
  /** The publisher's own id, stable across versions (OFAC ent_num, UN DATAID, OpenSanctions id). */
  externalId: string;
  kind: ListedEntityKind;
  names: ListedName[];
  /** YYYY, YYYY-MM or YYYY-MM-DD, as precise as the publisher gives them. */
  birthDates: string[];
  birthPlaces: string[];
  /** ISO 3166-1 alpha-2 where recognised (nationality, citizenship). */
  nationalities: string[];
  /** ISO 3166-1 alpha-2 of addresses and other country links. */
  countries: string[];
  addresses: string[];
  identifiers: ListedIdentifier[];
  /** Sanctions programmes, UN list types, or OpenSanctions topics. */
  programs: string[];
  /** sanction: on a sanctions list; pep: a politically exposed person. */
  topics: Array<'sanction' | 'pep'>;
  listedOn?: string;
  remarks?: string;
}

// Publishers' spellings that the ISO name tables do not carry.
const COUNTRY_ALIASES: Record<string, string> = {
  'democratic republic of the congo': 'CD',
  'congo, democratic republic of the': 'CD',
  'iran (islamic republic of)': 'IR',
  "democratic people's republic of korea": 'KP',
  'korea, north': 'KP',
  'korea, south': 'KR',
  'republic of korea': 'KR',
  'syrian arab republic': 'SY',
  'syria': 'SY',
  'macedonia, the former yugoslav republic of': 'MK',
  'the former yugoslav republic of macedonia': 'MK',
  'palestinian': 'PS',
  'russian federation': 'RU',
  'united kingdom of great britain and northern ireland': 'GB',
  'united republic of tanzania': 'TZ',
  'bolivia (plurinational state of)': 'BO',
  'venezuela (bolivarian republic of)': 'VE',
  'lao people\'s democratic republic': 'LA',
  'burma': 'MM',
  'west bank': 'PS',
  'gaza': 'PS',
  'palestinian territories': 'PS',
  'state of palestine': 'PS',
  'kosovo': 'XK',
  'turkey': 'TR',
  'türkiye': 'TR',
  'czech republic': 'CZ',
  'macau': 'MO',
  'hong kong': 'HK',
  'ivory coast': 'CI',
  "cote d'ivoire": 'CI',
  'cabo verde': 'CV',
  'the bahamas': 'BS',
  'the gambia': 'GM',
  'brunei darussalam': 'BN',
  'republic of moldova': 'MD',
};

/** ISO 3166-1 alpha-2 of a country named in English (or already coded), else null. */
export function countryCodeOf(name: string | undefined | null): string | null {
  const cleaned = (name ?? '').trim().replace(/\s+/g, ' ').replace(/\.$/, '');
  if (!cleaned) return null;
  if (/^[A-Za-z]{2}$/.test(cleaned) && countries.isValid(cleaned.toUpperCase())) return cleaned.toUpperCase();
  const alias = COUNTRY_ALIASES[cleaned.toLowerCase()];
  if (alias) return alias;
  return countries.getAlpha2Code(cleaned, 'en') ?? countries.getAlpha2Code(cleaned.replace(/\s*\(.*\)$/, ''), 'en') ?? null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** Dates as publishers write them ("10 Dec 1948", "Dec 1948", "1948", "1948-12-10") at their precision; null otherwise. */
export function listedDate(text: string): string | null {
  const value = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4})$/.exec(value);
  if (m && MONTHS.includes(m[2]!.toLowerCase())) return `${m[3]}-${pad(MONTHS.indexOf(m[2]!.toLowerCase()) + 1)}-${pad(Number(m[1]))}`;
  m = /^([A-Za-z]{3})[a-z]* (\d{4})$/.exec(value);
  if (m && MONTHS.includes(m[1]!.toLowerCase())) return `${m[2]}-${pad(MONTHS.indexOf(m[1]!.toLowerCase()) + 1)}`;
  m = /^(?:circa |approximately )?(\d{4})$/i.exec(value);
  if (m) return m[1]!;
  return null;
}

export const unique = <T>(values: T[]) => [...new Set(values)];
