import { type ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Middleware } from 'koa';
import { readJsonObject } from '../../rest/json-body.ts';
import { AppError } from '../errors.ts';
import type { AuthState } from './authenticate.ts';
import type { GraphQLServer, ServerContext } from './yoga.ts';

/** The media types a plain JSON answer can be given as; yoga picks application/json for `*\/*`. */
const ANSWERS: Record<string, string> = {
  '': 'application/json',
  '*/*': 'application/json',
  'application/json': 'application/json',
  'application/graphql-response+json': 'application/graphql-response+json',
};
const JSON_BODY = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;
const GRAPHQL_REQUEST = new Request('http://graphql.internal/graphql', { method: 'POST' });

/** The one media type `accept` asks for, when it is one a JSON answer serves (with yoga's utf-8 rule); else undefined. */
export function answerType(accept: string): string | undefined {
  const [mediaType = '', ...params] = accept.replace(/\s/g, '').toLowerCase().split(';');
  if (mediaType.includes(',') || params.some((param) => param.startsWith('charset=') && param !== 'charset=utf-8')) return undefined;
  return ANSWERS[mediaType];
}

type HttpExtension = { status?: number; spec?: boolean; headers?: Record<string, string> };

/** A GraphQL error that only ever wrapped GraphQL errors (not an unexpected failure). */
function isOriginalGraphQLError(error: unknown): boolean {
  if (!(error instanceof GraphQLError)) return false;
  return error.originalError == null || isOriginalGraphQLError(error.originalError);
}

/**
 * Status and headers of a result, as yoga answers them: the highest status
 * its errors declare (answered as `application/json`, GraphQL-over-HTTP's own
 * request errors keep 200), else 500 for an unexpected error without data.
 */
function responseInit(result: ExecutionResult, accepted: string) {
  const errors = result.errors ?? [];
  const applicationJson = accepted === 'application/json' && errors.length > 0 && errors.every((e) => e instanceof GraphQLError) &&
    errors.some((e) => !e.extensions?.originalError || e.extensions.originalError instanceof GraphQLError);
  const headers: Record<string, string> = {};
  const own = result.extensions?.http as HttpExtension | undefined;
  let status = own?.status;
  if (own?.headers) Object.assign(headers, own.headers);
  let unexpected = false;
  if (!errors.length) status ||= 200;
  for (const error of errors) {
    const http = error.extensions?.http as HttpExtension | undefined;
    if (http) {
      if (http.headers) Object.assign(headers, http.headers);
      if (applicationJson && http.spec) continue;
      if (http.status && (!status || http.status > status)) status = http.status;
    } else if (!isOriginalGraphQLError(error) || error.extensions?.unexpected) {
      unexpected = true;
    }
  }
  return { headers, status: status ?? (unexpected && !('data' in result) ? 500 : 200) };
}

/** The result as JSON without the server's internal extensions (`http`, `unexpected`), as yoga writes it. */
function serialize(result: ExecutionResult): string {
  if (!result.errors?.length && !result.extensions?.http) return JSON.stringify(result);
  const { http: _http, ...extensions } = result.extensions ?? {};
  return JSON.stringify({
    ...result,
    errors: result.errors?.map((error) => {
      const json = error.toJSON();
      const { http: _errorHttp, unexpected: _unexpected, ...own } = (json.extensions ?? {}) as Record<string, unknown>;
      return { ...json, extensions: Object.keys(own).length ? own : undefined };
    }),
    extensions: Object.keys(extensions).length ? extensions : undefined,
  });
}

/**
 * Largest answer written, in characters of JSON (about bytes): a larger one is
 * refused with 413 rather than sent. Well past any page the REST routes or the
 * cost limit let through for ordinary data; V8 cannot build a JSON string over
 * about 512 M characters at all (a RangeError, which was a 500).
 */
const MB = 1024 * 1024;
export const MAX_ANSWER_CHARS = 64 * MB;

const tooLarge = (maxChars: number) => new AppError(
  'PAYLOAD_TOO_LARGE',
  `The answer is larger than ${maxChars >= MB ? `${maxChars / MB} MB` : `${maxChars} characters`} of JSON, the most one request may return; select fewer fields, aliases or items`,
);

/** The result as JSON, or null when it is larger than `maxChars` (or than any string V8 can build). */
function serializeWithin(result: ExecutionResult, maxChars: number): string | null {
  try {
    const json = serialize(result);
    return json.length > maxChars ? null : json;
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * The same limit on yoga's own handler (GET, uploads, CORS requests): an
 * answer over `maxChars`, or one V8 cannot serialize, is replaced by the 413
 * before yoga writes it. It serializes the answer once more to measure it;
 * the common requests take the fast path below, which does not.
 */
export function useAnswerSizeLimit(maxChars = MAX_ANSWER_CHARS): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      // Batches and streams (subscriptions) are written piece by piece.
      if (Array.isArray(result) || Symbol.asyncIterator in result) return;
      if (serializeWithin(result as ExecutionResult, maxChars) === null) setResult({ errors: [tooLarge(maxChars)] });
    },
  };
}

/**
 * The common /graphql request (a POST of JSON, answered as JSON) straight
 * into yoga's pipeline: the parameters go to `getResultForParams` (yoga's
 * parameter checks, plugins, context and masking all run) and the result is
 * written as yoga writes it, without its HTTP request and response objects
 * in between. Anything else (GET, uploads, other answer types, CORS requests
 * from browsers, GraphiQL) is left to yoga's own handler.
 */
export function graphqlJson(options: {
  graphql: GraphQLServer;
  maskError: (error: unknown) => Error;
  bodyLimit: string;
  /** Default MAX_ANSWER_CHARS. */
  maxAnswerChars?: number;
}): Middleware<AuthState> {
  const maxAnswerChars = options.maxAnswerChars ?? MAX_ANSWER_CHARS;
  return async (ctx, next) => {
    const accepted = answerType(ctx.get('accept'));
    if (ctx.path !== '/graphql' || ctx.method !== 'POST' || !accepted || !JSON_BODY.test(ctx.get('content-type')) || ctx.get('origin')) return next();
    const params = await readJsonObject(ctx, options.bodyLimit);
    let result: ExecutionResult;
    try {
      result = (await options.graphql.getResultForParams({ params, request: GRAPHQL_REQUEST }, Object.create({ koa: ctx }) as ServerContext)) as ExecutionResult;
    } catch (error) {
      // Refusals before execution (yoga's parameter checks): masked as yoga masks them.
      const masked = options.maskError(error);
      result = { errors: [masked instanceof GraphQLError ? masked : new GraphQLError(masked.message, { originalError: masked })] };
    }
    let body = serializeWithin(result, maxAnswerChars);
    if (body === null) {
      result = { errors: [tooLarge(maxAnswerChars)] };
      body = serialize(result);
    }
    const init = responseInit(result, accepted);
    ctx.status = init.status;
    for (const [name, value] of Object.entries(init.headers)) ctx.set(name, value);
    ctx.type = `${accepted}; charset=utf-8`;
    ctx.body = body;
  };
}
