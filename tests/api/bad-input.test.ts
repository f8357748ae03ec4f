// Generated bad-input suite. Every /v1 route of the table (with its body and
// parameters as the OpenAPI document built from the same table describes
// them) and a sample of GraphQL mutations get malformed, mistyped, missing,
// oversized, unicode and injection input. Whatever the input: never a 5xx; a
// 4xx in the shared error shape; nothing written on a 4xx (the audit trail,
// which records every change of organization data, and row counts are the
// oracle); injection strings that are accepted are stored as they were sent;
// nothing pollutes Object.prototype (the service runs in this process).
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getOperationAST, print } from 'graphql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildOpenApi } from '../../rest/openapi.ts';
import type { RestRoute } from '../../rest/route.ts';
import { routes } from '../../rest/routes.ts';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors.ts';
import { schema } from '../../src/schema/index.ts';
import type { RunningService } from '../../src/service.ts';
import { TEST_BUCKET } from '../setup/servers.ts';
import { restClient } from '../helpers/http.ts';
import { pdf, png } from '../helpers/sample-files.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';
import { formWith } from '../helpers/uploads.ts';
import { waitFor } from '../helpers/wait.ts';

// ---------------------------------------------------------------------------
// The API description the cases are generated from (built from the live route
// table, so routes added later are covered without editing this file).

type JsonSchema = Record<string, any>;
const openapi = buildOpenApi(schema, routes, { title: 'bad-input', version: '0' }) as any;
const components: Record<string, JsonSchema> = openapi.components.schemas;

interface Resolved {
  schema: JsonSchema;
  nullable: boolean;
}

/** Follows `$ref`s and strips the `null` alternative. */
function resolve(s: JsonSchema): Resolved {
  if (s.$ref) return resolve(components[String(s.$ref).split('/').pop()!]!);
  if (Array.isArray(s.anyOf)) {
    const other = s.anyOf.find((a: JsonSchema) => a.type !== 'null');
    return { ...resolve(other), nullable: s.anyOf.some((a: JsonSchema) => a.type === 'null') };
  }
  if (Array.isArray(s.type)) {
    const type = s.type.find((t: string) => t !== 'null');
    return { schema: { ...s, type }, nullable: s.type.includes('null') };
  }
  return { schema: s, nullable: false };
}

type Kind = 'string' | 'enum' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'any';
const kindOf = (s: JsonSchema): Kind => (s.enum ? 'enum' : (s.type as Kind | undefined) ?? 'any');

/** A plausible valid value (for bodies of routes this file has no sample for, and nested objects). */
function sample(s: JsonSchema): unknown {
  const { schema: r } = resolve(s);
  switch (kindOf(r)) {
    case 'enum': return r.enum[0];
    case 'string': return r.format === 'date' ? '2000-01-01' : r.format === 'date-time' ? '2000-01-01T00:00:00Z' : 'x';
    case 'integer': return 1;
    case 'number': return 1;
    case 'boolean': return true;
    case 'array': return [];
    case 'object': return Object.fromEntries((r.required ?? []).map((name: string) => [name, sample(r.properties[name])]));
    default: return 'x';
  }
}

/** Values of another JSON type than the schema's (the brief: number for string, string for number/boolean, object for array, array for object). */
function wrongValues(s: JsonSchema): Array<[string, unknown]> {
  const { schema: r } = resolve(s);
  switch (kindOf(r)) {
    case 'string': return [['number', 12345], ...(r.format ? [['invalid ' + r.format, 'not-a-date'] as [string, unknown]] : [])];
    case 'enum': return [['number', 7], ['unknown value', 'NOT_A_VALUE']];
    case 'integer': return [['string', '12'], ['fraction', 1.5]];
    case 'number': return [['string', '0.5']];
    case 'boolean': return [['string', 'true']];
    case 'array': {
      const item = resolve(r.items ?? {}).schema;
      return [['object', {}], ['array of wrong items', [kindOf(item) === 'object' ? 'x' : { not: 'a scalar' }]]];
    }
    case 'object': return [['array', []]];
    default: return [];
  }
}

interface BodySpec {
  kind: 'json' | 'multipart' | 'none';
  schema?: JsonSchema; // resolved object schema of a JSON body
  fileField?: string;
}

function operationOf(route: RestRoute) {
  return openapi.paths[route.path.replace(/[:*](\w+)/g, '{$1}')][route.method.toLowerCase()];
}

function bodySpec(route: RestRoute): BodySpec {
  const content = operationOf(route).requestBody?.content;
  if (!content) return { kind: 'none' };
  if (content['multipart/form-data']) {
    return { kind: 'multipart', fileField: (content['multipart/form-data'].schema.required as string[])[0] };
  }
  return { kind: 'json', schema: resolve(content['application/json'].schema).schema };
}

interface QueryParam {
  name: string;
  schema: JsonSchema;
}
const queryParams = (route: RestRoute): QueryParam[] =>
  (operationOf(route).parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => ({ name: p.name, schema: resolve(p.schema).schema }));
const pathParams = (route: RestRoute): string[] => [...route.path.matchAll(/[:*](\w+)/g)].map((m) => m[1]!);

// ---------------------------------------------------------------------------
// Fixtures: real objects for every kind of `:id`, so that body validation is
// reached (a 404 for an unknown id would not exercise it).

interface Fixtures {
  consumerCaseId: string;
  businessCaseId: string;
  partyId: string;
  taskId: string;
  noteId: string;
  fileKey: string;
  documentId: string;
  screeningId: string;
  hitId: string;
  riskAssessmentId: string;
  jobId: string;
  token: string;
  /** Routes being added (webhooks, events): used when they exist, random ids otherwise. */
  webhookEndpointId: string;
  webhookDeliveryId: string;
  eventId: string;
}

let service: RunningService;
let org: TestOrganization;
let fixtures: Fixtures;
const ASSIGNEE = 'assignee-1';

