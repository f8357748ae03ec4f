import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { type DocumentNode, type ExecutionResult, GraphQLError, type GraphQLSchema, Lexer, Source, TokenKind, validate } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';
import type { Context } from '../context.ts';
import type { Database } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { Permission } from '../auth/permissions.ts';
import { fieldCost } from './operation-cost.ts';
import { connectionArgsProblem } from './connection-args.ts';
import { InvalidArguments, type OperationInput, TooManyFields, walkOperation } from './operation-walk.ts';
import { showRateLimit, takeFromCounters } from './rate-limit.ts';
import { missingPermission, type RefusedField } from './selection-permissions.ts';
import type { ServerContext } from './yoga.ts';

/** The limits of one GraphQL operation (src/config.ts GRAPHQL_MAX_*) and how cost turns into rate-limit points. */
export interface OperationLimits {
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxFields: number;
  maxCost: number;
  costPerPoint: number;
  /** Longest a query may run (src/http/execution-deadline.ts). */
  maxQueryMs: number;
  /** The rate-limit window, for the 429's message. */
  windowSeconds: number;
}

type LimitName = 'tokens' | 'depth' | 'aliases' | 'fields' | 'cost';

const SETTINGS: Record<LimitName, string> = {
  tokens: 'GRAPHQL_MAX_TOKENS',
  depth: 'GRAPHQL_MAX_DEPTH',
  aliases: 'GRAPHQL_MAX_ALIASES',
  fields: 'GRAPHQL_MAX_FIELDS',
  cost: 'GRAPHQL_MAX_COST',
};

/** A 400 naming the limit, its setting and what was measured (also as `extensions.limit`). */
export class OperationLimitError extends AppError {
  constructor(name: LimitName, maximum: number, found: number | string) {
    super('BAD_REQUEST', `Query too large: ${name === 'cost' ? 'estimated cost' : name} ${found} exceeds the limit of ${maximum} (${SETTINGS[name]}); see docs/api-limits.md`);
    this.extensions.limit = { name, maximum, found };
  }
}

/** The rate-limit points of an operation of this cost: one per `costPerPoint`, at least one. */
export const pointsFor = (cost: number, costPerPoint: number) => Math.max(1, Math.ceil(cost / costPerPoint));

/**
 * The document's tokens when there are more than `max` (the whole document is
 * counted then, to say how many), else undefined. Syntax errors stop the
 * count: the parser reports them.
 */
function countTokens(source: string, max: number): number | undefined {
  const lexer = new Lexer(new Source(source));
  let count = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  } catch {
    // A syntax error: counted up to it.
  }
  return count > max ? count : undefined;
}

const FOUND = /limit of \d+ exceeded, found (\d+)/;

/** Depth and aliases (graphql-armor's rules, fragments counted where they are spread), before validation. */
export function shapeProblem(schema: GraphQLSchema, document: DocumentNode, limits: OperationLimits): OperationLimitError | null {
  const refused: OperationLimitError[] = [];
  const onReject = (name: 'depth' | 'aliases', maximum: number) => [(_context: unknown, error: GraphQLError) => {
    refused.push(new OperationLimitError(name, maximum, Number(FOUND.exec(error.message)?.[1] ?? NaN)));
  }];
  validate(schema, document, [
    maxDepthRule({ n: limits.maxDepth, flattenFragments: true, propagateOnRejection: false, onReject: onReject('depth', limits.maxDepth) }),
    maxAliasesRule({ n: limits.maxAliases, propagateOnRejection: false, onReject: onReject('aliases', limits.maxAliases) }),
  ]);
  return refused[0] ?? null;
}

/**
 * What an operation costs and which selected fields the key may not run, in
 * one walk over the fields it would run; a 400 past the field limit, and a
 * 400 for the whole operation when a field's argument does not coerce or a
 * connection's paging arguments are invalid (execution would fail only that
 * field and run the rest). Undefined when the operation or its variables are
 * not valid: execution then refuses it before any resolver runs.
 */
