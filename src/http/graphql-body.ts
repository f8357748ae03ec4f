import type { GraphQLParams } from 'graphql-yoga';
import type { Context } from 'koa';
import { type BodyState, parseJson, parseJsonObject, utf8Text } from '../../rest/json-body.ts';

/** Whether the media type is `type`, as yoga matches it (its request parsers, graphql-yoga/plugins/request-parser). */
const isType = (contentType: string, type: string) => {
  const first = contentType.split(',')[0] ?? '';
  return first === type || first.startsWith(`${type};`);
};

/**
 * The GraphQL parameters of a /graphql POST whose body was read ahead
 * (src/http/request-body.ts), read as yoga's own request parsers read them:
 * JSON, `application/graphql` (the body is the query) and form fields. The
 * JSON in them is checked like every JSON body (rest/json-body.ts: nesting).
 * Undefined when there is no such body (yoga then answers as it does, e.g.
 * 415 for another media type).
 */
export function graphqlBodyParams(ctx: Context): GraphQLParams | undefined {
  const bytes = (ctx.state as BodyState).requestBody;
  const contentType = ctx.get('content-type');
  if (!bytes || ctx.method !== 'POST') return undefined;
  if (isType(contentType, 'application/json') || isType(contentType, 'application/graphql+json')) return parseJsonObject(bytes);
  if (isType(contentType, 'application/graphql')) return { query: utf8Text(bytes) };
  if (isType(contentType, 'application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(utf8Text(bytes));
    const json = (name: string) => {
      const value = form.get(name);
      return value ? (parseJson(value, name) as Record<string, unknown>) : undefined;
    };
    return {
      query: form.get('query') || undefined,
      operationName: form.get('operationName') || undefined,
      variables: json('variables'),
      extensions: json('extensions'),
    };
  }
  return undefined;
}
