import { parse } from 'csv-parse/sync';
import { countryCodeOf, listedDate, type ListedEntity, type ListedEntityKind, type ListedIdentifier, type ListedName, unique } from './listed-entity.ts';

// OFAC's legacy CSV files (SDN and Consolidated use the same layout): the
// primary file without a header, `-0- ` for empty fields, aliases and
// addresses in companion files keyed by ent_num, and dates of birth,
// nationalities, identifiers and weak aliases inside the remarks.

export interface OfacFiles {
  /** sdn.csv or cons_prim.csv */
  primary: string;
  /** alt.csv or cons_alt.csv */
  aliases?: string;
  /** add.csv or cons_add.csv */
  addresses?: string;
}

const rows = (text: string): string[][] =>
  (parse(text, { relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true }) as string[][])
    // The files end with a control character line; every real row starts with a number.
    .filter((row) => /^\d+$/.test(row[0] ?? ''));

const value = (field: string | undefined) => (field === undefined || field === '-0-' ? '' : field);

const KINDS: Record<string, ListedEntityKind> = { individual: 'PERSON', vessel: 'VESSEL', aircraft: 'AIRCRAFT' };

/** "NORIEGA, Manuel Antonio" → "Manuel Antonio NORIEGA" for people; other names stay. */
function displayName(name: string, kind: ListedEntityKind): string {
  if (kind !== 'PERSON') return name;
  const comma = name.indexOf(', ');
  return comma > 0 ? `${name.slice(comma + 2)} ${name.slice(0, comma)}` : name;
}

const ID_TYPES = /^(?:alt\. )?(Passport|IMO|MMSI|SSN|Cedula No\.|National ID No\.|Tax ID No\.|Identification Number|Registration ID|Registration Number|Business Registration Number|Driver's License No\.|NIT #|RFC|C\.U\.R\.P\.|D\.N\.I\.|Trade License No\.|Personal ID Card|Public Security and Immigration No\.|Residency Number|Legal Entity Number|Kenyan ID No\.|Bosnian Personal ID No\.|UK Company Number|V\.A\.T\. Number|Unified Social Credit Code \(USCC\)|Chinese Commercial Code|Company Number|Certificate of Incorporation Number|Aircraft Manufacturer's Serial Number \(MSN\)|Aircraft Tail Number)\s+(.+?)\s*(?:\(([^()]+)\))?$/;

interface RemarkFacts {
  birthDates: string[];
  birthPlaces: string[];
  nationalities: string[];
  identifiers: ListedIdentifier[];
  weakAliases: string[];
}

/** Facts OFAC writes into remarks: "DOB 10 Dec 1948; POB Giza, Egypt; Passport 1084010 (Egypt); a.k.a. 'BNC'." */
export function remarkFacts(remarks: string): RemarkFacts {
  const facts: RemarkFacts = { birthDates: [], birthPlaces: [], nationalities: [], identifiers: [], weakAliases: [] };
  for (const alias of remarks.matchAll(/[af]\.k\.a\. '([^']+)'/g)) facts.weakAliases.push(alias[1]!);
  for (const raw of remarks.replace(/\.$/, '').split(/;\s*/)) {
    const part = raw.trim();
    let m = /^(?:alt\. )?DOB (.+)$/.exec(part);
    if (m) {
      const range = /^(?:circa )?(\d{4}) to (\d{4})$/.exec(m[1]!);
      if (range) for (let year = Number(range[1]); year <= Number(range[2]); year++) facts.birthDates.push(String(year));
      else {
        const date = listedDate(m[1]!);
        if (date) facts.birthDates.push(date);
      }
      continue;
    }
    m = /^(?:alt\. )?POB (.+)$/.exec(part);
    if (m) {
      facts.birthPlaces.push(m[1]!);
      continue;
    }
    m = /^(?:alt\. )?(?:nationality|citizen) (.+)$/.exec(part);
    if (m) {
      const code = countryCodeOf(m[1]);
      if (code) facts.nationalities.push(code);
      continue;
    }
    m = ID_TYPES.exec(part);
    if (m) {
      const country = countryCodeOf(m[3]);
      facts.identifiers.push({ type: m[1]!.replace(/ No\.$/, ''), number: m[2]!.replace(/\s+/g, ' '), ...(country ? { country } : {}) });
    }
  }
  return facts;
}

export function parseOfac(files: OfacFiles): ListedEntity[] {
  const aliases = new Map<string, ListedName[]>();
  const kindOf = new Map<string, ListedEntityKind>();
  const primary = rows(files.primary);
  // A truncated or wrong download must not replace a real list with an empty one.
  if (primary.length === 0) throw new Error('the OFAC file has no entries');
  for (const row of primary) kindOf.set(row[0]!, KINDS[value(row[2]).toLowerCase()] ?? 'ORGANIZATION');
  for (const row of files.aliases ? rows(files.aliases) : []) {
    const [entNum, , , name] = row;
    if (!value(name)) continue;
    const list = aliases.get(entNum!) ?? [];
    list.push({ full: displayName(value(name), kindOf.get(entNum!) ?? 'ORGANIZATION'), strength: 'STRONG' });
    aliases.set(entNum!, list);
  }
  const addresses = new Map<string, Array<{ text: string; country: string | null }>>();
  for (const row of files.addresses ? rows(files.addresses) : []) {
    const [entNum, , street, city, country] = row.map(value);
    const text = [street, city, country].filter(Boolean).join(', ');
    if (!text) continue;
    addresses.set(entNum!, [...(addresses.get(entNum!) ?? []), { text, country: countryCodeOf(country) }]);
  }
  return primary.map((row) => {
    const [entNum, name, , program, title, , , , , flag, , remarksField] = row.map(value);
    const kind = kindOf.get(entNum!)!;
    const remarks = remarksField ?? '';
    const facts = remarkFacts(remarks);
    const flagCountry = countryCodeOf(flag);
    const notes = [title, remarks].filter(Boolean).join(' | ');
    return {
      externalId: entNum!,
      kind,
      names: [
        { full: displayName(name!, kind), strength: 'PRIMARY' as const },
        ...(aliases.get(entNum!) ?? []),
        ...facts.weakAliases.map((full) => ({ full, strength: 'WEAK' as const })),
      ],
      birthDates: unique(facts.birthDates),
      birthPlaces: unique(facts.birthPlaces),
      nationalities: unique(facts.nationalities),
      countries: unique([...(addresses.get(entNum!) ?? []).map((a) => a.country), flagCountry].filter((c): c is string => Boolean(c))),
      addresses: (addresses.get(entNum!) ?? []).map((a) => a.text),
      identifiers: facts.identifiers,
      // "SDGT] [IRGC": several programmes in one field.
      programs: (program ?? '').split(/\]\s*\[/).map((p) => p.replace(/[[\]]/g, '').trim()).filter(Boolean),
      topics: ['sanction' as const],
      ...(notes ? { remarks: notes } : {}),
    };
  });
}
