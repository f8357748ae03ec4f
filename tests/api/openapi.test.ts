// The OpenAPI description: complete (every route of the table), public, in
// step with the committed copy, and true: real responses validate against it.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routePermission } from '../../rest/adapter.ts';
import { routes } from '../../rest/routes.ts';
import { schema } from '../../src/schema/index.ts';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { createOrganization, startTestService } from '../helpers/service.ts';

let service: RunningService;
let document: any;

beforeAll(async () => {
  service = await startTestService();
  const response = await fetch(`${service.url}/v1/openapi.json`);
  expect(response.status).toBe(200);
  document = await response.json();
});
afterAll(() => service?.stop());

/** Checks a body against the schema documented for that path, method and status. */
function validate(path: string, method: string, status: number, body: unknown) {
  const response = document.paths[path][method].responses[String(status)];
  const bodySchema = response.content['application/json'].schema;
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  ajv.addFormat('binary', /.*/);
  const check = ajv.compile({ ...bodySchema, components: document.components });
  const valid = check(body);
  return valid ? [] : check.errors!.map((error) => `${error.instancePath} ${error.message}`);
}

describe('GET /v1/openapi.json', () => {
  it('describes every route of the table with its permission, without a key', () => {
    expect(document.openapi).toBe('3.1.0');
    const described = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`));
    expect(described.sort()).toEqual(routes.map((route) => `${route.method} ${route.path.replace(/[:*](\w+)/g, '{$1}')}`).sort());
    for (const route of routes) {
      const operation = document.paths[route.path.replace(/[:*](\w+)/g, '{$1}')][route.method.toLowerCase()];
      expect(operation['x-permission']).toBe(routePermission(schema, route));
    }
    expect(document.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('matches the committed rest/openapi.json (run npm run openapi:print after changes)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../rest/openapi.json', import.meta.url), 'utf8'));
    expect(document).toEqual(committed);
  });

  it('is what the API answers: real responses validate against their documented schemas', async () => {
    const org = await createOrganization(service.db);
    const rest = restClient(service.url, org.key);
    const created = await rest('POST', '/v1/consumer-cases', {
      email: 'openapi@example.com', firstName: 'Open', dateOfBirth: '1990-01-01', address: { line1: '1 Spec Road', city: 'Berlin', country: 'DE' },
    });
    expect(validate('/v1/consumer-cases', 'post', 201, created.body)).toEqual([]);
    expect(validate('/v1/consumer-cases', 'get', 200, (await rest('GET', '/v1/consumer-cases')).body)).toEqual([]);
    expect(validate('/v1/consumer-cases/{id}', 'get', 200, (await rest('GET', `/v1/consumer-cases/${created.body.id}`)).body)).toEqual([]);
    const task = await rest('POST', '/v1/tasks', { title: 'Check the spec', consumerCaseId: created.body.id, priority: 'HIGH' });
    expect(validate('/v1/tasks', 'post', 201, task.body)).toEqual([]);
    expect(validate('/v1/tasks', 'get', 200, (await rest('GET', '/v1/tasks')).body)).toEqual([]);
    const business = await rest('POST', '/v1/business-cases', { legalName: 'Spec GmbH', jurisdictionCountry: 'DE' });
    expect(validate('/v1/business-cases', 'post', 201, business.body)).toEqual([]);
    expect(validate('/v1/screening-settings', 'get', 200, (await rest('GET', '/v1/screening-settings')).body)).toEqual([]);
    const missing = await rest('GET', '/v1/consumer-cases/00000000-0000-0000-0000-000000000000');
    expect(validate('/v1/consumer-cases/{id}', 'get', 404, missing.body)).toEqual([]);
    // And the check can fail: a body that breaks the schema is caught.
    expect(validate('/v1/consumer-cases/{id}', 'get', 200, { ...created.body, status: 'SOMETHING' })).not.toEqual([]);
  });
});

describe('GET /docs', () => {
  it('serves a browsable page over the description, with its assets from the package', async () => {
    const page = await fetch(`${service.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/docs/swagger-ui-bundle.js');
    for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/init.js']) {
      expect((await fetch(`${service.url}${asset}`)).status).toBe(200);
    }
    expect(await (await fetch(`${service.url}/docs/init.js`)).text()).toContain("url: '/v1/openapi.json'");
  });
});
