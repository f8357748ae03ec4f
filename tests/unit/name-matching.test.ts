// The screening matcher on the real OFAC SDN and UN lists: each variant kind
// the issue names must still find the listed entity first.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseOfac } from '../../src/screening/lists/ofac.ts';
import { parseUnList } from '../../src/screening/lists/un.ts';
import { NameIndex, type ScreeningSubject } from '../../src/screening/matching/name-index.ts';
import { skeleton } from '../../src/screening/matching/phonetic.ts';
import { nameTokens } from '../../src/screening/matching/normalize.ts';

const DATASETS = new URL('../../../shared/datasets/sanctions/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DATASETS), 'utf8');
const sdn = parseOfac({ primary: read('ofac_sdn.csv'), aliases: read('ofac_alt.csv'), addresses: read('ofac_add.csv') });
const un = parseUnList(read('un_consolidated.xml')).entities;
const index = NameIndex.build([
  ...sdn.map((entity) => ({ id: `sdn:${entity.externalId}`, sourceId: 'ofac-sdn', listVersion: 'v1', entity })),
  ...un.map((entity) => ({ id: `un:${entity.externalId}`, sourceId: 'un', listVersion: 'v1', entity })),
]);
const top = (subject: ScreeningSubject) => index.search(subject, { limit: 5, threshold: 0.75 });

describe('normalization', () => {
  it('drops titles, particles and legal forms; transliterates and strips diacritics', () => {
    expect(nameTokens('Dr. Ayman AL-ZAWAHIRI', 'PERSON')).toEqual(['ayman', 'zawahiri']);
    expect(nameTokens("AL QA'IDA", 'ORGANIZATION')).toEqual(['qaida']);
    expect(nameTokens('José Müller-Lüdenscheidt', 'PERSON')).toEqual(['jose', 'muller', 'ludenscheidt']);
    expect(nameTokens('Банк Россия', 'ORGANIZATION')).toEqual(['bank', 'rossiya']);
    expect(nameTokens('Acme Trading Co., Ltd.', 'ORGANIZATION')).toEqual(['acme', 'trading']);
  });

  it.each([
    ['Mohammed', 'Muhammad', 'Mohamad'], ['Qaddafi', 'Gaddafi', 'Kadhafi'], ['Aleksandr', 'Alexander', 'Oleksandr'], ['Husain', 'Hussein', 'Hossein'], ['Osama', 'Usama', 'Usamah'],
  ])('gives transliteration variants one key: %s, %s, %s', (...variants) => {
    expect(new Set(variants.map((v) => skeleton(nameTokens(v)[0]!))).size).toBe(1);
  });
});

describe('finding the listed entity first', () => {
  it.each([
    ['an exact name', { name: 'Hasan NASRALLAH' }, 'sdn:2686'],
    ['a typo', { name: 'Hasan Nasralah' }, 'sdn:2686'],
    ['a transposition', { name: 'Hasan Nasrlalah' }, 'sdn:2686'],
    ['reordered tokens', { name: 'Nasrallah Hasan' }, 'sdn:2686'],
    ['a transliteration variant', { name: 'Muammar Gaddafi' }, 'sdn:12606'],
    ['an honorific and a particle', { name: 'Dr Ayman al-Zawahiri' }, 'sdn:2676'],
    ['spelling variants of both names', { name: 'Aymen Zawahiry' }, 'sdn:2676'],
    ['an alias', { name: 'National Bank of Cuba' }, 'sdn:306'],
    ['a missing middle name', { name: 'Khalid Mohammed' }, 'sdn:6928'],
    ['diacritics', { name: 'Hásan Nasralláh' }, 'sdn:2686'],
    ['a name in another script', { name: 'Усама бин Ладен' }, 'sdn:6365'],
  ] as const)('%s', (_kind, subject, expected) => {
    expect(top(subject)[0]?.entityId).toBe(expected);
  });

  it('explains the score by feature, with list version and algorithm version', () => {
    const [hit] = top({ name: 'Ayman Zawahiri', birthDate: '1951-06-19', countries: ['EG'], identifiers: ['1084010'] });
    expect(hit).toMatchObject({
      entityId: 'sdn:2676', sourceId: 'ofac-sdn', listVersion: 'v1', algorithmVersion: 'names-1.0',
      explanation: { birthDate: { effect: 'MATCH' }, identifier: { effect: 'MATCH', matched: 'Passport 1084010' } },
    });
    expect(hit!.explanation.name.pairs).toEqual([{ query: 'ayman', listed: 'ayman', similarity: 1 }, { query: 'zawahiri', listed: 'zawahiri', similarity: 1 }]);
  });

  it('raises a score on a matching date of birth and lowers it on a different one, keeping order in the top band', () => {
    const plain = top({ name: 'Aymen Zawahiry' })[0]!;
    const sameBirth = top({ name: 'Aymen Zawahiry', birthDate: '1951-06-19' })[0]!;
    const otherBirth = top({ name: 'Aymen Zawahiry', birthDate: '1990-01-01' }).find((h) => h.entityId === plain.entityId)!;
    expect(sameBirth.score).toBeGreaterThan(plain.score);
    expect(otherBirth?.score ?? 0).toBeLessThan(plain.score);
    expect(sameBirth.score).toBeLessThan(1);
  });

  it('does not report a name that is not listed', () => {
    expect(top({ name: 'Jane Example' })).toEqual([]);
    expect(top({ name: 'Margaret Thornbury-Wilkes' })).toEqual([]);
  });
});
