import { XMLParser } from 'fast-xml-parser';
import { countryCodeOf, type ListedEntity, type ListedIdentifier, type ListedName, unique } from './listed-entity.ts';

// The EU Financial Sanctions Files XML (xmlFullSanctionsList_1_1): <export
// generationDate> with one <sanctionEntity logicalId> per listing. Nearly
// everything is in attributes: names (nameAlias, strong or not, in many
// languages), birth dates at their precision, citizenships, addresses,
// identification documents and the regulations whose programme lists it.

type Node = Record<string, unknown>;

const REPEATED = new Set(['sanctionEntity', 'nameAlias', 'regulation', 'birthdate', 'citizenship', 'identification', 'address', 'remark']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  trimValues: true,
  removeNSPrefix: true,
  isArray: (name) => REPEATED.has(name),
});

const list = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : value && typeof value === 'object' ? [value as Node] : []);
const attr = (node: Node, name: string) => (typeof node[`@${name}`] === 'string' ? (node[`@${name}`] as string).trim() : '');
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : value && typeof value === 'object' ? text((value as Node)['#text']) : '');
const pad = (value: string) => value.padStart(2, '0');

export interface EuFsfList {
  entities: ListedEntity[];
  generatedAt?: string;
}

/** ISO alpha-2 of a node's country; the publisher writes "00" / "UNKNOWN" when it has none. */
function countryOf(node: Node): string | null {
  return countryCodeOf(attr(node, 'countryIso2Code')) ?? countryCodeOf(attr(node, 'countryDescription'));
}

/** The node's place as written, without the publisher's "UNKNOWN" country. */
function placeOf(node: Node, parts: string[]): string {
  const country = attr(node, 'countryDescription');
  return [...parts.map((part) => attr(node, part)), country === 'UNKNOWN' ? '' : country].filter(Boolean).join(', ');
}

function names(aliases: Node[]): ListedName[] {
  const named = aliases
    .map((alias) => ({
      full: attr(alias, 'wholeName') || ['firstName', 'middleName', 'lastName'].map((part) => attr(alias, part)).filter(Boolean).join(' '),
      language: attr(alias, 'nameLanguage'),
      // strong="false" is the publisher's weak alias; some older entries say so only in a remark.
      weak: attr(alias, 'strong') === 'false' || list(alias.remark).some((remark) => /low quality/i.test(text(remark))),
    }))
    .filter((alias) => alias.full);
  // The name as designated carries no nameLanguage; the others are its translations and aliases.
  const primary = named.find((alias) => !alias.language) ?? named[0];
  if (!primary) return [];
  const ordered = [primary, ...named.filter((alias) => alias !== primary)];
  const seen = new Set<string>();
  return ordered.flatMap((alias) => {
    if (seen.has(alias.full)) return [];
    seen.add(alias.full);
    const strength = alias === primary ? ('PRIMARY' as const) : alias.weak ? ('WEAK' as const) : ('STRONG' as const);
    return [{ full: alias.full, strength }];
  });
}

/** YYYY[-MM[-DD]] at the precision given; a span of years becomes each year; a circa date keeps only its year. */
function birthDates(nodes: Node[]): string[] {
  return nodes.flatMap((node) => {
    const from = Number(attr(node, 'yearRangeFrom'));
    const to = Number(attr(node, 'yearRangeTo'));
    if (from || to) return from && to && to >= from && to - from < 20 ? Array.from({ length: to - from + 1 }, (_, i) => String(from + i)) : [];
    const exact = attr(node, 'birthdate');
    const year = attr(node, 'year');
    const month = attr(node, 'monthOfYear');
    const day = attr(node, 'dayOfMonth');
    let date = /^\d{4}-\d{2}-\d{2}$/.test(exact) ? exact : '';
    if (!date && /^\d{4}$/.test(year)) date = month ? `${year}-${pad(month)}${day ? `-${pad(day)}` : ''}` : year;
    // An approximate date is only as good as its year.
    return date ? [attr(node, 'circa') === 'true' ? date.slice(0, 4) : date] : [];
  });
}

function identifiers(entry: Node): ListedIdentifier[] {
  const references: ListedIdentifier[] = [
    { type: 'EU reference', number: attr(entry, 'euReferenceNumber') },
    { type: 'UN reference', number: attr(entry, 'unitedNationId') },
  ].filter((reference) => reference.number);
  const documents = list(entry.identification).flatMap((node) => {
    const type = attr(node, 'identificationTypeDescription') || attr(node, 'identificationTypeCode') || 'Document';
    const country = countryOf(node);
    return unique([attr(node, 'number'), attr(node, 'latinNumber')].filter(Boolean)).map((number) => ({ type, number, ...(country ? { country } : {}) }));
  });
  return [...references, ...documents];
}

function kindOf(entry: Node): 'PERSON' | 'ORGANIZATION' {
  const subject = list(entry.subjectType)[0] ?? {};
  const code = attr(subject, 'code') || attr(subject, 'classificationCode');
  if (code === 'person' || code === 'P') return 'PERSON';
  if (code === 'enterprise' || code === 'E') return 'ORGANIZATION';
  throw new Error(`sanctionEntity ${attr(entry, 'logicalId')}: unknown subjectType "${code}"`);
}

function entityOf(entry: Node): ListedEntity {
  const addresses = list(entry.address).map((node) => ({ text: placeOf(node, ['street', 'poBox', 'city', 'zipCode', 'region', 'place']), country: countryOf(node) }));
  const remarks = list(entry.remark).map(text).filter(Boolean).join('\n');
  const listedOn = attr(entry, 'designationDate');
  return {
    externalId: attr(entry, 'logicalId'),
    kind: kindOf(entry),
    names: names(list(entry.nameAlias)),
    birthDates: unique(birthDates(list(entry.birthdate))),
    birthPlaces: unique(list(entry.birthdate).map((node) => placeOf(node, ['city', 'region', 'place'])).filter(Boolean)),
    nationalities: unique(list(entry.citizenship).map(countryOf).filter((c): c is string => Boolean(c))),
    countries: unique(addresses.map((a) => a.country).filter((c): c is string => Boolean(c))),
    addresses: addresses.map((a) => a.text).filter(Boolean),
    identifiers: identifiers(entry),
    programs: unique(list(entry.regulation).map((node) => attr(node, 'programme')).filter(Boolean)),
    topics: ['sanction'],
    // The regulation on an entry is often a later amendment, so only designationDate is a listing date.
    ...(listedOn ? { listedOn } : {}),
    ...(remarks ? { remarks } : {}),
  };
}

export function parseEuFsf(xml: string): EuFsfList {
  let document: Node;
  try {
    // Validated first: a truncated download must fail, not load a partial list.
    document = parser.parse(xml, true) as Node;
  } catch (error) {
    throw new Error(`not well-formed XML (${(error as Error).message.split('\n')[0]})`);
  }
  if (!('export' in document)) throw new Error('not an EU financial sanctions file: no export element');
  const root = list(document.export)[0] ?? {};
  const entities = list(root.sanctionEntity).map(entityOf).filter((entity) => entity.names.length > 0);
  if (entities.length === 0) throw new Error('the EU file has no entries');
  const generatedAt = attr(root, 'generationDate');
  return { entities, ...(generatedAt ? { generatedAt } : {}) };
}
