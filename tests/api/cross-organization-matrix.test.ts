// A generated cross-organization matrix. Organization A creates one of
// everything through the API; then, for EVERY route of the REST table and
// every GraphQL Query field, organization B (holding every permission) uses
// A's ids (in the path, in body references, in query filters) and must get
// exactly what it gets for ids that do not exist: 404 in the shared shape for
// A's objects in the path, the same (empty) answer for filters. No response
// to B ever contains an id of A's rows, and afterwards A's rows (every table
// with an organization_id, audit trail included) are exactly as before.
//
// The cases come from the route table and the schema: a new route or Query
// field is covered without editing this file, and fails here until its path
// parameters and id arguments name an A-owned fixture (PATH_PARAMS,
// REFERENCES, LOOKUP_IDS) and its JSON input has a sample (SAMPLE_INPUTS).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  getNamedType,
  getNullableType,
  getOperationAST,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  typeFromAST,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestRoute } from '../../rest/route.ts';
import { routes } from '../../rest/routes.ts';
import { declaredPermission } from '../../src/auth/field-permission.ts';
import { ALL_PERMISSIONS, type Permission } from '../../src/auth/permissions.ts';
import { schema } from '../../src/schema/index.ts';
import type { RunningService } from '../../src/service.ts';
import { feedCaughtUp } from '../helpers/event-feed.ts';
import { graphqlClient, type GraphQLResult, type HttpResult, restClient } from '../helpers/http.ts';
import { png, textPdf } from '../helpers/sample-files.ts';
import { createKey, startTestService, type TestOrganization, twoOrganizations } from '../helpers/service.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { formWith, upload } from '../helpers/uploads.ts';
import { waitFor } from '../helpers/wait.ts';

// ---------------------------------------------------------------------------
// What names what.

/** Path parameters, by the segment before them, → the fixture they name. */
const PATH_PARAMS: Record<string, string> = {
  'consumer-cases/:id': 'consumerCase',
  'onboarding/:token': 'token',
  'business-cases/:id': 'businessCase',
  'parties/:partyId': 'party',
  'screenings/:id': 'screening',
  'screening-hits/:id': 'hit',
  'risk-assessments/:id': 'riskAssessment',
  'notes/:id': 'noteOnCase',
  'tasks/:id': 'task',
  'assignees/:userId': 'assignee',
  'files/*key': 'fileKey',
  'documents/:id': 'document',
  'jobs/:jobId': 'analysis',
  'parse/:fileKey': 'fileKey',
  'events/:id': 'event',
  'webhook-endpoints/:id': 'webhookEndpoint',
  'webhook-deliveries/:id': 'webhookDelivery',
};

/** Query parameters, body properties, input fields and GraphQL arguments that refer to a record → the fixture. */
const REFERENCES: Record<string, string> = {
  consumerCaseId: 'consumerCase',
  businessCaseId: 'businessCase',
  businessPartyId: 'party',
  partyId: 'companyParty', // holdings name a company party
  taskId: 'task',
  documentId: 'document',
  fileKey: 'fileKey',
  key: 'fileKey',
  token: 'token',
  screeningId: 'screening',
  jobId: 'analysis',
  resourceId: 'consumerCase',
  requestId: 'requestId',
  assigneeId: 'assignee',
  endpointId: 'webhookEndpoint',
  eventId: 'event',
  after: 'event',
};
/** Names that look like references but are not records: free text of the caller (userId), a company's tax number (taxId). */
const NOT_REFERENCES = new Set(['userId', 'taxId']);
const looksLikeReference = (name: string) => !NOT_REFERENCES.has(name) && /^(id|key|token|after)$|(Id|Key)$/.test(name);

/** `id` arguments of GraphQL Query fields → the fixture. */
const LOOKUP_IDS: Record<string, string> = {
  consumerCase: 'consumerCase',
  businessCase: 'businessCase',
  businessParty: 'party',
  task: 'task',
  note: 'noteOnCase',
  document: 'document',
  screening: 'screening',
  screeningHit: 'hit',
  riskAssessment: 'riskAssessment',
  consumerCaseRiskAssessment: 'consumerCase',
  businessCaseRiskAssessment: 'businessCase',
  event: 'event',
  webhookEndpoint: 'webhookEndpoint',
  webhookDelivery: 'webhookDelivery',
};

