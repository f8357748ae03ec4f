import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getDirectiveValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isCompositeType,
  Kind,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { declaredPermission } from '../auth/field-permission.ts';
import type { Permission } from '../auth/permissions.ts';

/** A selected field the key may not run, where it is in the answer, and the permission it needs. */
export interface RefusedField {
  path: string[];
  permission: string;
}

/** The `permission` scope a type declares (Pothos keeps type options in extensions), if any. */
function typePermission(field: GraphQLField<unknown, unknown>): string | undefined {
  const options = getNamedType(field.type).extensions?.pothosOptions as { authScopes?: { permission?: string } } | undefined;
  return options?.authScopes?.permission;
}

/**
 * Every field the operation selects (fragments included, @skip and @include
 * applied) that declares a permission the key lacks, on itself or on the type
 * it returns: found before execution, so a mutation never runs and then fails
 * on a field below it. Undefined when the variables do not coerce (execution
 * refuses those before any resolver). Run after the field count limit, which
 * bounds how often fragments repeat.
 */
export function refusedFields(
  args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; variableValues?: unknown },
  held: ReadonlySet<Permission>,
): RefusedField[] | undefined {
  const { schema, document } = args;
  const operation = getOperationAST(document, args.operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return [];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], (args.variableValues ?? {}) as Record<string, unknown>);
  if (coerced.errors) return undefined;
  const variables = coerced.coerced;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const refused: RefusedField[] = [];

  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true && getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;

  const walk = (selectionSet: SelectionSetNode, type: GraphQLCompositeType, path: string[]) => {
    for (const selection of selectionSet.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const field = 'getFields' in type ? type.getFields()[selection.name.value] : undefined;
        if (!field) continue; // __typename and the like
        const at = [...path, selection.alias?.value ?? selection.name.value];
        const permission = [declaredPermission(field), typePermission(field)].find((p) => p && !held.has(p as Permission));
        if (permission) refused.push({ path: at, permission });
        const named = getNamedType(field.type);
        if (selection.selectionSet && isCompositeType(named)) walk(selection.selectionSet, named, at);
      } else {
        const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
        if (!fragment) continue;
        const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : type;
        if (condition && isCompositeType(condition)) walk(fragment.selectionSet, condition, path);
      }
    }
  };
  walk(operation.selectionSet, root, []);
  return refused;
}
