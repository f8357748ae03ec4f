// The GraphQL operation limits against the schema itself: every saved
// operation (graphql/operations, which the REST routes run) passes them at
// its largest page sizes, the cost model multiplies along the path as
// documented, and every list of records declares how large it can get.
import { getNamedType, getNullableType, isListType, isObjectType, Lexer, parse, print, Source, TokenKind } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, type Permission } from '../../src/auth/permissions.ts';
import { loadConfig } from '../../src/config.ts';
import { isRecord, pageSize, UNDECLARED_LIST_SIZE } from '../../src/http/operation-cost.ts';
import { measureOperation, OperationLimitError, operationLimits, pointsFor, shapeProblem } from '../../src/http/operation-limits.ts';
import type { CostExtensions } from '../../src/schema/cost.ts';
import { schema } from '../../src/schema/index.ts';
import { largestVariables, savedOperations } from '../helpers/saved-operations.ts';

const limits = operationLimits(loadConfig({}));
const everything = new Set(ALL_PERMISSIONS);

function tokens(text: string) {
  const lexer = new Lexer(new Source(text));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  return count;
}

const cost = (query: string, variables: Record<string, unknown> = {}) => measureOperation({ schema, document: parse(query), variableValues: variables }, everything, limits)!.cost;
const refused = (query: string, held: ReadonlySet<Permission>) => measureOperation({ schema, document: parse(query) }, held, limits)!.refused;

describe('saved operations', () => {
  it('finds the saved operations', () => {
    expect(savedOperations.length).toBeGreaterThan(60);
  });

  it.each(savedOperations.map((op) => [op.name, op] as const))('%s passes every limit at its largest page sizes', (_name, op) => {
    expect(tokens(print(op.document))).toBeLessThanOrEqual(limits.maxTokens);
    expect(shapeProblem(schema, op.document, limits)).toBeNull();
    const measured = measureOperation({ schema, document: op.document, operationName: op.name, variableValues: largestVariables(schema, op.operation) }, everything, limits);
    expect(measured, 'its variables coerce').toBeDefined();
    expect(measured!.refused, 'a key with every permission runs it').toEqual([]);
    expect(measured!.cost).toBeLessThanOrEqual(limits.maxCost);
  });
});

describe('the cost model', () => {
  it('costs one per record, page sizes multiplying along the path', () => {
    // 10 tasks (the default page), each with its case (1) and up to 20 notes (a connection's default page).
    expect(cost('{ tasks { items { id consumerCase { id notes { edges { node { id } } } } } meta { total } } }')).toBe(10 * (1 + 1 + 20));
    expect(cost('query ($n: Int) { tasks(limit: $n) { items { id } } }', { n: 100 })).toBe(100);
    // Scalars and value objects add nothing; a list of records without paging counts its declared size (25 hits).
    expect(cost('{ screening(id: "x") { id name listVersions { sourceId } hits { id } } }')).toBe(1 + 25);
  });

  it('adds the declared work of expensive fields and a write per mutation field', () => {
    expect(cost('mutation { screenName(input: { name: "A", kind: PERSON }) { id } }')).toBe(1000 + 10 + 1);
    expect(cost('mutation { screenBusinessCase(id: "x", includeParties: false) { screenings { id } } }')).toBe(1000 + 50 + 10 + 6);
    expect(cost('mutation { screenBusinessCase(id: "x") { screenings { id } } }')).toBe(6 * 1000 + 50 + 10 + 6);
  });

  it('counts a page size that is not a whole number of at least 0 as the largest page, never as a discount', () => {
    expect(cost('{ tasks(limit: -100000) { items { id } } }')).toBe(100);
    expect(cost('query ($n: Int) { tasks(limit: $n) { items { id } } }', { n: -5 })).toBe(100);
  });

  it('weighs the bytes and rendering of heavy fields, not only the rows', () => {
    // A note is 1 record, its body a long text (20), its HTML the text rendered (20 + 50).
    expect(cost('{ notes(limit: 100) { items { id } } }')).toBe(100);
    expect(cost('{ notes(limit: 100) { items { body bodyHtml } } }')).toBe(100 * (1 + 20 + 70));
    // The tester's query: 100 tasks, each with 8 notes of its case, body and HTML.
    expect(cost('{ tasks(limit: 100) { items { id consumerCase { notes(first: 8) { edges { node { body bodyHtml } } } } } } }')).toBe(100 * (1 + 1 + 8 * 91));
    // Writing a note renders it (500): 30 aliased writes do not fit the limit, 19 do.
    expect(cost('mutation { createNote(input: { body: "x", taskId: "t" }) { id } }')).toBe(500 + 10 + 1);
    expect(cost(`mutation { ${Array.from({ length: 19 }, (_, n) => `n${n}: updateNote(id: "x", input: { pinned: true }) { id }`).join(' ')} }`)).toBe(19 * 511);
    // An audit event's rows as stored (a note's whole body among them): a long text each.
    expect(cost('{ auditEvents(limit: 100) { items { before after } } }')).toBe(100 * (1 + 20 + 20));
  });

  it('refuses, before execution, arguments that do not coerce and invalid connection pages', () => {
    const measure = (query: string, variables: Record<string, unknown> = {}) => () => measureOperation({ schema, document: parse(query), variableValues: variables }, everything, limits);
    expect(measure('query ($n: ID = "x") { w: task(id: $n) { id } }', { n: null })).toThrow(/^Invalid arguments: /);
    // Variables that do not coerce are left to execution, which then runs nothing.
    expect(measure('query ($n: Int!) { tasks(limit: $n) { items { id } } }', { n: 'many' })()).toBeUndefined();
    expect(measure('{ consumerCase(id: "x") { tasks(first: -5) { edges { node { id } } } } }')).toThrow('"first" must be a non-negative integer');
    expect(measure('{ consumerCase(id: "x") { tasks(last: 1, before: "garbage") { edges { node { id } } } } }')).toThrow('"before" is not a cursor');
  });

  it('skips what @skip and @include leave out', () => {
    expect(cost('query ($all: Boolean!) { tasks(limit: 100) { items { id assignees @include(if: $all) { userId } } } }', { all: false })).toBe(100);
    expect(cost('query ($all: Boolean!) { tasks(limit: 100) { items { id assignees @include(if: $all) { userId } } } }', { all: true })).toBe(100 * (1 + 10));
  });

  it('turns cost into rate-limit points: one per 1000, at least one', () => {
    expect([0, 1, 1000, 1001, 7100].map((cost) => pointsFor(cost, 1000))).toEqual([1, 1, 1, 2, 8]);
  });

  it('declares a size for every list of records without paging arguments, or looks through a page', () => {
    const undeclared = Object.values(schema.getTypeMap())
      .filter(isObjectType)
      .filter((type) => !type.name.startsWith('__'))
      .flatMap((type) => Object.values(type.getFields()).map((field) => ({ type, field })))
      .filter(({ field }) => isListType(getNullableType(field.type)) && pageSize(field, {}) === undefined)
      .filter(({ field }) => {
        const item = getNamedType(field.type);
        // Lists of records, and of edges (whose node is a record).
        return isRecord(item) || (isObjectType(item) && 'node' in item.getFields());
      })
      .filter(({ field }) => (field.extensions as CostExtensions).listSize === undefined)
      .map(({ type, field }) => `${type.name}.${field.name}`);
    expect(undeclared, `each would count as ${UNDECLARED_LIST_SIZE} items`).toEqual([]);
  });
});

