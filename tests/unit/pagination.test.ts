// pageOf counts only when the page does not tell the total by itself.
import { describe, expect, it } from 'vitest';
import { pageOf } from '../../src/schema/pagination.ts';

/** A list of `size` items; records whether the count was asked for. */
function list(size: number) {
  const asked = { count: 0 };
  const items = async ({ skip, take }: { skip: number; take: number }) => Array.from({ length: Math.max(0, Math.min(take, size - skip)) }, (_, i) => skip + i);
  const count = async () => {
    asked.count++;
    return size;
  };
  return { items, count, asked };
}

describe('pageOf', () => {
  it.each([
    // [list size, page, limit, total, counted]
    [7, 1, 10, 7, false],
    [0, 1, 10, 0, false],
    [25, 3, 10, 25, false],
    [30, 3, 10, 30, true],
    [30, 1, 10, 30, true],
    [30, 5, 10, 30, true],
  ])('a list of %i, page %i of %i: total %i (counted: %s)', async (size, page, limit, total, counted) => {
    const { items, count, asked } = list(size);
    const result = await pageOf({ page, limit }, items, count);
    expect(result.total).toBe(total);
    expect(asked.count).toBe(counted ? 1 : 0);
    expect(result.items).toHaveLength(Math.max(0, Math.min(limit, size - (page - 1) * limit)));
  });
});
