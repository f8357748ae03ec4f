import {
  type DocumentNode, type FragmentDefinitionNode, getNamedType, getNullableType, type GraphQLField, type GraphQLInputType,
  GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, type GraphQLObjectType, type GraphQLOutputType,
  GraphQLScalarType, type GraphQLSchema, getOperationAST, isInterfaceType, isObjectType, Kind, type SelectionSetNode, typeFromAST,
} from 'graphql';
import { routePermission } from './adapter.ts';
import type { RestRoute } from './route.ts';

type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  Date: { type: 'string', format: 'date' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
  Upload: { type: 'string', format: 'binary' },
};

const orNull = (schema: JsonSchema): JsonSchema =>
  typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };

const header = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
/** Sent on every answer to a request with a valid key while limits are on (README "Rate limits"). */
const HEADERS = {
  'RateLimit-Limit': header('Requests allowed per window by the tighter of the key\'s and the organization\'s limits'),
  'RateLimit-Remaining': header('Requests left in the current window'),
  'RateLimit-Reset': header('Seconds until the window resets'),
  'Retry-After': header('Seconds until the window resets'),
};
const headerRefs = (...names: Array<keyof typeof HEADERS>) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const RATE_LIMIT_HEADERS = headerRefs('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');

/**
 * The OpenAPI 3.1 description of the `/v1` API, derived from the route table:
 * each route's path and query parameters, its body (the GraphQL input types),
 * its response (the fields its saved operation selects, in its envelope), its
 * permission and its status codes. Nothing is written by hand, so it cannot
 * drift from what the adapter serves.
 */
