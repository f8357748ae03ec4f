import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

/** Where one GraphQL variable comes from in the HTTP request. */
export type VariableSource =
  | { from: 'path'; name: string }
  | { from: 'query'; name: string; type: 'string' | 'int' | 'number' | 'boolean' }
  | { from: 'body'; name?: string }
  | { from: 'file'; name: string }
  | { from: 'request'; reads: string[]; read: (request: { query: Record<string, unknown>; headers: Record<string, unknown> }) => unknown };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One `/v1` endpoint: a saved, named GraphQL operation plus the rules that
 * turn an HTTP request into its variables and its result into a response.
 */
export interface RestRoute<Data = Record<string, unknown>> {
  method: HttpMethod;
  /** @koa/router path; `{key}` style names are written `:key`. */
  path: string;
  summary: string;
  // Variables are assembled at run time from the request, so any shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  operation: TypedDocumentNode<Data, any>;
  variables: Record<string, VariableSource>;
  /** The root field of `data` that becomes the response. */
  result: keyof Data & string;
  /**
   * `none`: the field as it is; `success`: its properties after `success: true`
   * (lists, files); `data`: `{success: true, data: field}`.
   */
  envelope: 'none' | 'success' | 'data';
  /** The HTTP status, or a rule choosing it from the field's value. */
  status: number | ((result: any) => number);
  /** For a status rule: the statuses it can choose (documented in the OpenAPI description). */
  documentedStatuses?: number[];
}

export const fromPath = (name: string): VariableSource => ({ from: 'path', name });
export const fromQuery = (name: string, type: 'string' | 'int' | 'number' | 'boolean' = 'string'): VariableSource => ({ from: 'query', name, type });
/** The whole JSON body, or one property of it. */
export const fromBody = (name?: string): VariableSource => (name ? { from: 'body', name } : { from: 'body' });

/** The part `name` of a multipart/form-data body, as a GraphQL `Upload`. */
export const fromFile = (name: string): VariableSource => ({ from: 'file', name });

/** A value computed from the query string (parameters `reads`) and headers, for conventions such as `Prefer`. */
export const fromRequest = (
  reads: string[],
  read: (request: { query: Record<string, unknown>; headers: Record<string, unknown> }) => unknown,
): VariableSource => ({ from: 'request', reads, read });

/** Keeps each row's result key checked against its own operation's data type. */
export const route = <Data>(definition: RestRoute<Data>) => definition as unknown as RestRoute;
