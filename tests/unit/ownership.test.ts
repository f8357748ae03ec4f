// Ownership computations on structures worked out by hand (numbers in the comments).
import { describe, expect, it } from 'vitest';
import { computeOwnership, type Holding, MAX_PATHS, type OwnershipParty } from '../../src/domain/ownership.ts';

const individual = (id: string, roles: OwnershipParty['roles'] = ['SHAREHOLDER']): OwnershipParty => ({ id, name: id, kind: 'INDIVIDUAL', roles });
const company = (id: string): OwnershipParty => ({ id, name: id, kind: 'COMPANY', roles: ['SHAREHOLDER'] });
const holds = (ownerId: string, ownedId: string | null, percentage: number): Holding => ({ ownerId, ownedId, percentage });

describe('three-layer structure', () => {
  // Business ← Alpha 70%, Dan 20%, Alice 10%; Alpha ← Beta 50%, Carol 50%; Beta ← Alice 80%, Bob 20%.
  const parties = [company('Alpha'), company('Beta'), individual('Alice'), individual('Bob'), individual('Carol', ['DIRECTOR']), individual('Dan')];
  const holdings = [
    holds('Alpha', null, 70), holds('Dan', null, 20), holds('Alice', null, 10),
    holds('Beta', 'Alpha', 50), holds('Carol', 'Alpha', 50),
    holds('Alice', 'Beta', 80), holds('Bob', 'Beta', 20),
  ];

  it('multiplies shares along each chain and adds the chains', () => {
    const structure = computeOwnership(parties, holdings);
    const effective = Object.fromEntries(structure.effective.map((e) => [e.partyId, e.percentage]));
    // Alice: 10 + 70 × 50% × 80% = 10 + 28 = 38; Carol: 70 × 50% = 35; Bob: 70 × 50% × 20% = 7; Beta: 35; Alpha: 70.
    expect(effective).toEqual({ Alpha: 70, Beta: 35, Alice: 38, Bob: 7, Carol: 35, Dan: 20 });
    expect(structure.ultimateBeneficialOwners).toEqual([
      { partyId: 'Alice', name: 'Alice', effectivePercentage: 38, paths: [{ partyIds: ['Alice'], percentage: 10 }, { partyIds: ['Alice', 'Beta', 'Alpha'], percentage: 28 }] },
      { partyId: 'Carol', name: 'Carol', effectivePercentage: 35, paths: [{ partyIds: ['Carol', 'Alpha'], percentage: 35 }] },
    ]);
    expect(structure.controlPersons).toEqual([{ partyId: 'Carol', name: 'Carol', roles: ['DIRECTOR'] }]);
    expect(structure).toMatchObject({ threshold: 25, noOwnerReachesThreshold: false, undisclosed: [] });
  });

  it('takes the threshold as configured', () => {
    const structure = computeOwnership(parties, holdings, 10);
    // At 10%: Alice 38, Carol 35, Dan 20 (Bob's 7 stays below).
    expect(structure.ultimateBeneficialOwners.map((o) => [o.partyId, o.effectivePercentage])).toEqual([['Alice', 38], ['Carol', 35], ['Dan', 20]]);
  });

  it('reports shares whose holders were not entered', () => {
    const partial = holdings.filter((h) => h.ownerId !== 'Bob');
    // Beta's owners now add up to 80%: 20% of Beta undisclosed.
    expect(computeOwnership(parties, partial).undisclosed).toEqual([{ ownedId: 'Beta', percentage: 20 }]);
  });
});

