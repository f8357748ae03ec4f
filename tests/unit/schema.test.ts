import { readdirSync, readFileSync } from 'node:fs';
import { parse, printSchema, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { routePermission } from '../../rest/adapter.ts';
import { routes } from '../../rest/routes.ts';
import { rootFieldPermissions } from '../../src/auth/field-permission.ts';
import { isPermission } from '../../src/auth/permissions.ts';
import { schema } from '../../src/schema/index.ts';

describe('GraphQL schema', () => {
  it('matches the committed graphql/schema.graphql (run npm run schema:print after changes)', () => {
    const committed = readFileSync(new URL('../../graphql/schema.graphql', import.meta.url), 'utf8');
    expect(`${printSchema(schema)}\n`).toBe(committed);
  });

  it('declares a known permission on every root field', () => {
    const fields = rootFieldPermissions(schema);
    expect(fields.length).toBeGreaterThan(10);
    const missing = fields.filter((f) => !f.permission || !isPermission(f.permission));
    expect(missing).toEqual([]);
  });

  it('has a valid named operation behind every REST route, each with a permission', () => {
    for (const route of routes) {
      expect(validate(schema, route.operation)).toEqual([]);
      expect(isPermission(routePermission(schema, route))).toBe(true);
    }
  });

  it('keeps the operation documents valid against the schema', () => {
    const dir = new URL('../../graphql/operations/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.graphql'));
    const document = parse(files.map((f) => readFileSync(new URL(f, dir), 'utf8')).join('\n'));
    expect(validate(schema, document)).toEqual([]);
  });
});
