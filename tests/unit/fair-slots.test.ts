import { describe, expect, it } from 'vitest';
import { FairSlots, type Release } from '../../src/analysis/fair-slots.ts';

/** Acquires a slot for each group in order, noting the order in which they are granted. */
function requests(slots: FairSlots, groups: string[], granted: string[]) {
  return groups.map((group, i) => slots.acquire(group).then((release) => {
    granted.push(`${group}${i}`);
    return release;
  }));
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('fair slots', () => {
  it('grants freed slots in turn per group, not in arrival order', async () => {
    const slots = new FairSlots({ size: 1, perGroup: 1 });
    const granted: string[] = [];
    const pending = requests(slots, ['a', 'a', 'a', 'a', 'b', 'c', 'b'], granted);
    await settle();
    expect(granted).toEqual(['a0']);
    for (let i = 1; i < pending.length; i++) {
      // The request granted last gives its slot back.
      (await pending[Number(granted.at(-1)!.slice(1))]!)();
      await settle();
    }
    // a0 held the slot; then one each of a, b, c in turn, then the rest.
    expect(granted).toEqual(['a0', 'a1', 'b4', 'c5', 'a2', 'b6', 'a3']);
  });

  it("keeps slots free beyond one group's share for other groups", async () => {
    const slots = new FairSlots({ size: 3, perGroup: 2 });
    const granted: string[] = [];
    const backlog = requests(slots, ['a', 'a', 'a', 'a'], granted);
    await settle();
    expect(granted).toEqual(['a0', 'a1']);
    expect(slots.free).toBe(1);
    expect(slots.groupsAtLimit()).toEqual(['a']);
    const [other] = requests(slots, ['b'], granted);
    await settle();
    expect(granted).toEqual(['a0', 'a1', 'b0']);
    const releases: Release[] = [await backlog[0]!, await backlog[1]!, await other!];
    releases.forEach((release) => release());
    await settle();
    expect(granted).toEqual(['a0', 'a1', 'b0', 'a2', 'a3']);
  });

  it("refuses a group's request past its waiting limit when asked to (429), others still wait their turn", async () => {
    const slots = new FairSlots({ size: 1, perGroup: 1, maxWaitingPerGroup: 1 });
    const release = await slots.acquire('a');
    const waiting = slots.acquire('a', { refuseWhenFull: true });
    await expect(slots.acquire('a', { refuseWhenFull: true })).rejects.toMatchObject({ status: 429 });
    const other = slots.acquire('b', { refuseWhenFull: true });
    release();
    (await waiting)();
    (await other)();
    expect(slots.free).toBe(1);
  });
});