/** The raw path segment of a parameter for the fixture it names. */
function fixtureParam(route: RestRoute, name: string): string {
  const f = fixtures;
  if (name === 'id') {
    const byPrefix: Array<[string, string]> = [
      ['/v1/consumer-cases/', f.consumerCaseId], ['/v1/business-cases/', f.businessCaseId], ['/v1/tasks/', f.taskId],
      ['/v1/notes/', f.noteId], ['/v1/documents/', f.documentId], ['/v1/screenings/', f.screeningId],
      ['/v1/screening-hits/', f.hitId], ['/v1/risk-assessments/', f.riskAssessmentId],
      ['/v1/webhook-endpoints/', f.webhookEndpointId], ['/v1/webhook-deliveries/', f.webhookDeliveryId], ['/v1/events/', f.eventId],
    ];
    const found = byPrefix.find(([prefix]) => route.path.startsWith(prefix))?.[1];
    // A route with an id and no fixture would only ever be tried with ids that do not exist.
    if (!found) throw new Error(`${route.method} ${route.path}: no fixture for :id`);
    return found;
  }
  switch (name) {
    case 'partyId': return f.partyId;
    case 'userId': return ASSIGNEE;
    case 'token': return f.token;
    case 'jobId': return f.jobId;
    case 'fileKey': return encodeURIComponent(f.fileKey);
    case 'key': return f.fileKey;
    default: throw new Error(`${route.method} ${route.path}: no fixture for :${name}`);
  }
}

const pathOf = (route: RestRoute, overrides: Record<string, string> = {}) =>
  route.path.replace(/[:*](\w+)/g, (_match, name: string) => overrides[name] ?? fixtureParam(route, name));

/** A valid body per route (so that one bad property is the only problem); derived from the schema for routes not listed. */
const VALID_BODIES: Record<string, (f: Fixtures) => Record<string, unknown>> = {
  'POST /v1/consumer-cases': () => ({ email: 'valid@example.com', firstName: 'Valid', lastName: 'Case' }),
  'POST /v1/consumer-cases/onboarding/send-email': () => ({ email: 'invitee@example.com', fullName: 'Ivy Invitee' }),
  'PATCH /v1/consumer-cases/:id': () => ({ lastName: 'Patched' }),
  'POST /v1/business-cases': () => ({ legalName: 'Valid Holdings Ltd' }),
  'PATCH /v1/business-cases/:id': () => ({ legalName: 'Patched Holdings Ltd' }),
  'POST /v1/business-cases/:id/parties': () => ({ kind: 'INDIVIDUAL', name: 'Valid Party', roles: ['DIRECTOR'] }),
  'PATCH /v1/business-cases/:id/parties/:partyId': () => ({ name: 'Patched Party' }),
  'POST /v1/screenings': () => ({ name: 'Valid Person', kind: 'PERSON' }),
  'POST /v1/consumer-cases/:id/screenings': () => ({ userId: 'analyst-1' }),
  'POST /v1/business-cases/:id/screenings': () => ({ includeParties: false, userId: 'analyst-1' }),
  'POST /v1/screening-hits/:id/decision': () => ({ decision: 'FALSE_POSITIVE', reason: 'Different person' }),
  'PATCH /v1/screening-settings': () => ({ threshold: 0.85 }),
  'POST /v1/consumer-cases/:id/risk-assessments': () => ({ userId: 'analyst-1' }),
  'POST /v1/business-cases/:id/risk-assessments': () => ({ userId: 'analyst-1' }),
  'POST /v1/notes': (f) => ({ body: 'Valid note', consumerCaseId: f.consumerCaseId }),
  'PATCH /v1/notes/:id': () => ({ body: 'Patched note' }),
  'POST /v1/tasks': () => ({ title: 'Valid task' }),
  'PUT /v1/tasks/:id': () => ({ title: 'Updated task' }),
  'POST /v1/tasks/:id/assignees': () => ({ userId: 'assignee-2' }),
  'POST /v1/documents': (f) => ({ fileKey: f.fileKey, type: 'OTHER' }),
  'PATCH /v1/documents/:id': () => ({ status: 'UPLOADED' }),
  'POST /v1/document-analysis/analyze': (f) => ({ fileKey: f.fileKey }),
  'POST /v1/document-analysis/analyze-async': (f) => ({ fileKey: f.fileKey }),
  'POST /v1/document-analysis/analyze-id': (f) => ({ fileKey: f.fileKey }),
  // Disabled, to a closed local port: nothing is delivered anywhere.
  'POST /v1/webhook-endpoints': () => ({ url: 'http://127.0.0.1:9/hook', eventTypes: ['task.created'], enabled: false }),
  'PATCH /v1/webhook-endpoints/:id': () => ({ description: 'Patched endpoint' }),
};
const routeName = (route: RestRoute) => `${route.method} ${route.path}`;
const validBody = (route: RestRoute, s: JsonSchema) =>
  VALID_BODIES[routeName(route)]?.(fixtures) ?? (sample(s) as Record<string, unknown>);

/** The property that free text goes into: the first of these the body has, else its first string property. */
const TEXT_PREFERENCE = ['title', 'body', 'name', 'legalName', 'lastName', 'fullName', 'reason', 'description', 'firstName', 'userId', 'fileKey'];
function textProperty(s: JsonSchema): string | undefined {
  const properties = s.properties ?? {};
  const strings = Object.keys(properties).filter((p) => kindOf(resolve(properties[p]).schema) === 'string' && !resolve(properties[p]).schema.format);
  return TEXT_PREFERENCE.find((p) => strings.includes(p)) ?? strings[0];
}

// ---------------------------------------------------------------------------
// Inputs.

const INJECTIONS: Array<[string, string]> = [
  ['SQL tautology', "' OR 1=1 --"],
  ['SQL drop table', "'; DROP TABLE consumer_cases; --"],
  ['NoSQL operator as text', '{"$gt":""}'],
  ['GraphQL injection', '") { __schema { types { name } } }'],
  ['path traversal', '../../etc/passwd'],
  ['percent-encoded NUL', '%00'],
  ['HTML script', '<script>alert(1)</script>'],
  ['CRLF header injection', 'x\r\nSet-Cookie: injected=1'],
  ['template and shell', '${7*7} {{7*7}} $(id) `id`'],
];

/** The injections also tried in every free-text query parameter. */
const QUERY_INJECTIONS = ['SQL tautology', 'SQL drop table', 'CRLF header injection', 'HTML script'];

/** [name, raw JSON text of the string]. */
const UNICODE: Array<[string, string]> = [
  ['lone high surrogate', '"A\\ud800Z"'],
  ['lone low surrogate', '"A\\udc00Z"'],
  ['NUL', '"A\\u0000Z"'],
  ['RTL override', '"A\\u202eZYX"'],
  ['zero-width joiner sequence', JSON.stringify('A👩‍👩‍👧Z')],
  ['combining marks', JSON.stringify('Ża̷̛l̶g̸o̵ Z\u0301\u0327\u0361')],
  ['emoji', JSON.stringify('A😀🏳️‍🌈Z')],
  ['BOM inside', '"A\\ufeffZ"'],
];