let receiverUrl = '';
/** A valid JSON input of organization B per GraphQL input type (B's own records where one is required). */
const SAMPLE_INPUTS: Record<string, (b: Fixtures) => Record<string, unknown>> = {
  CreateConsumerCaseInput: () => ({ email: 'b-person@example.com', firstName: 'Bea' }),
  UpdateConsumerCaseInput: () => ({ firstName: 'Intruder' }),
  SendOnboardingEmailInput: () => ({ fullName: 'Bea Invitee', email: 'b-invitee@example.org' }),
  CreateBusinessCaseInput: () => ({ legalName: 'B Trading Ltd' }),
  UpdateBusinessCaseInput: () => ({ legalName: 'Intruder Ltd' }),
  CreateBusinessPartyInput: () => ({ kind: 'INDIVIDUAL', name: 'Intruder Person', roles: ['SHAREHOLDER'] }),
  UpdateBusinessPartyInput: () => ({ name: 'Intruder Person' }),
  HoldingInput: () => ({ percentage: 10 }),
  ScreenNameInput: () => ({ name: 'Nobody Intruder', kind: 'PERSON' }),
  DecideScreeningHitInput: () => ({ decision: 'FALSE_POSITIVE', reason: 'intruder' }),
  UpdateScreeningSettingsInput: () => ({ threshold: 0.9 }),
  CreateNoteInput: () => ({ body: 'Planted by B' }),
  UpdateNoteInput: () => ({ body: 'Changed by B' }),
  CreateTaskInput: () => ({ title: 'Planted by B' }),
  UpdateTaskInput: () => ({ title: 'Changed by B' }),
  CreateDocumentInput: (b) => ({ fileKey: b.fileKey, type: 'OTHER' }),
  UpdateDocumentInput: () => ({ status: 'UPLOADED' }),
  CreateWebhookEndpointInput: () => ({ url: `${receiverUrl}/b`, eventTypes: ['*'], enabled: false }),
  UpdateWebhookEndpointInput: () => ({ description: 'changed by B' }),
};
/** Named body properties that are not references. */
const SAMPLE_BODY_VALUES: Record<string, unknown> = { userId: 'b-analyst', includeParties: false };

type Fixtures = Record<string, string>;

// ---------------------------------------------------------------------------
// The service, A's records and their non-existent counterparts.

let service: RunningService;
let smtp: TestSmtpServer;
let receiver: Server;
let listDir: string;
let orgA: TestOrganization;
let orgB: TestOrganization;
let restA: ReturnType<typeof restClient>;
let restB: ReturnType<typeof restClient>;
let gqlB: ReturnType<typeof graphqlClient>;
const A: Fixtures = {};
const B: Fixtures = {};
/** A's fixture → a value of the same shape that names nothing. */
const MISSING: Fixtures = {};
/** Every id of A's rows (and A's file keys, token, request id): none may reach B unless B sent it. */
let secretsOfA: string[] = [];
let before: Record<string, string[]>;

/** In every name and text A writes: B must never see it. */
const MARK = `Secretofa${randomBytes(4).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]!)}`; // letters only: it is a first name too
const INVITEE = `${MARK.toLowerCase()}-invitee@example.org`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const hasWebhooks = routes.some((route) => route.path === '/v1/webhook-endpoints');
const DATASETS = fileURLToPath(new URL('../../../shared/datasets/sanctions/', import.meta.url));
const SOURCE = `xorg-matrix-${Date.now().toString(36)}`;

function counterpart(value: string): string {
  if (UUID.test(value)) return randomUUID();
  if (/^[A-Za-z0-9_-]{43}$/.test(value)) return randomBytes(32).toString('base64url');
  const key = /^(private|public)\/[^/]+\/[^.]+(\.\w+)$/.exec(value);
  if (key) return `${key[1]}/${randomUUID()}/${randomUUID()}${key[2]}`;
  return `nobody-${randomUUID().slice(0, 8)}`;
}

async function ok<T = any>(response: Promise<HttpResult<T>>, status = 200): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body;
}