export function buildOpenApi(schema: GraphQLSchema, routes: RestRoute[], info: { title: string; version: string }) {
  const components: Record<string, JsonSchema> = {
    Error: {
      type: 'object',
      required: ['statusCode', 'message', 'error'],
      properties: { statusCode: { type: 'integer' }, message: { type: 'string' }, error: { type: 'string' } },
    },
    ListMeta: {
      type: 'object', required: ['total', 'page', 'limit', 'totalPages'],
      properties: { total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' }, totalPages: { type: 'integer' } },
    },
  };

  function inputSchema(type: GraphQLInputType): JsonSchema {
    const nonNull = type instanceof GraphQLNonNull;
    const inner = getNullableType(type) as GraphQLInputType;
    let result: JsonSchema;
    if (inner instanceof GraphQLList) result = { type: 'array', items: inputSchema(inner.ofType) };
    else if (inner instanceof GraphQLScalarType) result = SCALARS[inner.name] ?? { type: 'string' };
    else if (inner instanceof GraphQLEnumType) result = namedComponent(inner.name, () => ({ type: 'string', enum: inner.getValues().map((v) => v.name) }));
    else {
      const object = inner as GraphQLInputObjectType;
      result = namedComponent(object.name, () => {
        const fields = Object.values(object.getFields());
        return {
          type: 'object',
          additionalProperties: false,
          ...(object.description ? { description: object.description } : {}),
          required: fields.filter((f) => f.type instanceof GraphQLNonNull).map((f) => f.name),
          properties: Object.fromEntries(fields.map((f) => [f.name, { ...inputSchema(f.type), ...(f.description ? { description: f.description } : {}) }])),
        };
      });
    }
    return nonNull ? result : orNull(result);
  }

  function namedComponent(name: string, build: () => JsonSchema): JsonSchema {
    if (!components[name]) {
      components[name] = {}; // placeholder: recursive input types refer to themselves
      components[name] = build();
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  function outputSchema(type: GraphQLOutputType, selection: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>): JsonSchema {
    const nonNull = type instanceof GraphQLNonNull;
    const inner = getNullableType(type) as GraphQLOutputType;
    let result: JsonSchema;
    if (inner instanceof GraphQLList) result = { type: 'array', items: outputSchema(inner.ofType, selection, fragments) };
    else if (inner instanceof GraphQLScalarType) result = SCALARS[inner.name] ?? {};
    else if (inner instanceof GraphQLEnumType) result = inputSchema(new GraphQLNonNull(inner));
    else result = objectSchema(getNamedType(inner) as GraphQLObjectType, selection, fragments);
    return nonNull ? result : orNull(result);
  }

  function objectSchema(type: GraphQLObjectType, selection: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const visit = (set: SelectionSetNode) => {
      for (const node of set.selections) {
        if (node.kind === Kind.FIELD) {
          const name = node.alias?.value ?? node.name.value;
          if (node.name.value === '__typename') {
            properties[name] = { type: 'string' };
            required.push(name);
            continue;
          }
          const field = (isObjectType(type) || isInterfaceType(type) ? type.getFields()[node.name.value] : undefined) as GraphQLField<unknown, unknown> | undefined;
          if (!field) continue;
          properties[name] = { ...outputSchema(field.type, node.selectionSet, fragments), ...(field.description ? { description: field.description } : {}) };
          if (field.type instanceof GraphQLNonNull) required.push(name);
        } else if (node.kind === Kind.FRAGMENT_SPREAD) {
          const fragment = fragments.get(node.name.value);
          if (fragment) visit(fragment.selectionSet);
        } else {
          visit(node.selectionSet);
        }
      }
    };
    if (selection) visit(selection);
    return { type: 'object', required: [...new Set(required)], properties };
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const document = route.operation as DocumentNode;
    const operation = getOperationAST(document)!;
    const fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
    const variableType = (name: string) => {
      const definition = operation.variableDefinitions?.find((v) => v.variable.name.value === name);
      return definition ? (typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined) : undefined;
    };
    const parameters: unknown[] = [];
    const openApiPath = route.path.replace(/[:*](\w+)/g, '{$1}');
    for (const match of route.path.matchAll(/[:*](\w+)/g)) {
      parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
    }
    const bodyProperties: Record<string, JsonSchema> = {};
    const bodyRequired: string[] = [];
    let wholeBody: JsonSchema | undefined;
    let file: string | undefined;
    for (const [variable, source] of Object.entries(route.variables)) {
      const type = variableType(variable);
      if (source.from === 'query') {
        // A query parameter is either given or not: never null.
        const typed = type ? inputSchema(new GraphQLNonNull(getNullableType(type) as GraphQLInputType)) : {};
        const schemaOfQuery = source.type === 'int' ? { type: 'integer' } : source.type === 'number' ? { type: 'number' } : source.type === 'boolean' ? { type: 'boolean' } : typed;
        parameters.push({ name: source.name, in: 'query', required: false, schema: schemaOfQuery });
      } else if (source.from === 'request') {
        for (const name of source.reads) parameters.push({ name, in: 'query', required: false, schema: { type: 'string' } });
      } else if (source.from === 'body') {
        if (!type) continue;
        if (source.name) {
          bodyProperties[source.name] = inputSchema(getNullableType(type) as GraphQLInputType);
          if (type instanceof GraphQLNonNull) bodyRequired.push(source.name);
        } else {
          wholeBody = inputSchema(getNullableType(type) as GraphQLInputType);
        }
      } else if (source.from === 'file') {
        file = source.name;
      }
    }
    const rootType = operation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
    const rootField = operation.selectionSet.selections.find((s) => s.kind === Kind.FIELD && (s.alias?.value ?? s.name.value) === route.result);
    const field = rootType.getFields()[route.result]!;
    let body = outputSchema(new GraphQLNonNull(getNullableType(field.type)), rootField?.kind === Kind.FIELD ? rootField.selectionSet : undefined, fragments);
    if (route.envelope === 'success') {
      const object = body as { properties: Record<string, JsonSchema>; required: string[] };
      body = { type: 'object', required: ['success', ...object.required], properties: { success: { const: true }, ...object.properties } };
      if ((body.properties as Record<string, JsonSchema>).meta) (body.properties as Record<string, JsonSchema>).meta = { $ref: '#/components/schemas/ListMeta' };
    } else if (route.envelope === 'data') {
      body = { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data: body } };
    }
    const statuses = route.documentedStatuses ?? [typeof route.status === 'number' ? route.status : 200];
    const permission = routePermission(schema, route);
    const mutation = operation.operation === 'mutation';
    if (mutation) {
      parameters.push({
        name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 },
        description: 'Replays the first successful result for 24 hours instead of running again; another request with the same key is a 422.',
      });
    }
    const error = (description: string, headers?: object) => ({
      description, ...(headers ? { headers } : {}), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    paths[openApiPath] ??= {};
    paths[openApiPath]![route.method.toLowerCase()] = {
      operationId: operation.name?.value,
      summary: route.summary,
      description: `${field.description ? `${field.description}\n\n` : ''}Permission: \`${permission}\`. GraphQL: \`${route.result}\` (operation \`${operation.name?.value}\`).`,
      tags: [openApiPath.split('/')[2]],
      'x-permission': permission,
      ...(parameters.length ? { parameters } : {}),
      ...(file
        ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', required: [file], properties: { [file]: { type: 'string', format: 'binary' } } } } } } }
        : wholeBody
          ? { requestBody: { required: true, content: { 'application/json': { schema: wholeBody } } } }
          : Object.keys(bodyProperties).length
            ? { requestBody: { required: bodyRequired.length > 0, content: { 'application/json': { schema: { type: 'object', required: bodyRequired, properties: bodyProperties } } } } }
            : {}),
      responses: {
        ...Object.fromEntries(statuses.map((status) => [String(status), {
          description: status === 202 ? 'Accepted; still running' : 'Success', headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: body } },
        }])),
        400: error('Invalid input (every invalid field named)'),
        401: error('Missing, unknown, expired or revoked API key'),
        403: error(`The key lacks ${permission}`),
        ...(openApiPath.includes('{') ? { 404: error('Not found, or another organization\'s') } : {}),
        ...(mutation ? { 409: error('A request with the same Idempotency-Key is still running (or another conflict)'), 422: error('Idempotency-Key used for a different request') } : {}),
        429: error('Rate limit of the key or the organization reached; see Retry-After', headerRefs('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After')),
        503: error('The database or the file store is unavailable for the moment; retry shortly'),
      },
      security: [{ apiKey: [] }],
    };
  }
  return {
    openapi: '3.1.0',
    info: { ...info, description: 'REST compatibility layer: every endpoint runs a saved GraphQL operation (see /graphql).' },
    servers: [{ url: '/' }],
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      headers: HEADERS,
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
    security: [{ apiKey: [] }],
    paths,
  };
}
