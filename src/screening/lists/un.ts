import { XMLParser } from 'fast-xml-parser';
import { countryCodeOf, listedDate, type ListedEntity, type ListedIdentifier, type ListedName, unique } from './listed-entity.ts';

// The UN Security Council Consolidated List XML (sc-sanctions.xsd):
// INDIVIDUALS/INDIVIDUAL and ENTITIES/ENTITY with aliases of stated quality,
// dates of birth (exact, approximate or between years), nationalities,
// addresses and documents.

type Node = Record<string, unknown>;

const REPEATED = new Set([
  'INDIVIDUAL', 'ENTITY', 'INDIVIDUAL_ALIAS', 'ENTITY_ALIAS', 'INDIVIDUAL_ADDRESS', 'ENTITY_ADDRESS', 'INDIVIDUAL_DATE_OF_BIRTH',
  'INDIVIDUAL_PLACE_OF_BIRTH', 'INDIVIDUAL_DOCUMENT', 'VALUE',
]);

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, trimValues: true, isArray: (name) => REPEATED.has(name) });

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');
const list = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : value && typeof value === 'object' ? [value as Node] : []);
/** The texts of a <VALUE> list (NATIONALITY, DESIGNATION, ...). */
const values = (node: unknown): string[] => {
  const raw = (node as Node | undefined)?.VALUE;
  return (Array.isArray(raw) ? raw : [raw]).map(text).filter(Boolean);
};

export interface UnList {
  generatedAt: string | null;
  entities: ListedEntity[];
}

function aliasNames(aliases: Node[]): ListedName[] {
  return aliases
    .map((alias) => ({ full: text(alias.ALIAS_NAME), quality: text(alias.QUALITY) }))
    .filter((alias) => alias.full)
    // "Low" quality aliases are the weak ones; Good, a.k.a. and f.k.a. are reliable.
    .map((alias) => ({ full: alias.full, strength: alias.quality === 'Low' ? ('WEAK' as const) : ('STRONG' as const) }));
}

function birthDates(dates: Node[]): string[] {
  return dates.flatMap((date) => {
    if (text(date.TYPE_OF_DATE) === 'BETWEEN') {
      const from = Number(text(date.FROM_YEAR));
      const to = Number(text(date.TO_YEAR));
      return from && to && to >= from && to - from < 20 ? Array.from({ length: to - from + 1 }, (_, i) => String(from + i)) : [];
    }
    const exact = listedDate(text(date.DATE));
    return exact ? [exact] : text(date.YEAR) ? [text(date.YEAR)] : [];
  });
}

function addresses(nodes: Node[]) {
  return nodes
    .map((address) => ({
      text: [address.STREET, address.CITY, address.STATE_PROVINCE, address.ZIP_CODE, address.COUNTRY].map(text).filter(Boolean).join(', '),
      country: countryCodeOf(text(address.COUNTRY)),
    }))
    .filter((address) => address.text);
}

function documents(nodes: Node[]): ListedIdentifier[] {
  return nodes
    .filter((document) => text(document.NUMBER))
    .map((document) => {
      const country = countryCodeOf(text(document.ISSUING_COUNTRY) || text(document.COUNTRY_OF_ISSUE));
      return { type: text(document.TYPE_OF_DOCUMENT) || 'Document', number: text(document.NUMBER), ...(country ? { country } : {}) };
    });
}

export function parseUnList(xml: string): UnList {
  let root: Node | undefined;
  try {
    root = (parser.parse(xml) as Node).CONSOLIDATED_LIST as Node | undefined;
  } catch (error) {
    throw new Error(`not well-formed XML (${(error as Error).message.split('\n')[0]})`);
  }
  if (!root || typeof root !== 'object') throw new Error('not a UN consolidated list: no CONSOLIDATED_LIST element');
  const individuals = list((root.INDIVIDUALS as Node | undefined)?.INDIVIDUAL);
  const organizations = list((root.ENTITIES as Node | undefined)?.ENTITY);
  const common = (node: Node, kind: 'PERSON' | 'ORGANIZATION', aliases: Node[], addressNodes: Node[]): ListedEntity => {
    const primary = [node.FIRST_NAME, node.SECOND_NAME, node.THIRD_NAME, node.FOURTH_NAME].map(text).filter(Boolean).join(' ');
    const original = text(node.NAME_ORIGINAL_SCRIPT);
    const place = addresses(addressNodes);
    return {
      externalId: text(node.DATAID),
      kind,
      names: [{ full: primary, strength: 'PRIMARY' as const }, ...(original ? [{ full: original, strength: 'STRONG' as const }] : []), ...aliasNames(aliases)],
      birthDates: [],
      birthPlaces: [],
      nationalities: [],
      countries: unique(place.map((a) => a.country).filter((c): c is string => Boolean(c))),
      addresses: place.map((a) => a.text),
      identifiers: [{ type: 'UN reference', number: text(node.REFERENCE_NUMBER) }],
      programs: [text(node.UN_LIST_TYPE)].filter(Boolean),
      topics: ['sanction'],
      ...(text(node.LISTED_ON) ? { listedOn: text(node.LISTED_ON) } : {}),
      ...(text(node.COMMENTS1) ? { remarks: text(node.COMMENTS1) } : {}),
    };
  };
  const people = individuals.map((node) => {
    const entity = common(node, 'PERSON', list(node.INDIVIDUAL_ALIAS), list(node.INDIVIDUAL_ADDRESS));
    const places = list(node.INDIVIDUAL_PLACE_OF_BIRTH)
      .map((place) => [place.CITY, place.STATE_PROVINCE, place.COUNTRY].map(text).filter(Boolean).join(', '))
      .filter(Boolean);
    return {
      ...entity,
      birthDates: unique(birthDates(list(node.INDIVIDUAL_DATE_OF_BIRTH))),
      birthPlaces: places,
      nationalities: unique(values(node.NATIONALITY).map(countryCodeOf).filter((c): c is string => Boolean(c))),
      identifiers: [...entity.identifiers, ...documents(list(node.INDIVIDUAL_DOCUMENT))],
    };
  });
  const companies = organizations.map((node) => common(node, 'ORGANIZATION', list(node.ENTITY_ALIAS), list(node.ENTITY_ADDRESS)));
  if (people.length + companies.length === 0) throw new Error('the UN list has no entries');
  return { generatedAt: (root['@dateGenerated'] as string | undefined) ?? null, entities: [...people, ...companies] };
}