/** Bytes that are not UTF-8, each put inside a JSON string. */
const INVALID_UTF8: Array<[string, number[]]> = [
  ['invalid bytes 0xff 0xfe', [0xff, 0xfe]],
  ['overlong slash 0xc0 0xaf', [0xc0, 0xaf]],
  ['overlong 3-byte 0xe0 0x80 0xaf', [0xe0, 0x80, 0xaf]],
  ['UTF-8 encoded surrogate 0xed 0xa0 0x80', [0xed, 0xa0, 0x80]],
  ['truncated sequence 0xe2 0x82', [0xe2, 0x82]],
];

const BAD_IDS: Array<[string, string, 'reject' | 'any']> = [
  ['not a UUID', 'not-a-uuid', 'reject'],
  ['negative number', '-1', 'reject'],
  ['unknown UUID', '0190a0b0-0000-7000-8000-000000000000', 'reject'],
  ['SQL injection', encodeURIComponent("' OR 1=1 --"), 'reject'],
  ['percent-encoded NUL', '%00', 'reject'],
  ['CRLF', '%0d%0aSet-Cookie:%20injected=1', 'reject'],
  ['encoded slash', 'a%2Fb', 'reject'],
  ['encoded traversal', '..%2F..%2Fetc%2Fpasswd', 'reject'],
  ['dot dot', '..', 'any'], // the URL parser resolves it: another route, or this one without the segment
  ['emoji', encodeURIComponent('💥'), 'reject'],
  ['invalid percent-encoding', '%E0%A4%A', 'reject'],
  ['very long (10k)', 'a'.repeat(10_000), 'reject'],
  ['huge (100k)', 'a'.repeat(100_000), 'reject'],
];

// ---------------------------------------------------------------------------
// Cases.

interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | FormData;
}