/** Every row of A in every table with an organization_id (plus A's organization row), as sorted JSON. */
async function snapshotA() {
  const tables = await service.db.$queryRaw<Array<{ table_name: string }>>`
    SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
    WHERE c.table_schema = 'public' AND c.column_name = 'organization_id' AND t.table_type = 'BASE TABLE' ORDER BY c.table_name`;
  const snapshot: Record<string, string[]> = {};
  for (const { table_name: table } of tables) {
    const rows = await service.db.$queryRawUnsafe<Array<{ row: unknown }>>(`SELECT to_jsonb(t) AS row FROM "${table}" t WHERE organization_id = $1::uuid`, orgA.id);
    snapshot[table] = rows.map((r) => JSON.stringify(r.row)).sort();
  }
  const organization = await service.db.$queryRawUnsafe<Array<{ row: unknown }>>('SELECT to_jsonb(o) AS row FROM organizations o WHERE id = $1::uuid', orgA.id);
  snapshot.organizations = organization.map((r) => JSON.stringify(r.row));
  return snapshot;
}

async function createFixturesOfA() {
  if (hasWebhooks) {
    // First, so that every later change of A is delivered (A's delivery log is then part of the matrix).
    A.webhookEndpoint = (await ok(restA('POST', '/v1/webhook-endpoints', { url: `${receiverUrl}/a`, eventTypes: ['*'] }), 201)).endpoint.id;
  }
  A.consumerCase = (await ok(restA('POST', '/v1/consumer-cases', { email: `${MARK.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`, firstName: MARK, lastName: 'Alpha' }), 201)).id;
  A.businessCase = (await ok(restA('POST', '/v1/business-cases', { legalName: `${MARK} Holdings`, registrationNumber: `${MARK}-1` }), 201)).id;
  const parties = `/v1/business-cases/${A.businessCase}/parties`;
  A.companyParty = (await ok(restA('POST', parties, { kind: 'COMPANY', name: `${MARK} Sub`, roles: ['SHAREHOLDER'], ownershipPercentage: 60 }), 201)).id;
  A.party = (await ok(restA('POST', parties, {
    kind: 'INDIVIDUAL', name: `${MARK} Owner`, roles: ['SHAREHOLDER'], consumerCaseId: A.consumerCase, owns: [{ partyId: A.companyParty, percentage: 100 }],
  }), 201)).id;
  A.task = (await ok(restA('POST', '/v1/tasks', { title: `${MARK} task`, consumerCaseId: A.consumerCase, businessCaseId: A.businessCase }), 201)).id;
  A.assignee = 'a-analyst';
  await ok(restA('POST', `/v1/tasks/${A.task}/assignees`, { userId: A.assignee }));
  A.noteOnCase = (await ok(restA('POST', '/v1/notes', { body: `${MARK} note on the case`, consumerCaseId: A.consumerCase }), 201)).id;
  A.noteOnTask = (await ok(restA('POST', '/v1/notes', { body: `${MARK} note on the task`, taskId: A.task }), 201)).id;
  A.noteOnBusiness = (await ok(restA('POST', '/v1/notes', { body: `${MARK} note on the business`, businessCaseId: A.businessCase }), 201)).id;
  const stored = await upload(service.url, orgA.key, 'private', formWith([{ name: 'file', data: await textPdf([[`${MARK} statement`]]), filename: `${MARK}.pdf` }]));
  expect(stored.status, JSON.stringify(stored.body)).toBe(201);
  A.fileKey = stored.body.fileKey;
  A.document = (await ok(restA('POST', '/v1/documents', { fileKey: A.fileKey, type: 'BANK_STATEMENT', consumerCaseId: A.consumerCase }), 201)).id;
  A.businessDocument = (await ok(restA('POST', '/v1/documents', { fileKey: A.fileKey, type: 'OTHER', businessCaseId: A.businessCase }), 201)).id;
  A.analysis = (await ok(restA('POST', '/v1/document-analysis/analyze', { fileKey: A.fileKey }))).data.jobId;
  const adHoc = await ok(restA('POST', '/v1/screenings', { name: 'Nicolás Maduro Moros', kind: 'PERSON', birthDate: '1962-11-23' }), 201);
  A.screening = adHoc.id;
  A.hit = adHoc.hits[0].id;
  await ok(restA('POST', `/v1/screening-hits/${A.hit}/decision`, { decision: 'FALSE_POSITIVE', reason: `${MARK} reason` }));
  await ok(restA('POST', `/v1/consumer-cases/${A.consumerCase}/screenings`, {}), 201);
  await ok(restA('POST', `/v1/business-cases/${A.businessCase}/screenings`, {}), 201);
  A.riskAssessment = (await ok(restA('POST', `/v1/consumer-cases/${A.consumerCase}/risk-assessments`, {}), 201)).id;
  await ok(restA('POST', `/v1/business-cases/${A.businessCase}/risk-assessments`, {}), 201);
  const invitation = await ok(restA('POST', '/v1/consumer-cases/onboarding/send-email', { fullName: `${MARK} Alpha`, email: INVITEE }), 201);
  A.token = invitation.token;
  await smtp.messageTo(INVITEE);
  const audited = await service.db.auditEvent.findFirst({ where: { organizationId: orgA.id, requestId: { not: null } } });
  A.requestId = audited!.requestId!;
  if (hasWebhooks) {
    await feedCaughtUp(service.db);
    A.event = (await ok(restA('GET', '/v1/events?limit=1'))).items[0].id;
    // Every delivery of A done (the receiver answers 204), so nothing of A changes on its own later.
    await waitFor(async () => {
      const log = await ok(restA('GET', '/v1/webhook-deliveries?limit=100'));
      return log.items.length > 0 && log.items.every((d: { status: string }) => d.status === 'SUCCEEDED') && log;
    }, 'A\'s webhook deliveries', 60_000, 200);
    A.webhookDelivery = (await ok(restA('GET', '/v1/webhook-deliveries?limit=1'))).items[0].id;
  }
}

