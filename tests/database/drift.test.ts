// The migrated database must match prisma/schema.prisma. Prisma's own drift
// check (`migrate diff`) needs its native engine, which is not available
// offline, so this compares the full datamodel (written by
// scripts/dmmf-generator.mjs) with PostgreSQL's catalog.
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { readCatalog } from '../helpers/catalog.ts';

interface Field {
  name: string; dbName?: string | null; kind: string; type: string; isList: boolean; isRequired: boolean;
  nativeType?: [string, string[]] | null; default?: unknown; hasDefaultValue: boolean; isUpdatedAt: boolean;
  relationFromFields?: string[]; relationToFields?: string[]; relationOnDelete?: string; relationOnUpdate?: string;
}
interface Model { name: string; dbName: string | null; fields: Field[] }
interface Datamodel {
  models: Model[];
  enums: Array<{ name: string; dbName?: string | null; values: Array<{ name: string; dbName: string | null }> }>;
  indexes: Array<{ model: string; type: 'id' | 'unique' | 'normal' | 'fulltext'; dbName?: string; algorithm?: string; fields: Array<{ name: string; sortOrder?: 'asc' | 'desc'; operatorClass?: string }> }>;
}

const datamodel: Datamodel = JSON.parse(readFileSync(new URL('../../src/generated/datamodel.json', import.meta.url), 'utf8'));
const tableOf = (model: Model) => model.dbName ?? model.name;
const columnOf = (field: Field) => field.dbName ?? field.name;
const modelNamed = (name: string) => datamodel.models.find((m) => m.name === name)!;

const SCALAR_TYPES: Record<string, string> = {
  String: 'text', Int: 'int4', BigInt: 'int8', Float: 'float8', Boolean: 'bool',
  DateTime: 'timestamp', Json: 'jsonb', Decimal: 'numeric', Bytes: 'bytea',
};
const NATIVE_TYPES: Record<string, string> = { Uuid: 'uuid', Date: 'date', Char: 'bpchar', Timestamptz: 'timestamptz', Text: 'text' };

function expectedColumn(field: Field) {
  const base = field.kind === 'enum' ? field.type : field.nativeType ? NATIVE_TYPES[field.nativeType[0]] : SCALAR_TYPES[field.type];
  const args = field.nativeType?.[1] ?? [];
  const precision = field.type === 'DateTime' && field.nativeType?.[0] !== 'Date' ? Number(args[0] ?? 3) : null;
  const clientSideDefault =
    typeof field.default === 'object' && field.default !== null && ['uuid', 'cuid', 'nanoid', 'ulid'].includes((field.default as { name: string }).name);
  return {
    udt: field.isList ? `_${base}` : base,
    nullable: !field.isRequired || field.isList,
    length: field.nativeType?.[0] === 'Char' ? Number(args[0]) : null,
    precision,
    hasDefault: field.hasDefaultValue && !clientSideDefault,
  };
}

const ACTIONS: Record<string, string> = { Cascade: 'c', Restrict: 'r', NoAction: 'a', SetNull: 'n', SetDefault: 'd' };

describe('migrations vs schema.prisma', async () => {
  const catalog = await readCatalog(inject('databaseUrl'));

  it('has exactly the modelled tables and columns, with matching types, nullability and defaults', () => {
    const expected: Record<string, unknown> = {};
    for (const model of datamodel.models) {
      for (const field of model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum')) {
        expected[`${tableOf(model)}.${columnOf(field)}`] = expectedColumn(field);
      }
    }
    const actual: Record<string, unknown> = {};
    for (const column of catalog.columns) {
      actual[`${column.table_name}.${column.column_name}`] = {
        udt: column.udt_name,
        nullable: column.is_nullable === 'YES',
        length: column.udt_name === 'bpchar' ? column.character_maximum_length : null,
        precision: column.udt_name.startsWith('timestamp') ? column.datetime_precision : null,
        hasDefault: column.column_default !== null,
      };
    }
    expect(actual).toEqual(expected);
  });

  it('has exactly the modelled enums, values in order', () => {
    const expected = Object.fromEntries(datamodel.enums.map((e) => [e.dbName ?? e.name, e.values.map((v) => v.dbName ?? v.name)]));
    const actual = Object.fromEntries(catalog.enums.map((e) => [e.name, e.values]));
    expect(actual).toEqual(expected);
  });

  it('has exactly the modelled primary keys and indexes', () => {
    const expected = datamodel.indexes
      .filter((index) => index.type !== 'fulltext')
      .map((index) => {
        const model = modelNamed(index.model);
        const columns = index.fields.map((f) => {
          const field = model.fields.find((candidate) => candidate.name === f.name)!;
          return `${columnOf(field)}${f.sortOrder === 'desc' ? ' DESC' : ''}${f.operatorClass ? ` ${f.operatorClass}` : ''}`;
        });
        const kind = index.type === 'id' ? 'primary' : index.type === 'unique' ? 'unique' : 'index';
        return `${tableOf(model)} ${kind} ${(index.algorithm ?? 'btree').toLowerCase()} (${columns.join(', ')})`;
      })
      .sort();
    const actual = catalog.indexes
      .map((index) => {
        const columns = index.columns.map(
          (column, i) => `${column}${index.descending[i] ? ' DESC' : ''}${index.opclasses[i] ? ` ${index.opclasses[i]}` : ''}`,
        );
        const kind = index.primary ? 'primary' : index.unique ? 'unique' : 'index';
        return `${index.table} ${kind} ${index.method} (${columns.join(', ')})`;
      })
      .sort();
    expect(actual).toEqual(expected);
  });

  it('has exactly the modelled foreign keys with their referential actions', () => {
    const expected = datamodel.models
      .flatMap((model) =>
        model.fields
          .filter((field) => field.kind === 'object' && field.relationFromFields?.length)
          .map((field) => {
            const target = modelNamed(field.type);
            const from = field.relationFromFields!.map((name) => columnOf(model.fields.find((f) => f.name === name)!));
            const to = field.relationToFields!.map((name) => columnOf(target.fields.find((f) => f.name === name)!));
            const onDelete = field.relationOnDelete ?? (field.isRequired ? 'Restrict' : 'SetNull');
            const onUpdate = field.relationOnUpdate ?? 'Cascade';
            return `${tableOf(model)}(${from}) -> ${tableOf(target)}(${to}) delete:${ACTIONS[onDelete]} update:${ACTIONS[onUpdate]}`;
          }),
      )
      .sort();
    const actual = catalog.foreignKeys
      .map((fk) => `${fk.table}(${fk.columns}) -> ${fk.referenced_table}(${fk.referenced_columns}) delete:${fk.on_delete} update:${fk.on_update}`)
      .sort();
    expect(actual).toEqual(expected);
  });
});