interface Case {
  name: string;
  /** reject: must be a 4xx; any: a 2xx is acceptable too (then it must be stored verbatim). */
  expect: 'reject' | 'any';
  graphql?: boolean;
  uploads?: boolean;
  build: () => RawRequest;
  /** For accepted text: the value that must come back (in the response or the audit trail) as it was sent. */
  stored?: () => string;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** The JSON text of `body` with property `prop` set to the raw JSON text `raw`. */
function withRaw(body: Record<string, unknown>, prop: string, raw: string): string {
  const marker = `__raw_${randomUUID()}__`;
  return JSON.stringify({ ...body, [prop]: marker }).replace(JSON.stringify(marker), raw);
}

function jsonBodyCases(route: RestRoute, s: JsonSchema): Case[] {
  const name = routeName(route);
  const cases: Case[] = [];
  const add = (label: string, expectation: Case['expect'], body: () => string | Uint8Array, headers: Record<string, string> = JSON_HEADERS, stored?: () => string) =>
    cases.push({ name: `${name}: ${label}`, expect: expectation, build: () => ({ method: route.method, path: pathOf(route), headers, body: body() }), stored });
  const valid = () => validBody(route, s);
  const required: string[] = s.required ?? [];
  const properties: Record<string, JsonSchema> = s.properties ?? {};

  // Malformed JSON.
  add('malformed JSON (truncated)', 'reject', () => JSON.stringify(valid()).slice(0, -2));
  add('malformed JSON (trailing garbage)', 'reject', () => `${JSON.stringify(valid())} garbage`);
  add('malformed JSON (two documents)', 'reject', () => `${JSON.stringify(valid())}{}`);
  add('malformed JSON (NaN)', 'reject', () => withRaw(valid(), Object.keys(properties)[0] ?? 'x', 'NaN'));
  add('malformed JSON (single quotes)', 'reject', () => `{'${Object.keys(properties)[0] ?? 'x'}': 'x'}`);
  add('malformed JSON (deeply nested)', 'reject', () => '['.repeat(200_000) + ']'.repeat(200_000));
  add('JSON with a byte order mark', 'any', () => `\ufeff${JSON.stringify(valid())}`);
  // Not an object.
  add('array body', 'reject', () => JSON.stringify([valid()]));
  add('string body', 'reject', () => '"text"');
  add('number body', 'reject', () => '42');
  add('null body', 'reject', () => 'null');
  add('boolean body', 'reject', () => 'true');
  // Wrong content type.
  add('wrong content-type (text/plain)', 'reject', () => JSON.stringify(valid()), { 'content-type': 'text/plain' });
  add('wrong content-type (form)', 'reject', () => 'a=b', { 'content-type': 'application/x-www-form-urlencoded' });
  add('wrong content-type (multipart)', 'reject', () => '--x\r\n\r\n--x--', { 'content-type': 'multipart/form-data; boundary=x' });
  add('no content-type', 'reject', () => new TextEncoder().encode(JSON.stringify(valid())), {});
  // Empty and missing.
  add('empty body', required.length ? 'reject' : 'any', () => '');
  add('empty object', required.length ? 'reject' : 'any', () => '{}');
  for (const prop of required) {
    add(`missing required ${prop}`, 'reject', () => JSON.stringify({ ...valid(), [prop]: undefined }));
    add(`null for required ${prop}`, 'reject', () => JSON.stringify({ ...valid(), [prop]: null }));
  }
  // Wrong types, for every property (and one level into objects).
  for (const [prop, propSchema] of Object.entries(properties)) {
    for (const [label, value] of wrongValues(propSchema)) {
      add(`wrong type for ${prop} (${label})`, 'reject', () => JSON.stringify({ ...valid(), [prop]: value }));
    }
    const inner = resolve(propSchema).schema;
    if (kindOf(inner) === 'object') {
      for (const [innerProp, innerSchema] of Object.entries<JsonSchema>(inner.properties ?? {})) {
        for (const [label, value] of wrongValues(innerSchema).slice(0, 1)) {
          add(`wrong type for ${prop}.${innerProp} (${label})`, 'reject', () => JSON.stringify({ ...valid(), [prop]: { ...(sample(inner) as object), [innerProp]: value } }));
        }
      }
      add(`unknown field in ${prop}`, 'reject', () => JSON.stringify({ ...valid(), [prop]: { ...(sample(inner) as object), unexpected: 1 } }));
    }
  }
  // Oversized strings.
  const text = textProperty(s);
  if (text) {
    add(`1 MB string in ${text}`, 'reject', () => JSON.stringify({ ...valid(), [text]: 'x'.repeat(1024 * 1024) }));
  }
  for (const [prop, propSchema] of Object.entries(properties)) {
    if (kindOf(resolve(propSchema).schema) !== 'string') continue;
    const long = 'y'.repeat(100_000);
    add(`100k-char string in ${prop}`, 'any', () => JSON.stringify({ ...valid(), [prop]: long }), JSON_HEADERS, () => long);
  }
  for (const [prop, propSchema] of Object.entries(properties)) {
    const k = kindOf(resolve(propSchema).schema);
    if (k !== 'number' && k !== 'integer') continue;
    add(`huge number for ${prop}`, 'reject', () => withRaw(valid(), prop, '1e400'));
    add(`very large number for ${prop}`, 'any', () => withRaw(valid(), prop, '1.7976931348623157e308'));
    add(`negative number for ${prop}`, 'any', () => withRaw(valid(), prop, '-1'));
  }
  if (text) {
    // Unicode edge cases: accepted only if stored as sent.
    for (const [label, raw] of UNICODE) {
      add(`unicode ${label} in ${text}`, 'any', () => withRaw(valid(), text, raw), JSON_HEADERS, () => JSON.parse(raw));
    }
    for (const [label, bytes] of INVALID_UTF8) {
      add(`${label} in ${text} (raw body)`, 'reject', () => {
        const [before, after] = withRaw(valid(), text, '"@@"').split('@@');
        return Buffer.concat([Buffer.from(`${before}A`), Buffer.from(bytes), Buffer.from(`Z${after}`)]);
      });
    }
    // Injection strings: accepted only if stored as sent.
    for (const [label, value] of INJECTIONS) {
      add(`injection (${label}) in ${text}`, 'any', () => JSON.stringify({ ...valid(), [text]: value }), JSON_HEADERS, () => value);
    }
    add(`NoSQL operator object in ${text}`, 'reject', () => JSON.stringify({ ...valid(), [text]: { $gt: '' } }));
    add(`NoSQL operator array in ${text}`, 'reject', () => JSON.stringify({ ...valid(), [text]: [{ $ne: null }] }));
  }
  // Prototype pollution (as JSON text: JSON.stringify would not write __proto__ as a key).
  add('prototype pollution (__proto__)', 'any', () => `{"__proto__": {"polluted": true}, ${JSON.stringify(valid()).slice(1)}`);
  add('prototype pollution (constructor.prototype)', 'any', () => `{"constructor": {"prototype": {"polluted": true}}, ${JSON.stringify(valid()).slice(1)}`);
  for (const [prop, propSchema] of Object.entries(properties)) {
    if (kindOf(resolve(propSchema).schema) !== 'object') continue;
    add(`prototype pollution in ${prop}`, 'any', () => withRaw(valid(), prop, `{"__proto__": {"polluted": true}, ${JSON.stringify(sample(propSchema)).slice(1)}`));
  }
  return cases;
}

function multipartCases(route: RestRoute, field: string): Case[] {
  const name = routeName(route);
  const cases: Case[] = [];
  const add = (label: string, expectation: Case['expect'], body: () => RawRequest['body'], headers?: Record<string, string>) =>
    cases.push({ name: `${name}: ${label}`, expect: expectation, uploads: true, build: () => ({ method: route.method, path: pathOf(route), headers, body: body() }) });
  const boundary = 'bad-input-boundary';
  const multipart = `multipart/form-data; boundary=${boundary}`;
  const part = (partName: string, filename: string, data: Buffer) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${partName}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`), data, Buffer.from('\r\n')]);
  const end = Buffer.from(`--${boundary}--\r\n`);

  add('no file part', 'reject', () => formWith([], { other: 'value' }));
  add(`wrong field name (not "${field}")`, 'reject', () => formWith([{ name: 'upload', data: png() }]));
  add('two files', 'reject', () => formWith([{ name: field, data: png() }, { name: field, data: png() }]));
  add('empty multipart body', 'reject', () => '', { 'content-type': multipart });
  add('truncated before the closing boundary', 'reject', () => part(field, 'a.png', png()), { 'content-type': multipart });
  add('truncated inside the part headers', 'reject', () => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filen`), { 'content-type': multipart });
  add('boundary that does not match', 'reject', () => Buffer.concat([part(field, 'a.png', png()), end]), { 'content-type': 'multipart/form-data; boundary=other' });
  add('no boundary parameter', 'reject', () => Buffer.concat([part(field, 'a.png', png()), end]), { 'content-type': 'multipart/form-data' });
  add('JSON instead of multipart', 'reject', () => JSON.stringify({ [field]: 'x' }), JSON_HEADERS);
  add('no content-type', 'reject', () => new Uint8Array(png()), {});
  add('empty file', 'reject', () => formWith([{ name: field, data: Buffer.alloc(0) }]));
  add('file of a refused type', 'reject', () => formWith([{ name: field, data: Buffer.from('just text'), filename: 'a.txt', type: 'text/plain' }]));
  add('huge filename (100k chars)', 'any', () => formWith([{ name: field, data: png(), filename: `${'n'.repeat(100_000)}.png` }]));
  add('long filename (1000 chars)', 'any', () => formWith([{ name: field, data: png(), filename: `${'n'.repeat(1000)}.png` }]));
  add('filename with path traversal', 'any', () => formWith([{ name: field, data: png(), filename: '../../../etc/passwd' }]));
  add('filename with NUL', 'any', () => Buffer.concat([part(field, 'a\0b.png', png()), end]), { 'content-type': multipart });
  add('filename with percent-encoded NUL', 'any', () => formWith([{ name: field, data: png(), filename: 'a%00.png' }]));
  add('filename with RTL override', 'any', () => formWith([{ name: field, data: png(), filename: 'gnp\u202e.exe' }]));
  add('filename with invalid UTF-8', 'any', () => Buffer.concat([part(field, Buffer.from([0x61, 0xff, 0xfe]).toString('latin1'), png()), end]), { 'content-type': multipart });
  add('filename with CRLF', 'any', () => formWith([{ name: field, data: png(), filename: 'a\r\nSet-Cookie: x=1.png' }]));
  add('filename with script', 'any', () => formWith([{ name: field, data: png(), filename: '<script>alert(1)</script>.png' }]));
  return cases;
}