export function measureOperation(input: OperationInput, held: ReadonlySet<Permission>, limits: OperationLimits) {
  const refused: RefusedField[] = [];
  try {
    const cost = walkOperation(input, limits.maxFields, (field, below) => {
      const permission = missingPermission(field.definition, held);
      if (permission) refused.push({ path: field.path, permission });
      const problem = connectionArgsProblem(field);
      if (problem) throw new InvalidArguments(problem);
      return fieldCost(field, below());
    });
    return cost === undefined ? undefined : { cost, refused };
  } catch (error) {
    if (error instanceof TooManyFields) throw new OperationLimitError('fields', limits.maxFields, `over ${limits.maxFields}`);
    if (error instanceof InvalidArguments) throw new AppError('BAD_USER_INPUT', `Invalid arguments: ${error.message}`);
    throw error;
  }
}

/** Most refused fields named in one answer. */
const MAX_REFUSALS = 10;

/** A 403 for a selected field the key may not run, at its place in the answer. */
function refusal({ path, permission }: RefusedField) {
  const message = `Forbidden: this API key lacks the permission ${permission}`;
  return new AppError('FORBIDDEN', message, new GraphQLError(message, { path }));
}

/**
 * Limits every GraphQL operation (REST routes run through here too) before
 * any resolver runs: the document's size in tokens before parsing, its depth
 * and aliases before validation, and, before execution, in one walk over
 * the fields it would run (src/http/operation-walk.ts), its field count, the
 * permissions of every selected field (a 403 naming each missing one,
 * src/http/selection-permissions.ts) and its estimated cost
 * (src/http/operation-cost.ts). An operation within the limits counts
 * its rate-limit points beyond the first (counted at authentication) in the
 * shared counters, and its answer reports `extensions.cost`.
 */
export function useOperationLimits(limits: OperationLimits, db: Database): Plugin<ServerContext & Context> {
  // Parsed documents are cached and reused (yoga's parser cache, REST's saved operations): each is measured once.
  const shapeProblems = new WeakMap<DocumentNode, OperationLimitError | null>();
  const takeFromCounter = takeFromCounters(db);
  return {
    onParams({ params, setResult }) {
      // Counted before parsing (a parse error would be answered 200 to application/json callers).
      if (typeof params.query !== 'string') return;
      const tokens = countTokens(params.query, limits.maxTokens);
      if (tokens !== undefined) setResult({ errors: [new OperationLimitError('tokens', limits.maxTokens, tokens)] });
    },
    onValidate({ params: { schema, documentAST } }) {
      let problem = shapeProblems.get(documentAST);
      if (problem === undefined) shapeProblems.set(documentAST, (problem = shapeProblem(schema, documentAST, limits)));
      // Thrown rather than reported: a validation error would keep status 200 for application/json.
      if (problem) throw problem;
    },
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as ServerContext & Context;
      const measured = measureOperation(args, context.apiKey.permissions, limits);
      if (!measured) return;
      const { cost, refused } = measured;
      if (refused.length) return setResultAndStopExecution({ errors: refused.slice(0, MAX_REFUSALS).map(refusal) });
      if (cost > limits.maxCost) throw new OperationLimitError('cost', limits.maxCost, cost);
      const points = pointsFor(cost, limits.costPerPoint);
      const koa = context.koa;
      const counts = koa?.state.requestCounts;
      if (counts?.charge && points > 1) {
        koa.state.requestCounts = await counts.charge(points - 1, takeFromCounter);
        showRateLimit(koa, koa.state.requestCounts, limits.windowSeconds);
      }
      const report = { requested: cost, limit: limits.maxCost, rateLimitPoints: points };
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const single = result as ExecutionResult;
          setResult({ ...single, extensions: { ...single.extensions, cost: report } });
        },
      };
    },
  };
}

/** The limits as configured (src/config.ts). */
export function operationLimits(config: Config): OperationLimits {
  return {
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxFields: config.GRAPHQL_MAX_FIELDS,
    maxCost: config.GRAPHQL_MAX_COST,
    costPerPoint: config.RATE_LIMIT_COST_PER_POINT,
    maxQueryMs: config.GRAPHQL_MAX_QUERY_MS,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
  };
}
