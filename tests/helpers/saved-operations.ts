import { type DocumentNode, getNamedType, type GraphQLInputType, type GraphQLSchema, isEnumType, isInputObjectType, isListType, isNonNullType, Kind, type OperationDefinitionNode, typeFromAST } from 'graphql';
import { Upload } from 'graphql-upload-minimal';
import * as generated from '../../graphql/generated/operations.ts';
import { MAX_PAGE_SIZE } from '../../src/schema/pagination.ts';

/** Every saved operation (graphql/operations, as codegen compiled them): name and document. */
export const savedOperations = Object.entries(generated)
  .filter((entry): entry is [string, DocumentNode] => (entry[1] as DocumentNode)?.kind === Kind.DOCUMENT)
  .flatMap(([, document]) => {
    // Fragments are exported too: only documents with an operation are operations.
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    return operation ? [{ name: operation.name!.value, operation, document }] : [];
  });

const SCALARS: Record<string, () => unknown> = {
  ID: () => '00000000-0000-4000-8000-000000000000',
  String: () => 'x',
  Int: () => 1,
  Float: () => 1,
  Boolean: () => true,
  Date: () => '2020-01-01',
  DateTime: () => '2020-01-01T00:00:00Z',
  JSON: () => ({}),
  Upload: () => new Upload(),
};

/** A value of an input type that coerces: required fields filled in, optional ones left out. */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  const named = getNamedType(type);
  if (isEnumType(named)) return named.getValues()[0]!.value;
  if (isInputObjectType(named)) {
    return Object.fromEntries(Object.values(named.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, sample(f.type)]));
  }
  return SCALARS[named.name]!();
}

const PAGE_SIZE_VARIABLES = new Set(['limit', 'first', 'last']);

/** Variables for an operation at its largest: page sizes at their maximum, every other variable given a valid value. */
export function largestVariables(schema: GraphQLSchema, operation: OperationDefinitionNode): Record<string, unknown> {
  return Object.fromEntries((operation.variableDefinitions ?? []).map((definition) => {
    const name = definition.variable.name.value;
    if (PAGE_SIZE_VARIABLES.has(name)) return [name, MAX_PAGE_SIZE];
    return [name, sample(typeFromAST(schema, definition.type as never) as GraphQLInputType)];
  }));
}