describe('permissions of the selection', () => {
  it('finds every field the key may not run, below the root and in fragments, with its place in the answer', () => {
    const tasksWrite = new Set<Permission>(['tasks:write']);
    expect(refused('mutation { createTask(input: { title: "x" }) { id notes { edges { node { id } } } } }', tasksWrite)).toEqual([{ path: ['createTask', 'notes'], permission: 'notes:read' }]);
    expect(refused('mutation { t: createTask(input: { title: "x" }) { ...T } } fragment T on Task { ... on Task { consumerCase { id } } }', tasksWrite))
      .toEqual([{ path: ['t', 'consumerCase'], permission: 'consumer_cases:read' }]);
    expect(refused('mutation { createTask(input: { title: "x" }) { id } }', tasksWrite)).toEqual([]);
    expect(refused('mutation { createNote(input: { body: "x" }) { id } createTask(input: { title: "x" }) { notes { totalCount } } }', tasksWrite)).toEqual([
      { path: ['createNote'], permission: 'notes:write' },
      { path: ['createTask', 'notes'], permission: 'notes:read' },
    ]);
    // What @skip leaves out does not run.
    expect(refused('mutation { createTask(input: { title: "x" }) { id notes @skip(if: true) { totalCount } } }', tasksWrite)).toEqual([]);
  });
});

describe('the field limit', () => {
  it('counts fields each time a fragment is spread, and stops a fragment bomb', () => {
    // Each fragment spreads the next twice: 2^12 copies of `id`.
    const fragments = Array.from({ length: 12 }, (_, i) => `fragment F${i} on Task { ...F${i + 1} ...F${i + 1} }`).join(' ');
    const bomb = parse(`{ task(id: "x") { ...F0 } } ${fragments} fragment F12 on Task { id }`);
    expect(() => measureOperation({ schema, document: bomb }, everything, limits)).toThrow(OperationLimitError);
    try {
      measureOperation({ schema, document: bomb }, everything, limits);
    } catch (error) {
      expect((error as OperationLimitError).extensions.limit).toEqual({ name: 'fields', maximum: 2000, found: 'over 2000' });
    }
  });
});

describe('the shape limits', () => {
  it('names depth and aliases with what was found', () => {
    let deep = '{ id }';
    for (let i = 0; i < 8; i++) deep = `{ consumerCase { tasks { edges { node ${deep} } } } }`;
    const tooDeep = shapeProblem(schema, parse(`{ task(id: "x") ${deep} }`), limits);
    expect(tooDeep).toBeInstanceOf(OperationLimitError);
    expect(tooDeep!.extensions).toMatchObject({ code: 'BAD_REQUEST', http: { status: 400 }, limit: { name: 'depth', maximum: limits.maxDepth, found: 34 } });
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: screeningSettings { threshold }`).join(' ');
    expect(shapeProblem(schema, parse(`{ ${aliases} }`), limits)!.extensions.limit).toEqual({ name: 'aliases', maximum: 30, found: 31 });
  });
});