/** B's own records, for routes whose path must name one of B's records while a body or query references A's. */
async function createFixturesOfB() {
  const stored = await upload(service.url, orgB.key, 'private', formWith([{ name: 'file', data: png(), filename: 'b.png' }]));
  B.fileKey = stored.body.fileKey;
  B.document = (await ok(restB('POST', '/v1/documents', { fileKey: B.fileKey, type: 'OTHER' }), 201)).id;
  B.consumerCase = (await ok(restB('POST', '/v1/consumer-cases', { email: 'b-own@example.com' }), 201)).id;
  B.businessCase = (await ok(restB('POST', '/v1/business-cases', { legalName: 'B Own Ltd' }), 201)).id;
  B.party = (await ok(restB('POST', `/v1/business-cases/${B.businessCase}/parties`, { kind: 'INDIVIDUAL', name: 'B Own Person', roles: ['DIRECTOR'] }), 201)).id;
  B.task = (await ok(restB('POST', '/v1/tasks', { title: 'B own task' }), 201)).id;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // One listed entity (cut from the OFAC SDN files), so that screenings have a hit.
  listDir = await mkdtemp(join(tmpdir(), 'xorg-matrix-'));
  for (const [from, to] of [['ofac_sdn.csv', 'sdn.csv'], ['ofac_alt.csv', 'alt.csv'], ['ofac_add.csv', 'add.csv']] as const) {
    const lines = (await readFile(join(DATASETS, from), 'utf8')).split('\r\n').filter((line) => line.split(',')[0] === '22790');
    await writeFile(join(listDir, to), `${lines.join('\r\n')}\r\n`);
  }
  const files = { primary: join(listDir, 'sdn.csv'), aliases: join(listDir, 'alt.csv'), addresses: join(listDir, 'add.csv') };
  service = await startTestService({
    env: {
      SMTP_URL: smtp.url,
      WATCHLIST_SOURCES: JSON.stringify([{ id: SOURCE, name: 'OFAC SDN (one entry)', format: 'ofac-csv', files }]),
      WATCHLIST_REFRESH_CRON: 'off',
      ADVERSE_MEDIA_PROVIDER: 'off',
      WEBHOOK_DISPATCH_INTERVAL_MS: '100',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // The matrix selects every field of every type at once: isolation is what
      // it tests, so the cost limit (tests/api/operation-limits.test.ts) is lifted.
      GRAPHQL_MAX_COST: '10000000',
    },
  });
  await waitFor(() => service.db.watchlistLoad.findFirst({ where: { sourceId: SOURCE, status: 'LOADED' } }), 'the watchlist');
  ({ orgA, orgB, restA, restB, gqlB } = await twoOrganizations(service));
  await createFixturesOfA();
  await createFixturesOfB();
  for (const [name, value] of Object.entries(A)) MISSING[name] = counterpart(value);

  before = await snapshotA();
  const ids = Object.values(before).flat().flatMap((row) => {
    const parsed = JSON.parse(row) as Record<string, unknown>;
    return [parsed.id, parsed.key].filter((v): v is string => typeof v === 'string' && (UUID.test(v) || v.includes('/')));
  });
  secretsOfA = [...new Set([...ids, orgA.id, A.fileKey!, A.token!, A.requestId!, MARK, MARK.toLowerCase()])];
  expect(secretsOfA.length).toBeGreaterThan(40);
}, 180_000);

