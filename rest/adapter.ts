import Router from '@koa/router';
import { type GraphQLSchema, getOperationAST, type OperationDefinitionNode, print } from 'graphql';
import type { Context } from 'koa';
import { declaredPermission } from '../src/auth/field-permission.ts';
import { AppError, badRequest, ERROR_STATUS, type ErrorCode, forbidden, GENERIC_SERVER_ERROR } from '../src/errors.ts';
import type { AuthState } from '../src/http/authenticate.ts';
import type { GraphQLServer, ServerContext } from '../src/http/yoga.ts';
import { readJsonObject } from './json-body.ts';
import { readFilePart } from './multipart.ts';
import type { RestRoute, VariableSource } from './route.ts';

interface GraphQLResponse {
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<{ message: string; extensions?: { code?: unknown; http?: { status?: number } } }>;
}

// What GraphQL's HTTP layer would be given; the operation itself comes as parsed parameters (below).
const REST_REQUEST = new Request('http://rest.internal/graphql', { method: 'POST' });

/** The status an operation's errors stand for, as yoga answers it: the highest they declare, else 500 without data. */
function statusOf(result: GraphQLResponse): number {
  let status: number | undefined;
  for (const error of result.errors ?? []) {
    const declared = error.extensions?.http?.status;
    if (declared && (!status || declared > status)) status = declared;
  }
  return status ?? (result.errors?.length && !result.data ? 500 : 200);
}

function queryValue(ctx: Context, source: Extract<VariableSource, { from: 'query' }>): unknown {
  const raw = ctx.query[source.name];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw badRequest(`${source.name}: must be given once`);
  if (source.type === 'int') {
    if (!/^-?\d{1,9}$/.test(raw)) throw badRequest(`${source.name}: must be an integer`);
    return Number(raw);
  }
  if (source.type === 'number') {
    if (!/^-?\d{1,9}(\.\d{1,6})?$/.test(raw)) throw badRequest(`${source.name}: must be a number`);
    return Number(raw);
  }
  if (source.type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') throw badRequest(`${source.name}: must be true or false`);
    return raw === 'true';
  }
  return raw;
}

interface Limits {
  bodyLimit: string;
  maxUploadBytes: number;
}

/** The operation's variables from the request, plus clean-ups to run after the response. */
async function collectVariables(ctx: Context, route: RestRoute, limits: Limits) {
  const known = new Set(
    Object.values(route.variables).flatMap((s) => (s.from === 'query' ? [s.name] : s.from === 'request' ? s.reads : [])),
  );
  const unknown = Object.keys(ctx.query).filter((name) => !known.has(name));
  if (unknown.length) throw badRequest(`Unknown query parameter: ${unknown.join(', ')}`);
  const sources = Object.values(route.variables);
  const body = sources.some((s) => s.from === 'body') ? await readJsonObject(ctx, limits.bodyLimit) : {};
  const variables: Record<string, unknown> = {};
  const cleanups: Array<() => Promise<void>> = [];
  for (const [variable, source] of Object.entries(route.variables)) {
    let value: unknown;
    if (source.from === 'file') {
      const { upload, cleanup } = await readFilePart(ctx, source.name, limits.maxUploadBytes);
      cleanups.push(cleanup);
      value = upload;
    } else {
      value =
        source.from === 'path' ? ctx.params[source.name]
        : source.from === 'query' ? queryValue(ctx, source)
        : source.from === 'request' ? source.read({ query: ctx.query, headers: ctx.headers })
        : source.name ? body[source.name]
        : body;
    }
    if (value !== undefined) variables[variable] = value;
  }
  return { variables, cleanups };
}

/** The REST error for a failed operation: its status, and the messages of the errors that caused it. */
function restError(status: number, errors: NonNullable<GraphQLResponse['errors']>): AppError {
  const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((c) => ERROR_STATUS[c] === status) ?? 'INTERNAL_SERVER_ERROR';
  // Unexpected failures were already masked to this; keep it generic.
  if (status === 500) return new AppError(code, GENERIC_SERVER_ERROR);
  const causes = errors.filter((e) => ERROR_STATUS[e.extensions?.code as ErrorCode] === status);
  const messages = [...new Set((causes.length ? causes : errors).map((e) => e.message))];
  return new AppError(code, messages.join('; '));
}

/** The permission the operation's root field declares; routes without one are a programming error. */
export function routePermission(schema: GraphQLSchema, route: RestRoute): string {
  const operation = getOperationAST(route.operation) as OperationDefinitionNode;
  const rootType = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const field = rootType?.getFields()[route.result];
  const permission = field && declaredPermission(field);
  if (!permission) throw new Error(`${route.method} ${route.path}: root field ${route.result} declares no permission`);
  return permission;
}

/**
 * Builds the `/v1` router from the route table. Each request runs the
 * route's named operation through the GraphQL server's own pipeline (its
 * plugins, context, masking), so it gets the same authentication, scoping,
 * validation and error masking as /graphql.
 */
export function createRestRouter(options: { graphql: GraphQLServer; schema: GraphQLSchema; routes: RestRoute[] } & Limits) {
  const { graphql, schema, routes } = options;
  const router = new Router<AuthState>();
  for (const route of routes) {
    const query = print(route.operation);
    const operationName = getOperationAST(route.operation)?.name?.value;
    const permission = routePermission(schema, route);
    router.register(route.path, [route.method], async (ctx) => {
      // The GraphQL field enforces this too; checking here first answers 403
      // before any input is read, like 401 comes before it.
      if (!ctx.state.apiKey?.permissions.has(permission as never)) {
        throw forbidden(`Forbidden: this API key lacks the permission ${permission}`);
      }
      const { variables, cleanups } = await collectVariables(ctx as unknown as Context, route, options);
      let payload: GraphQLResponse;
      try {
        // Straight into GraphQL's execution (parameters already parsed, no
        // HTTP request or response in between), so REST gets the same
        // authentication, scoping, validation and error masking as /graphql.
        payload = (await graphql.getResultForParams(
          { params: { query, operationName, variables }, request: REST_REQUEST },
          Object.create({ koa: ctx }) as ServerContext,
        )) as GraphQLResponse;
      } finally {
        await Promise.all(cleanups.map((cleanup) => cleanup()));
      }
      if (payload.errors?.length) {
        const status = statusOf(payload);
        throw restError(status >= 400 ? status : 500, payload.errors);
      }
      const result = payload.data?.[route.result];
      ctx.status = typeof route.status === 'function' ? route.status(result) : route.status;
      ctx.body =
        route.envelope === 'success' ? { success: true, ...(result as object) }
        : route.envelope === 'data' ? { success: true, data: result }
        : result;
    });
  }
  return router;
}
