// The shared list snapshots (../shared/datasets/sanctions) as the screening index takes them.
import { readFileSync } from 'node:fs';
import type { ListedEntity } from '../src/screening/lists/listed-entity.ts';
import { parseOfac } from '../src/screening/lists/ofac.ts';
import { parseSenzing } from '../src/screening/lists/senzing.ts';
import { parseUnList } from '../src/screening/lists/un.ts';
import type { IndexedEntity } from '../src/screening/matching/name-index.ts';

const DATASETS = new URL('../../shared/datasets/sanctions/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DATASETS), 'utf8');

/** OFAC SDN (with aliases and addresses) and Consolidated, the UN list and the US Congress PEPs, ids `<source>:<publisher's id>`. */
export function loadSharedLists(): IndexedEntity[] {
  const lists: Array<[string, ListedEntity[]]> = [
    ['ofac-sdn', parseOfac({ primary: read('ofac_sdn.csv'), aliases: read('ofac_alt.csv'), addresses: read('ofac_add.csv') })],
    ['ofac-consolidated', parseOfac({ primary: read('ofac_cons_prim.csv'), aliases: read('ofac_cons_alt.csv') })],
    ['un-consolidated', parseUnList(read('un_consolidated.xml')).entities],
    ['us-congress-peps', parseSenzing(read('us_congress_senzing.json'))],
  ];
  return lists.flatMap(([sourceId, entities]) => entities.map((entity) => ({ id: `${sourceId}:${entity.externalId}`, sourceId, listVersion: 'snapshot', entity })));
}
