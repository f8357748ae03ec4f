import { createHash } from 'node:crypto';
import type { ListedEntity } from './lists/listed-entity.ts';

/**
 * SHA-256 of what a reviewer judged when deciding a hit: the entity's
 * content in a canonical form. A decision carries over to later screenings
 * while the fingerprint is unchanged; any change to the listing reopens it.
 */
export function entityFingerprint(entity: ListedEntity): string {
  const sorted = (values: string[]) => [...values].sort();
  const canonical = {
    kind: entity.kind,
    names: entity.names.map((n) => `${n.strength}:${n.full}`).sort(),
    birthDates: sorted(entity.birthDates),
    birthPlaces: sorted(entity.birthPlaces),
    nationalities: sorted(entity.nationalities),
    countries: sorted(entity.countries),
    addresses: sorted(entity.addresses),
    identifiers: entity.identifiers.map((i) => `${i.type}|${i.number}|${i.country ?? ''}`).sort(),
    programs: sorted(entity.programs),
    topics: sorted(entity.topics),
    listedOn: entity.listedOn ?? null,
    remarks: entity.remarks ?? null,
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}