/** Query values of the wrong type, per declared query parameter type. */
function queryCases(route: RestRoute): Case[] {
  const name = routeName(route);
  const cases: Case[] = [];
  const json = bodySpec(route);
  const body = () => (json.kind === 'json' ? JSON.stringify(validBody(route, json.schema!)) : undefined);
  const add = (label: string, expectation: Case['expect'], query: string) =>
    cases.push({
      name: `${name}: ${label}`, expect: expectation,
      build: () => ({ method: route.method, path: `${pathOf(route)}?${query}`, headers: json.kind === 'json' ? JSON_HEADERS : {}, body: body() }),
    });
  const params = queryParams(route);
  add('unknown query parameter', 'reject', 'unexpected=1');
  add('prototype pollution in the query', 'reject', '__proto__[polluted]=true&constructor[prototype][polluted]=true');
  for (const { name: param, schema: s } of params) {
    const kind = kindOf(s);
    add(`${param} given twice`, 'reject', `${param}=1&${param}=2`);
    if (kind === 'integer') {
      for (const value of ['abc', '1.5', '', '0x10', '99999999999999999999']) add(`${param}=${value || '(empty)'} (not an integer)`, 'reject', `${param}=${value}`);
      for (const value of ['0', '-1', '999999999']) add(`${param}=${value}`, 'any', `${param}=${value}`);
    } else if (kind === 'number') {
      for (const value of ['abc', 'NaN', 'Infinity', '1e400', '']) add(`${param}=${value || '(empty)'} (not a number)`, 'reject', `${param}=${value}`);
      for (const value of ['-1', '999999999']) add(`${param}=${value}`, 'any', `${param}=${value}`);
    } else if (kind === 'boolean') {
      for (const value of ['maybe', '1', 'TRUE', '']) add(`${param}=${value || '(empty)'} (not a boolean)`, 'reject', `${param}=${value}`);
    } else if (kind === 'enum') {
      add(`${param} not one of its values`, 'reject', `${param}=NOT_A_VALUE`);
      add(`${param} as a number`, 'reject', `${param}=7`);
      add(`${param} with SQL injection`, 'reject', `${param}=${encodeURIComponent("' OR 1=1 --")}`);
    } else {
      for (const [label, value] of INJECTIONS.filter(([label]) => QUERY_INJECTIONS.includes(label))) {
        add(`${param} with injection (${label})`, 'any', `${param}=${encodeURIComponent(value)}`);
      }
      add(`${param} with NUL`, 'any', `${param}=%00`);
      add(`${param} with lone surrogate`, 'any', `${param}=%ED%A0%80`);
      add(`${param} very long (10k)`, 'any', `${param}=${'q'.repeat(10_000)}`);
      add(`${param} huge (100k)`, 'any', `${param}=${'q'.repeat(100_000)}`);
    }
  }
  return cases;
}

function pathCases(route: RestRoute): Case[] {
  const name = routeName(route);
  const json = bodySpec(route);
  return pathParams(route).flatMap((param) =>
    BAD_IDS.map(([label, value, expectation]): Case => ({
      name: `${name}: bad path parameter ${param} (${label})`,
      expect: expectation,
      uploads: json.kind === 'multipart',
      build: () => ({
        method: route.method, path: pathOf(route, { [param]: value }),
        headers: json.kind === 'json' ? JSON_HEADERS : {},
        body: json.kind === 'json' ? JSON.stringify(validBody(route, json.schema!)) : undefined,
      }),
    })),
  );
}

/** Routes without a body: a body is ignored or refused, never a fault (GET cannot carry one; DELETE goes to unknown ids so nothing is deleted). */
function ignoredBodyCases(route: RestRoute): Case[] {
  if (route.method === 'GET') return [];
  const name = routeName(route);
  const unknown = () => pathOf(route, Object.fromEntries(pathParams(route).map((p) => [p, p === 'key' ? `private/${randomUUID()}/x.pdf` : randomUUID()])));
  return [
    ['malformed JSON body', '{"a":', JSON_HEADERS],
    ['prototype pollution body', '{"__proto__": {"polluted": true}}', JSON_HEADERS],
    ['wrong content-type body', '<xml/>', { 'content-type': 'application/xml' }],
  ].map(([label, body, headers]) => ({
    name: `${name}: ${label as string}`, expect: 'reject' as const,
    build: () => ({ method: route.method, path: unknown(), headers: headers as Record<string, string>, body: body as string }),
  }));
}

function routeCases(route: RestRoute): Case[] {
  const spec = bodySpec(route);
  return [
    ...(spec.kind === 'json' ? jsonBodyCases(route, spec.schema!) : []),
    ...(spec.kind === 'multipart' ? multipartCases(route, spec.fileField!) : []),
    ...(spec.kind === 'none' ? ignoredBodyCases(route) : []),
    ...pathCases(route),
    ...queryCases(route),
  ];
}

// GraphQL: the same generated bodies as variables of the routes' own operations, for a sample of mutations.
const GRAPHQL_SAMPLE = [
  'POST /v1/consumer-cases', 'POST /v1/tasks', 'PUT /v1/tasks/:id', 'POST /v1/notes', 'POST /v1/business-cases/:id/parties',
  'POST /v1/screening-hits/:id/decision', 'PATCH /v1/screening-settings', 'POST /v1/tasks/:id/assignees',
];

function graphqlVariables(route: RestRoute, body: Record<string, unknown>) {
  const variables: Record<string, unknown> = {};
  for (const [variable, source] of Object.entries(route.variables)) {
    if (source.from === 'path') variables[variable] = decodeURIComponent(fixtureParam(route, source.name));
    else if (source.from === 'body') variables[variable] = source.name ? body[source.name] : body;
  }
  return variables;
}

