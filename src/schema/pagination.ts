import type { ObjectRef } from '@pothos/core';
import { z } from 'zod';
import { builder, type Types } from '../builder.ts';
import { PAGE_ITEMS } from './cost.ts';

export const MAX_PAGE_SIZE = 100;

export interface ListResult<Item> {
  items: Item[];
  total: number;
  page: number;
  limit: number;
}

export const ListMeta = builder.objectRef<Omit<ListResult<unknown>, 'items'>>('ListMeta').implement({
  description: 'Offset pagination of a list.',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Matching items across all pages.' }),
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    totalPages: t.int({ resolve: ({ total, limit }) => Math.ceil(total / limit) }),
  }),
});

/** `page` (from 1) and `limit` (1..100) arguments shared by every list. */
export const pageArgs = builder.args((t) => ({
  page: t.int({
    defaultValue: 1,
    validate: z.number().int().min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000'),
  }),
  limit: t.int({
    defaultValue: 10,
    validate: z.number().int().min(1, 'must be at least 1').max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`),
  }),
}));

/** Lists show the newest rows first; the id breaks ties so pages never overlap. */
export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/**
 * One page of a list: the items of the window and the total. `items`
 * receives skip/take to spread into its findMany. A page that is not full
 * ends the list, so then the total is known without counting (a search with
 * a few matches costs one statement, not two); a full page, or an empty one
 * past the first, is counted.
 */
export async function pageOf<Item>(
  args: { page?: number | null; limit?: number | null },
  items: (window: { skip: number; take: number }) => Promise<Item[]>,
  count: () => Promise<number>,
): Promise<ListResult<Item>> {
  const page = args.page ?? 1;
  const limit = args.limit ?? 10;
  const skip = (page - 1) * limit;
  const rows = await items({ skip, take: limit });
  const ended = rows.length < limit && (rows.length > 0 || page === 1);
  const total = ended ? skip + rows.length : await count();
  return { items: rows, total, page, limit };
}

/** A `{items, meta}` page of some object type; resolvers fill `items` with `queryFromInfo(path: ['items'])`. */
export function listOf<Item>(name: string, item: ObjectRef<Types, Item>, description: string) {
  return builder.objectRef<ListResult<Item>>(name).implement({
    description,
    fields: (t) => ({
      items: t.field({ type: [item], extensions: PAGE_ITEMS, resolve: (list) => list.items }),
      meta: t.field({ type: ListMeta, resolve: (list) => list }),
    }),
  });
}