describe('structures where nobody reaches the threshold', () => {
  it('lists no owner and says so, with the control persons', () => {
    const owners = ['A', 'B', 'C', 'D', 'E'].map((id) => individual(id));
    // Five holders of 20% each: none at 25%.
    const structure = computeOwnership([...owners, individual('CEO', ['OFFICER'])], owners.map((o) => holds(o.id, null, 20)));
    expect(structure.ultimateBeneficialOwners).toEqual([]);
    expect(structure.noOwnerReachesThreshold).toBe(true);
    expect(structure.controlPersons).toEqual([{ partyId: 'CEO', name: 'CEO', roles: ['OFFICER'] }]);
  });

  it('dilutes a large holder of a minority shareholder below the threshold', () => {
    // Holdco owns 40%; Zoe owns 60% of Holdco: 24% of the business, under 25.
    const structure = computeOwnership([company('Holdco'), individual('Zoe')], [holds('Holdco', null, 40), holds('Zoe', 'Holdco', 60)]);
    expect(structure.effective.find((e) => e.partyId === 'Zoe')?.percentage).toBe(24);
    expect(structure.noOwnerReachesThreshold).toBe(true);
    expect(structure.undisclosed).toEqual([{ ownedId: null, percentage: 60 }, { ownedId: 'Holdco', percentage: 40 }]);
  });
});

describe('impossible structures are refused with a 400 naming the problem', () => {
  const refused = (parties: OwnershipParty[], holdings: Holding[]) => {
    try {
      computeOwnership(parties, holdings);
    } catch (error) {
      return { status: (error as { status: number }).status, message: (error as Error).message };
    }
    throw new Error('accepted');
  };

  it('refuses circular ownership', () => {
    const parties = [company('North'), company('South'), individual('Ann')];
    expect(refused(parties, [holds('North', null, 100), holds('South', 'North', 50), holds('North', 'South', 50), holds('Ann', 'South', 50)])).toEqual({
      status: 400,
      message: 'ownedBy: ownership is circular (South → North → South)',
    });
  });

  it('refuses more than 100% at one level', () => {
    expect(refused([individual('A'), individual('B')], [holds('A', null, 60), holds('B', null, 50.5)])).toEqual({
      status: 400,
      message: 'percentage: the owners of the business hold 110.5% together; at most 100% is possible',
    });
  });

  it('refuses negative, zero, oversized and non-numeric shares', () => {
    for (const percentage of [-5, 0, 100.01, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(refused([individual('A')], [holds('A', null, percentage)])).toEqual({
        status: 400,
        message: "percentage: A's share of the business must be a number above 0 and at most 100",
      });
    }
  });

  it('refuses owners of an individual, and a company owning itself', () => {
    expect(refused([individual('A'), individual('B')], [holds('A', 'B', 50)]).message).toBe('ownedBy: only companies have owners; B is an individual');
    expect(refused([company('C')], [holds('C', 'C', 50)]).message).toBe('ownedBy: C cannot own itself');
  });
});

describe('many layers of companies', () => {
  // Layer 0: X0 and Y0 hold 50% of the business each; every later layer's
  // Xi and Yi hold 50% of both companies of the layer below; Eve holds all of
  // X18. Chains from Eve: 2^18, her share 50% (each layer passes on half).
  const layers = 18;
  const parties = [individual('Eve')];
  const holdings = [holds('X0', null, 50), holds('Y0', null, 50), holds('Eve', `X${layers}`, 100)];
  for (let i = 0; i <= layers; i++) parties.push(company(`X${i}`), company(`Y${i}`));
  for (let i = 1; i <= layers; i++) {
    for (const owner of [`X${i}`, `Y${i}`]) holdings.push(holds(owner, `X${i - 1}`, 50), holds(owner, `Y${i - 1}`, 50));
  }

  it('adds up every chain without listing them all, and shows at most MAX_PATHS of them', () => {
    const structure = computeOwnership(parties, holdings);
    expect(structure.ultimateBeneficialOwners).toHaveLength(1);
    const [eve] = structure.ultimateBeneficialOwners;
    expect(eve).toMatchObject({ partyId: 'Eve', effectivePercentage: 50 });
    expect(eve!.paths).toHaveLength(MAX_PATHS);
    // Each chain listed runs from Eve through one company per layer to the business: 100% × 50%^31.
    for (const path of eve!.paths) expect(path.partyIds).toHaveLength(layers + 2);
  });
});