function graphqlCases(): Case[] {
  const cases: Case[] = [];
  const add = (label: string, expectation: Case['expect'], body: () => string | Uint8Array, headers: Record<string, string> = JSON_HEADERS, stored?: () => string) =>
    cases.push({ name: `POST /graphql: ${label}`, expect: expectation, graphql: true, build: () => ({ method: 'POST', path: '/graphql', headers: { accept: 'application/graphql-response+json', ...headers }, body: body() }), stored });
  const listQuery = '{ consumerCases { meta { total } } }';
  add('malformed JSON (truncated)', 'reject', () => JSON.stringify({ query: listQuery }).slice(0, -2));
  add('malformed JSON (trailing garbage)', 'reject', () => `${JSON.stringify({ query: listQuery })} garbage`);
  add('malformed JSON (NaN)', 'reject', () => `{"query": NaN}`);
  add('JSON with a byte order mark', 'any', () => `\ufeff${JSON.stringify({ query: listQuery })}`);
  add('array body', 'reject', () => '[]');
  add('string body', 'reject', () => '"query"');
  add('number body', 'reject', () => '42');
  add('null body', 'reject', () => 'null');
  add('empty body', 'reject', () => '');
  add('wrong content-type', 'any', () => JSON.stringify({ query: listQuery }), { 'content-type': 'application/xml' });
  add('query of the wrong type', 'reject', () => JSON.stringify({ query: 42 }));
  add('variables of the wrong type', 'reject', () => JSON.stringify({ query: listQuery, variables: 'x' }));
  add('syntax error', 'reject', () => JSON.stringify({ query: 'mutation {' }));
  add('deeply nested selection', 'reject', () => JSON.stringify({ query: `{ consumerCases ${'{ items '.repeat(5000)}${'}'.repeat(5000)} }` }));
  add('unknown operation name', 'reject', () => JSON.stringify({ query: listQuery, operationName: 'Nope' }));
  add('injection inside a string literal', 'any', () => JSON.stringify({ query: `{ consumerCases(search: ${JSON.stringify('") { __schema { types { name } } }')}) { meta { total } } }` }));
  add('lone surrogate in the query text', 'any', () => `{"query": "{ consumerCases(search: \\"\\ud800\\") { meta { total } } }"}`);
  add('NUL in a string literal', 'any', () => `{"query": "{ consumerCases(search: \\"\\u0000\\") { meta { total } } }"}`);
  // yoga decodes the body leniently (replacement characters); REST refuses it (rest/json-body.ts).
  add('invalid UTF-8 in the body', 'any', () => Buffer.concat([Buffer.from('{"query": "{ consumerCases(search: \\"'), Buffer.from([0xff, 0xc0, 0xaf]), Buffer.from('\\") { meta { total } } }"}')]));
  add('prototype pollution in the variables', 'any', () => `{"query": ${JSON.stringify(listQuery)}, "variables": {"__proto__": {"polluted": true}}}`);

  for (const key of GRAPHQL_SAMPLE) {
    const route = routes.find((r) => routeName(r) === key);
    const spec = route && bodySpec(route);
    if (!route || spec?.kind !== 'json') continue;
    const operation = getOperationAST(route.operation)!;
    const field = `${operation.name?.value} (${key})`;
    const request = (variables: Record<string, unknown>) => JSON.stringify({ query: print(route.operation), variables });
    const s = spec.schema!;
    const valid = () => validBody(route, s);
    for (const prop of s.required ?? []) {
      add(`${field}: missing required ${prop}`, 'reject', () => request(graphqlVariables(route, { ...valid(), [prop]: undefined })));
      add(`${field}: null for required ${prop}`, 'reject', () => request(graphqlVariables(route, { ...valid(), [prop]: null })));
    }
    for (const [prop, propSchema] of Object.entries<JsonSchema>(s.properties ?? {})) {
      for (const [label, value] of wrongValues(propSchema)) {
        add(`${field}: wrong type for ${prop} (${label})`, 'reject', () => request(graphqlVariables(route, { ...valid(), [prop]: value })));
      }
    }
    const text = textProperty(s);
    if (!text) continue;
    add(`${field}: 1 MB string in ${text}`, 'reject', () => request(graphqlVariables(route, { ...valid(), [text]: 'x'.repeat(1024 * 1024) })));
    for (const [label, value] of INJECTIONS) {
      add(`${field}: injection (${label}) in ${text}`, 'any', () => request(graphqlVariables(route, { ...valid(), [text]: value })), JSON_HEADERS, () => value);
    }
    for (const [label, raw] of UNICODE.slice(0, 3)) {
      add(`${field}: unicode ${label} in ${text}`, 'any', () => {
        const marker = `__raw_${randomUUID()}__`;
        return request(graphqlVariables(route, { ...valid(), [text]: marker })).replace(JSON.stringify(marker), raw);
      }, JSON_HEADERS, () => JSON.parse(raw));
    }
    add(`${field}: prototype pollution in the input`, 'any', () => {
      const marker = `__raw_${randomUUID()}__`;
      const variables = graphqlVariables(route, { ...valid(), [text]: marker });
      return request(variables).replace(`"${text}":${JSON.stringify(marker)}`, `"__proto__": {"polluted": true}, "${text}": "x"`);
    });
  }
  return cases;
}

const restCases = routes.map((route) => [routeName(route), routeCases(route)] as const);

// ---------------------------------------------------------------------------
// The oracle.

let requestCounter = 0;
// The oracle reads with the owner's role, like service.db, but through one plain pg connection:
// Prisma's raw queries cost ~5 ms each, and every one of the ~3500 cases makes two.
let oracle: pg.Client;
let unchanged: Record<string, number> | undefined;

/** Rows of the organization that a request could write, and the audit events of one request. */
async function snapshot(requestId = '') {
  const { rows } = await oracle.query<Record<string, string>>(
    `SELECT
      (SELECT count(*) FROM audit_events WHERE organization_id = $1::uuid AND request_id = $2 AND resource_type <> 'document_analyses') AS audit_events_of_request,
      (SELECT count(*) FROM audit_events WHERE organization_id = $1::uuid AND resource_type <> 'document_analyses') AS audit_events,
      (SELECT count(*) FROM audit_events WHERE organization_id = $1::uuid AND resource_type = 'document_analyses') AS analysis_audit_events,
      (SELECT count(*) FROM files WHERE organization_id = $1::uuid) AS files,
      (SELECT count(*) FROM screenings WHERE organization_id = $1::uuid) AS screenings,
      (SELECT count(*) FROM risk_assessments WHERE organization_id = $1::uuid) AS risk_assessments,
      (SELECT count(*) FROM document_analyses WHERE organization_id = $1::uuid) AS document_analyses,
      (SELECT count(*) FROM onboarding_invitations WHERE organization_id = $1::uuid) AS onboarding_invitations`,
    [org.id, requestId],
  );
  return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
}

