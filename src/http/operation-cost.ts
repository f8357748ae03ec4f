import {
  type GraphQLField,
  type GraphQLNamedType,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
} from 'graphql';
import type { CostArgs, CostExtensions } from '../schema/cost.ts';
import { MAX_PAGE_SIZE } from '../schema/pagination.ts';
import type { SelectedField } from './operation-walk.ts';

// Connections keep @pothos/plugin-relay's page sizes (20 unless `first` or `last` asks, at most 100).
const CONNECTION_DEFAULT_SIZE = 20;
const CONNECTION_MAX_SIZE = 100;
/** What a list of records without paging arguments or a declared size is taken to hold. */
export const UNDECLARED_LIST_SIZE = 100;
/** Every mutation field writes (the row, its audit record and events, webhook deliveries). */
export const WRITE_COST = 10;

/** A database record (a Prisma model object): each one returned costs 1. */
export const isRecord = (type: GraphQLNamedType) => isObjectType(type) && Boolean(type.extensions?.pothosPrismaModel);

const own = (field: GraphQLField<unknown, unknown>) => (field.extensions ?? {}) as CostExtensions;

/** A page size as asked: a whole number of at least 0; anything else (a negative, a fraction) counts as the field's maximum. */
const asked = (value: unknown, max: number) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? Math.min(value, max) : max);

/** The page a paged field reads: its `limit`, `first` or `last` (else their default), capped at the field's maximum; undefined for other fields. */
export function pageSize(field: GraphQLField<unknown, unknown>, args: CostArgs): number | undefined {
  if (!field.args.length) return undefined;
  const limit = field.args.find((arg) => arg.name === 'limit');
  if (limit) return asked(args.limit ?? limit.defaultValue, MAX_PAGE_SIZE);
  if (field.args.some((arg) => arg.name === 'first' || arg.name === 'last')) {
    const options = (field.extensions?.pothosOptions ?? {}) as { defaultSize?: unknown; maxSize?: unknown };
    const max = typeof options.maxSize === 'number' ? options.maxSize : CONNECTION_MAX_SIZE;
    return asked(args.first ?? args.last ?? options.defaultSize ?? CONNECTION_DEFAULT_SIZE, max);
  }
  return undefined;
}

/** How many times a field's selection runs per parent: its page size, its list size, or 1. */
function multiplier(field: GraphQLField<unknown, unknown>, args: CostArgs): number {
  const page = pageSize(field, args);
  if (page !== undefined) return page;
  return isListType(getNullableType(field.type)) ? own(field).listSize ?? UNDECLARED_LIST_SIZE : 1;
}

/**
 * The cost of one field where the operation selects it, given the cost of
 * what is selected below it: the work it declares (a screening, OCR, an
 * email...), plus, for each record it can return (page and list sizes
 * multiplying along the path), 1 for the record and what is selected below.
 * Leaves and value objects add nothing of their own.
 */
export function fieldCost({ definition, parent, args }: SelectedField, below: number): number {
  const declared = own(definition).cost;
  const work = typeof declared === 'function' ? declared(args) : declared ?? 0;
  const write = parent.name === 'Mutation' ? WRITE_COST : 0;
  const unit = isRecord(getNamedType(definition.type)) ? 1 : 0;
  return work + write + multiplier(definition, args) * (unit + below);
}