afterAll(async () => {
  await service?.stop();
  await smtp?.stop();
  await new Promise((done) => receiver?.close(done));
  if (listDir) await rm(listDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// Requests generated from a route.

interface Call {
  method: string;
  path: string;
  body?: unknown;
  multipart?: { field: string };
}

/** A request built from fixture values: `a(name)` is A's value (or, for the control request, its counterpart). */
interface Variant {
  label: string;
  /** A's record is in the path: the answer must be the shared 404. */
  inPath: boolean;
  /** Compared with the same request naming records that do not exist. */
  compare: boolean;
  build: (a: (name: string) => string) => Call;
}

const routeName = (route: RestRoute) => `${route.method} ${route.path}`;

function operationVariableType(route: RestRoute, variable: string) {
  const definition = getOperationAST(route.operation)!.variableDefinitions!.find((d) => d.variable.name.value === variable)!;
  return typeFromAST(schema, definition.type as never)!;
}

function fixtureOf(name: string, where: string): string {
  const fixture = REFERENCES[name];
  if (!fixture) throw new Error(`${where}: "${name}" looks like a reference but names no fixture (add it to REFERENCES)`);
  return fixture;
}

function variantsOf(route: RestRoute): Variant[] {
  const name = routeName(route);
  const segments = route.path.split('/');
  const params = segments.flatMap((segment, i) => (/^[:*]/.test(segment) ? [{ segment, key: `${segments[i - 1]}/${segment}`, index: i }] : []));
  for (const param of params) {
    if (!PATH_PARAMS[param.key]) throw new Error(`${name}: path parameter ${param.segment} names no A-owned fixture (add "${param.key}" to PATH_PARAMS)`);
  }
  const pathWith = (value: (fixture: string) => string) =>
    segments.map((segment, i) => {
      const param = params.find((p) => p.index === i);
      if (!param) return segment;
      const raw = value(PATH_PARAMS[param.key]!);
      return segment.startsWith('*') ? raw : encodeURIComponent(raw);
    }).join('/');
  const ownPath = (fixture: string) => {
    if (B[fixture] === undefined) throw new Error(`${name}: needs a record of B for ${fixture} (add it to createFixturesOfB)`);
    return B[fixture]!;
  };

  // The body: a whole input object, or named properties.
  let baseBody: Record<string, unknown> | undefined;
  let multipart: { field: string } | undefined;
  const references: Array<{ label: string; apply: (body: Record<string, unknown> | undefined, a: (name: string) => string) => { body?: Record<string, unknown>; query?: string } }> = [];
  for (const [variable, source] of Object.entries(route.variables)) {
    if (source.from === 'file') multipart = { field: source.name };
    if (source.from === 'query' && looksLikeReference(source.name)) {
      const fixture = fixtureOf(source.name, name);
      references.push({ label: `?${source.name}=A's ${fixture}`, apply: (body, a) => ({ body, query: `${source.name}=${encodeURIComponent(a(fixture))}` }) });
    }
    if (source.from !== 'body') continue;
    baseBody ??= {};
    const type = operationVariableType(route, variable);
    if (!source.name) {
      const input = getNamedType(type) as GraphQLInputObjectType;
      const sample = SAMPLE_INPUTS[input.name];
      if (!sample) throw new Error(`${name}: no sample of ${input.name} (add one to SAMPLE_INPUTS)`);
      Object.assign(baseBody, sample(B));
      for (const field of Object.values(input.getFields())) {
        const fieldType = getNamedType(field.type);
        if (looksLikeReference(field.name)) {
          const fixture = fixtureOf(field.name, `${name} ${input.name}.${field.name}`);
          references.push({ label: `body ${field.name}: A's ${fixture}`, apply: (body, a) => ({ body: { ...body, [field.name]: a(fixture) } }) });
        } else if (isInputObjectType(fieldType)) {
          for (const nested of Object.values(fieldType.getFields()).filter((f) => looksLikeReference(f.name))) {
            const fixture = fixtureOf(nested.name, `${name} ${fieldType.name}.${nested.name}`);
            const nestedSample = SAMPLE_INPUTS[fieldType.name];
            if (!nestedSample) throw new Error(`${name}: no sample of ${fieldType.name} (add one to SAMPLE_INPUTS)`);
            const list = isListType(getNullableType(field.type));
            references.push({
              label: `body ${field.name}.${nested.name}: A's ${fixture}`,
              apply: (body, a) => {
                const item = { ...nestedSample(B), [nested.name]: a(fixture) };
                return { body: { ...body, [field.name]: list ? [item] : item } };
              },
            });
          }
        }
      }
    } else if (looksLikeReference(source.name)) {
      const fixture = fixtureOf(source.name, name);
      if (isNonNullType(type)) baseBody[source.name] = B[fixture];
      references.push({ label: `body ${source.name}: A's ${fixture}`, apply: (body, a) => ({ body: { ...body, [source.name!]: a(fixture) } }) });
    } else if (source.name in SAMPLE_BODY_VALUES) {
      baseBody[source.name] = SAMPLE_BODY_VALUES[source.name];
    } else if (isNonNullType(type)) {
      throw new Error(`${name}: no sample for the body property ${source.name} (add it to SAMPLE_BODY_VALUES)`);
    }
  }

  const variants: Variant[] = [];
  // A's records in the path (with a valid body): the shared 404.
  // Without path parameters: B's own request, for reads (lists) and for writes that reference nothing.
  if (params.length || route.method === 'GET' || !references.length) {
    variants.push({
      label: params.length ? 'A\'s records in the path' : 'B\'s own request',
      inPath: params.length > 0,
      compare: params.length > 0,
      build: (a) => ({ method: route.method, path: pathWith(a), body: baseBody, multipart }),
    });
  }
  // One reference to A at a time, B's own records in the path.
  for (const reference of references) {
    variants.push({
      label: reference.label,
      inPath: false,
      compare: true,
      build: (a) => {
        const { body, query } = reference.apply(baseBody, a);
        return { method: route.method, path: pathWith(ownPath) + (query ? `?${query}` : ''), body, multipart };
      },
    });
  }
  return variants;
}

async function send(call: Call): Promise<HttpResult> {
  if (call.multipart) {
    const form = formWith([{ name: call.multipart.field, data: png(), filename: 'b.png' }]);
    const response = await fetch(service.url + call.path, { method: call.method, headers: { 'x-api-key': orgB.key }, body: form });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }
  return restB(call.method, call.path, call.body);
}

/** A's values the request carries, and their counterparts. */
function substitution(used: string[]) {
  return (value: unknown) => {
    let text = JSON.stringify(value) ?? 'null';
    for (const fixture of used) text = text.replaceAll(A[fixture]!, MISSING[fixture]!);
    return JSON.parse(text);
  };
}

/** A's ids in `response` that B did not send itself. */
function leaks(response: unknown, request: unknown): string[] {
  const text = JSON.stringify(response) ?? '';
  const sent = JSON.stringify(request) ?? '';
  return secretsOfA.filter((secret) => text.includes(secret) && !sent.includes(secret) && !sent.includes(encodeURIComponent(secret)));
}

const NOT_FOUND_SHAPE = { statusCode: 404, message: expect.any(String), error: 'Not Found' };

// ---------------------------------------------------------------------------
// GraphQL: every Query field, with A's ids as arguments.

const isWrapper = (type: GraphQLNamedType) =>
  isObjectType(type) && ['items,meta', 'edges,pageInfo', 'edges,pageInfo,totalCount', 'cursor,node'].includes(Object.keys(type.getFields()).sort().join(','));

/** Every field without required arguments, `depth` records deep (pagination wrappers do not count). */
function selectionOf(type: GraphQLNamedType, depth: number): string {
  if (isUnionType(type)) return '{ __typename }';
  const fields = Object.values((type as GraphQLObjectType).getFields()).filter((field) => !field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined));
  const parts = ['__typename'];
  for (const field of fields) {
    const named = getNamedType(field.type);
    if (isScalarType(named) || isEnumType(named)) parts.push(field.name);
    else if (isWrapper(named)) parts.push(`${field.name} ${selectionOf(named, depth)}`);
    else if (depth > 0 && (isObjectType(named) || isInterfaceType(named) || isUnionType(named))) parts.push(`${field.name} ${selectionOf(named, depth - 1)}`);
  }
  return `{ ${parts.join(' ')} }`;
}

function argumentFixture(field: GraphQLField<unknown, unknown>, arg: GraphQLArgument): string {
  if (arg.name === 'id') {
    const fixture = LOOKUP_IDS[field.name];
    if (!fixture) throw new Error(`Query.${field.name}(id) names no A-owned fixture (add it to LOOKUP_IDS)`);
    return fixture;
  }
  return fixtureOf(arg.name, `Query.${field.name}(${arg.name})`);
}

const queryFields = Object.values(schema.getQueryType()!.getFields());

describe('GraphQL: every Query field, organization B with A\'s ids', () => {
  it.each(queryFields.map((field) => [field.name, field] as const))('Query.%s', async (_name, field) => {
    const required = field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
    const unknown = required.filter((arg) => !looksLikeReference(arg.name) && arg.name !== 'id');
    expect(unknown.map((arg) => arg.name), `Query.${field.name}: required arguments that name no record`).toEqual([]);
    const lookups = required;
    const filters = field.args.filter((arg) => !required.includes(arg) && looksLikeReference(arg.name));
    const selection = isScalarType(getNamedType(field.type)) || isEnumType(getNamedType(field.type)) ? '' : selectionOf(getNamedType(field.type), 2);
    const run = (args: GraphQLArgument[], values: Record<string, string>) => {
      const definitions = args.map((arg) => `$${arg.name}: ${arg.type}`).join(', ');
      const call = args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
      const document = `query${definitions ? ` (${definitions})` : ''} { ${field.name}${call ? `(${call})` : ''} ${selection} }`;
      return gqlB(document, values);
    };
    const cases: Array<{ args: GraphQLArgument[]; lookup: boolean }> = lookups.length
      ? [{ args: lookups, lookup: true }]
      : [{ args: [], lookup: false }, ...filters.map((arg) => ({ args: [arg], lookup: false }))];
    for (const { args, lookup } of cases) {
      const fixtures = args.map((arg) => argumentFixture(field, arg));
      const foreignValues = Object.fromEntries(args.map((arg, i) => [arg.name, A[fixtures[i]!]!]));
      const foreign: GraphQLResult = await run(args, foreignValues);
      const context = `Query.${field.name}(${JSON.stringify(foreignValues)}) → ${JSON.stringify(foreign).slice(0, 500)}`;
      expect(foreign.status, context).toBeLessThan(500);
      expect(leaks(foreign, foreignValues), context).toEqual([]);
      if (lookup) {
        if (isNonNullType(field.type)) {
          expect(foreign.errors?.[0]?.extensions?.code, context).toBe('NOT_FOUND');
          expect(foreign.data ?? null, context).toBeNull();
        } else {
          expect(foreign.data?.[field.name] ?? null, context).toBeNull();
        }
      } else if (!args.length) {
        expect(foreign.errors, context).toBeUndefined();
      }
      if (args.length) {
        const absent = await run(args, Object.fromEntries(args.map((arg, i) => [arg.name, MISSING[fixtures[i]!]!])));
        expect(substitution(fixtures)(foreign), context).toEqual(absent);
      }
    }
  });
});

// ---------------------------------------------------------------------------
// REST (after GraphQL, which only reads).

describe('REST: every route, organization B with A\'s ids', () => {
  // Reads first, deletions last: a deletion that wrongly succeeded must not hide what the other routes would show.
  const ordered = [...routes].sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
  it.each(ordered.map((route) => [routeName(route), route] as const))('%s', async (_name, route) => {
    const variants = variantsOf(route);
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of variants) {
      const used = new Set<string>();
      const foreignCall = variant.build((fixture) => {
        if (A[fixture] === undefined) throw new Error(`${routeName(route)}: organization A has no ${fixture} (create one in createFixturesOfA)`);
        used.add(fixture);
        return A[fixture]!;
      });
      const foreign = await send(foreignCall);
      const context = `${variant.label}: ${foreignCall.method} ${foreignCall.path} → ${foreign.status} ${JSON.stringify(foreign.body)}`;
      expect(foreign.status, context).toBeLessThan(500);
      expect(leaks(foreign.body, foreignCall), context).toEqual([]);
      if (variant.inPath) {
        expect(foreign.status, context).toBe(404);
        expect(foreign.body, context).toStrictEqual(NOT_FOUND_SHAPE);
      }
      if (variant.compare) {
        const absentCall = variant.build((fixture) => MISSING[fixture]!);
        const absent = await send(absentCall);
        expect({ status: foreign.status, body: substitution([...used])(foreign.body) }, context).toEqual({ status: absent.status, body: absent.body });
      }
    }
  });
});

// ---------------------------------------------------------------------------

describe('A\'s data', () => {
  it('is exactly as before: every row of every organization table, the audit trail included', async () => {
    const after = await snapshotA();
    expect(after.audit_events?.length).toBe(before.audit_events?.length);
    expect(before.audit_events?.length).toBeGreaterThan(10);
    expect(after).toEqual(before);
  });
});

/** `Type.field` at the end of a response path (list indexes skipped). */
function fieldAt(path: ReadonlyArray<string | number>): string {
  let type: GraphQLNamedType = schema.getQueryType()!;
  let last = '';
  for (const segment of path) {
    if (typeof segment === 'number') continue;
    const field: GraphQLField<unknown, unknown> = (type as GraphQLObjectType).getFields()[segment]!;
    last = `${type.name}.${segment}`;
    type = getNamedType(field.type);
  }
  return last;
}

/** The shortest chain of fields from `from` to a field `type.field`, none of them guarded by `permission`. */
function chainTo(from: GraphQLNamedType, type: string, permission: string): string[] | undefined {
  const queue: Array<[GraphQLNamedType, string[]]> = [[from, []]];
  const seen = new Set([from.name]);
  while (queue.length) {
    const [current, chain] = queue.shift()!;
    if (current.name === type) return chain;
    if (!isObjectType(current) && !isInterfaceType(current)) continue;
    for (const field of Object.values(current.getFields())) {
      const next = getNamedType(field.type);
      if (seen.has(next.name) || declaredPermission(field) === permission || field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) continue;
      if (!isObjectType(next) && !isInterfaceType(next)) continue;
      seen.add(next.name);
      queue.push([next, [...chain, field.name]]);
    }
  }
  return undefined;
}

// Last: it adds keys to A (A's rows change).
describe('nested fields that cross into another resource', () => {
  // Every guarded field below the root (e.g. Task.consumerCase: consumer_cases:read).
  const guarded = Object.values(schema.getTypeMap())
    .filter((type) => !type.name.startsWith('__') && (isObjectType(type) || isInterfaceType(type)) && type !== schema.getQueryType() && type !== schema.getMutationType())
    .flatMap((type) => Object.values((type as GraphQLObjectType).getFields()).flatMap((field) => {
      const permission = declaredPermission(field);
      return permission ? [[`${type.name}.${field.name}`, permission] as [string, string]] : [];
    }));

  it.each(guarded)('%s is refused to a key of A without %s', async (guardedField, permission) => {
    const [typeName, fieldName] = guardedField.split('.') as [string, string];
    const key = await createKey(service.db, orgA.id, ALL_PERMISSIONS.filter((p) => p !== permission) as Permission[]);
    const gql = graphqlClient(service.url, key);
    // From some Query field that A's records (or lists) make reach the field.
    const tried: string[] = [];
    for (const root of queryFields) {
      if (declaredPermission(root) === permission) continue;
      const required = root.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
      const fixtures = required.map((arg) => (arg.name === 'id' ? LOOKUP_IDS[root.name] : REFERENCES[arg.name]));
      if (fixtures.some((fixture) => !fixture || A[fixture] === undefined)) continue;
      const chain = chainTo(getNamedType(root.type), typeName, permission);
      if (!chain) continue;
      const call = required.map((arg, i) => `${arg.name}: ${JSON.stringify(A[fixtures[i]!])}`).join(', ');
      const document = `{ ${root.name}${call ? `(${call})` : ''} ${[...chain, fieldName].map((name) => `{ ${name} `).join('')}{ __typename }${' }'.repeat(chain.length + 1)} }`;
      const result = await gql(document);
      tried.push(`${document} → ${JSON.stringify(result.errors ?? result.data)}`);
      const refused = (result.errors ?? []).filter((e) => e.extensions?.code === 'FORBIDDEN' && fieldAt(e.path ?? []) === guardedField);
      if (refused.length) {
        expect(refused[0]!.message).toBe(`Forbidden: this API key lacks the permission ${permission}`);
        return;
      }
    }
    expect.fail(`${guardedField} was never refused; tried:\n${tried.join('\n')}`);
  });
});