/** Objects in the file store under the organization's prefixes. */
async function storedObjects(): Promise<number> {
  let count = 0;
  for (const visibility of ['public', 'private']) {
    const dir = join(inject('s3Directory'), TEST_BUCKET, visibility, org.id);
    const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
    count += entries.filter((e) => String(e).endsWith('._S3rver_object')).length;
  }
  return count;
}

async function auditOf(requestId: string) {
  return (await oracle.query<{ after: unknown }>('SELECT after FROM audit_events WHERE organization_id = $1::uuid AND request_id = $2', [org.id, requestId])).rows;
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

interface Sent {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function send(request: RawRequest, requestId: string): Promise<Sent> {
  const response = await fetch(service.url + request.path, {
    method: request.method,
    headers: { 'x-api-key': org.key, 'x-request-id': requestId, ...request.headers },
    // Bytes as they are (a copy: fetch takes only ArrayBuffer-backed views).
    body: request.body instanceof Uint8Array ? new Uint8Array(request.body) : request.body,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the shape check reports it
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** yoga's own codes for requests it cannot run (400). */
const GRAPHQL_REQUEST_ERRORS = ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'OPERATION_RESOLUTION_FAILURE'];

function expectErrorShape(response: Sent, graphql: boolean) {
  const body = response.body;
  const context = `${response.status} ${response.text.slice(0, 300)}`;
  if (graphql && body && typeof body === 'object' && 'errors' in body) {
    expect(Array.isArray(body.errors) && body.errors.length > 0, context).toBe(true);
    expect(body.data ?? null, context).toBeNull();
    for (const error of body.errors) {
      expect(typeof error.message, context).toBe('string');
      expect(typeof error.extensions?.code, context).toBe('string');
    }
    // The status is the one the errors' codes stand for.
    const codes: string[] = body.errors.map((e: any) => e.extensions.code);
    const fits = (code: string) => ERROR_STATUS[code as ErrorCode] === response.status || (response.status === 400 && GRAPHQL_REQUEST_ERRORS.includes(code));
    expect(codes.some(fits), context).toBe(true);
    return;
  }
  expect(body && typeof body === 'object' && !Array.isArray(body), `a JSON object error body: ${context}`).toBe(true);
  const keys = Object.keys(body).sort();
  expect(keys.filter((k) => k !== 'fields'), context).toEqual(['error', 'message', 'statusCode']);
  expect(body.statusCode, context).toBe(response.status);
  expect(typeof body.message === 'string' && body.message.length > 0, context).toBe(true);
  expect(body.error, context).toBe(STATUS_CODES[response.status]);
  if ('fields' in body) {
    expect(typeof body.fields === 'object' && body.fields !== null, context).toBe(true);
    for (const value of Object.values(body.fields)) expect(typeof value, context).toBe('string');
  }
}

/** A GraphQL answer with errors and no data is a refusal even at 200. */
const refused = (response: Sent, graphql: boolean) =>
  response.status >= 400 || (graphql && Array.isArray(response.body?.errors) && response.body.errors.length > 0 && !Object.values(response.body?.data ?? {}).some(Boolean));

async function runCase(c: Case, concurrent = false) {
  const request = c.build();
  const requestId = `bad-input-${++requestCounter}`;
  // After a refusal nothing changed, so its final counts are this case's starting counts.
  const before = (!concurrent && unchanged) || (await snapshot());
  unchanged = undefined;
  const objectsBefore = c.uploads ? await storedObjects() : 0;
  const response = await send(request, requestId);
  const context = `${c.name} -> ${response.status} ${response.text.slice(0, 300)}`;

  expect(response.status, context).toBeLessThan(500);
  expect(response.status, context).not.toBe(0);
  // Nothing an input says ends up as a response header.
  expect(response.headers.get('set-cookie'), context).toBeNull();
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), 'Object.prototype polluted').toBe(false);
  expect(({} as Record<string, unknown>).polluted, 'Object.prototype polluted').toBeUndefined();

  if (refused(response, Boolean(c.graphql))) {
    if (response.status >= 400) expectErrorShape(response, Boolean(c.graphql));
    // A document analysis that ran and failed (422) is recorded as a run (analysis-service.ts), with its
    // audit events; nothing else may change.
    const after = await snapshot(requestId);
    if (response.status === 422) {
      after.document_analyses = before.document_analyses!;
      after.analysis_audit_events = before.analysis_audit_events!;
    }
    // Also by request id: an event of this request (as the audit trail records it) would show even if counts were off.
    expect(after, `nothing written: ${context}`).toEqual({ ...before, audit_events_of_request: 0 });
    if (response.status !== 422 && !concurrent) unchanged = after;
    if (c.uploads) expect(await storedObjects(), `no stored object: ${context}`).toBe(objectsBefore);
    return;
  }
  expect(c.expect, `must be refused: ${context}`).toBe('any');
  expect(response.status, context).toBeLessThan(300);
  if (c.stored) {
    const value = c.stored();
    const audit = await auditOf(requestId);
    const seen = [...strings(response.body), ...strings(audit.map((a) => a.after))];
    // Stored as sent (trimming aside), not interpreted.
    expect(seen.some((s) => s === value || s === value.trim()), `stored verbatim: ${context}`).toBe(true);
  }
  if (c.uploads) {
    const key: string | undefined = response.body?.fileKey;
    expect(key, context).toMatch(new RegExp(`^(public|private)/${org.id}/[^/]+$`));
    expect(key, context).not.toContain('..');
  }
}

// ---------------------------------------------------------------------------

const DATASETS = fileURLToPath(new URL('../../../shared/datasets/sanctions/', import.meta.url));

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bad-input-'));
  // A one-entry sanctions list (cut from the real OFAC SDN file) so that a screening has a hit to decide.
  const cut = async (file: string) =>
    (await readFile(join(DATASETS, file), 'utf8')).split('\r\n').filter((line) => line.split(',')[0] === '22790').join('\r\n') + '\r\n';
  await writeFile(join(dir, 'sdn.csv'), await cut('ofac_sdn.csv'));
  await writeFile(join(dir, 'alt.csv'), await cut('ofac_alt.csv'));
  const sourceId = `ofac-bad-input-${Date.now().toString(36)}`;
  service = await startTestService({
    env: {
      DATA_DIR: dir,
      MAIL_OUTBOX_DIR: join(dir, 'outbox'),
      ADVERSE_MEDIA_PROVIDER: 'off',
      WATCHLIST_REFRESH_CRON: 'off',
      WATCHLIST_SOURCES: JSON.stringify([{ id: sourceId, name: 'OFAC (one entry)', format: 'ofac-csv', files: { primary: join(dir, 'sdn.csv'), aliases: join(dir, 'alt.csv') } }]),
    },
  });
  await waitFor(() => service.db.watchlistLoad.findFirst({ where: { sourceId, status: 'LOADED' } }), 'the list load');
  org = await createOrganization(service.db, undefined, 'bad-input');
  oracle = new pg.Client({ connectionString: service.databaseUrl });
  await oracle.connect();
  const rest = restClient(service.url, org.key);
  const ok = async (method: string, path: string, body?: unknown) => {
    const response = await rest(method, path, body);
    if (response.status >= 300) throw new Error(`fixture ${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const consumerCaseId = (await ok('POST', '/v1/consumer-cases', { email: 'fixture@example.com', firstName: 'Fix', lastName: 'Ture' })).id;
  const businessCaseId = (await ok('POST', '/v1/business-cases', { legalName: 'Fixture Holdings Ltd' })).id;
  const partyId = (await ok('POST', `/v1/business-cases/${businessCaseId}/parties`, { kind: 'INDIVIDUAL', name: 'Pat Party', roles: ['DIRECTOR'] })).id;
  const taskId = (await ok('POST', '/v1/tasks', { title: 'Fixture task', consumerCaseId })).id;
  await ok('POST', `/v1/tasks/${taskId}/assignees`, { userId: ASSIGNEE });
  const noteId = (await ok('POST', '/v1/notes', { body: 'Fixture note', consumerCaseId })).id;
  const uploaded = await fetch(`${service.url}/v1/files/upload/private`, {
    method: 'POST', headers: { 'x-api-key': org.key }, body: formWith([{ name: 'file', data: pdf(), filename: 'fixture.pdf' }]),
  });
  if (uploaded.status !== 201) throw new Error(`fixture upload: ${uploaded.status} ${await uploaded.text()}`);
  const fileKey = ((await uploaded.json()) as { fileKey: string }).fileKey;
  const documentId = (await ok('POST', '/v1/documents', { fileKey, type: 'PASSPORT', consumerCaseId })).id;
  const screening = await ok('POST', '/v1/screenings', { name: 'Nicolás Maduro Moros', kind: 'PERSON' });
  if (!screening.hits?.length) throw new Error(`fixture screening has no hit: ${JSON.stringify(screening)}`);
  const riskAssessmentId = (await ok('POST', `/v1/consumer-cases/${consumerCaseId}/risk-assessments`, {})).id;
  const jobId = (await ok('POST', '/v1/document-analysis/analyze-async?wait=false', { fileKey })).data.jobId;
  // Let the job finish now, so that it writes nothing while the cases count rows.
  await waitFor(async () => ['SUCCEEDED', 'FAILED'].includes((await rest('GET', `/v1/document-analysis/jobs/${jobId}`)).body?.data?.status), 'the analysis job');
  const token = (await ok('POST', '/v1/consumer-cases/onboarding/send-email', { email: 'onboard@example.com', fullName: 'Ona Board' })).token;
  // A disabled endpoint to edit, and an enabled one whose delivery of a task event is the delivery fixture.
  const webhookEndpointId = (await ok('POST', '/v1/webhook-endpoints', VALID_BODIES['POST /v1/webhook-endpoints']!({} as Fixtures))).endpoint.id;
  const live = (await ok('POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/live', eventTypes: ['task.created'] })).endpoint.id;
  await ok('POST', '/v1/tasks', { title: 'Delivered somewhere' });
  const webhookDeliveryId = await waitFor(async () => (await rest('GET', `/v1/webhook-deliveries?endpointId=${live}`)).body?.items?.[0]?.id, 'a webhook delivery');
  const eventId = await waitFor(async () => (await rest('GET', '/v1/events?limit=1')).body?.items?.[0]?.id, 'an event in the feed');
  fixtures = {
    consumerCaseId, businessCaseId, partyId, taskId, noteId, fileKey, documentId,
    screeningId: screening.id, hitId: screening.hits[0].id, riskAssessmentId, jobId, token, webhookEndpointId, webhookDeliveryId, eventId,
  };
}, 120_000);
afterAll(async () => {
  await oracle?.end();
  await service?.stop();
});

describe('bad input on every /v1 route', () => {
  it('generates cases for every route of the table', () => {
    expect(restCases.map(([name]) => name)).toEqual(routes.map(routeName));
    for (const [name, cases] of restCases) expect(cases.length, name).toBeGreaterThan(0);
  });

  for (const [name, cases] of restCases) {
    describe(name, () => {
      // A GET writes nothing whatever its answer, so its cases may overlap (the counts must stay put
      // all the while); everything else runs one case at a time, so each change is that case's.
      const get = name.startsWith('GET ');
      (get ? it.concurrent : it).each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => runCase(c, get));
    });
  }
});

describe('bad input on /graphql', () => {
  it.each(graphqlCases().map((c) => [c.name, c] as const))('%s', async (_name, c) => runCase(c));
});

describe('malformed HTTP', () => {
  /** A request written by hand (clients refuse to send these). */
  async function rawRequest(head: string): Promise<string> {
    const { port } = new URL(service.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
      socket.setTimeout(5000, () => socket.destroy(new Error(`no answer; got ${received}`)));
      socket.end(head);
    });
  }

  it.each([
    ['a CRLF in a header value (header injection)', (key: string) => `GET /v1/tasks HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nX-Request-Id: a\rSet-Cookie: injected=1\r\nConnection: close\r\n\r\n`],
    ['a header line without a colon', (key: string) => `GET /v1/tasks HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nnot a header\r\nConnection: close\r\n\r\n`],
    ['a NUL in the request line', (key: string) => `GET /v1/tasks/\0 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`],
  ])('%s: a 4xx in the error shape, and no injected header', async (_name, build) => {
    const received = await rawRequest(build(org.key));
    const [head = '', body = ''] = received.split('\r\n\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
    expect(status, received).toBeGreaterThanOrEqual(400);
    expect(status, received).toBeLessThan(500);
    expect(head.toLowerCase(), received).not.toContain('set-cookie');
    expect(JSON.parse(body), received).toEqual({ statusCode: status, message: expect.any(String), error: STATUS_CODES[status] });
  });
});
