import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  type GraphQLCompositeType,
  type GraphQLField,
  GraphQLError,
  GraphQLIncludeDirective,
  type GraphQLSchema,
  GraphQLSkipDirective,
  isCompositeType,
  Kind,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

/** One field the operation would run, as the walk meets it. */
export interface SelectedField {
  definition: GraphQLField<unknown, unknown>;
  /** The type the field is selected on. */
  parent: GraphQLCompositeType;
  node: FieldNode;
  /** Where it is in the answer (response names). */
  path: string[];
  /** Its arguments, coerced, defaults applied. */
  args: Record<string, unknown>;
}

/** The operation has more selections (fields and fragments, counted each time a fragment is spread) than `maxFields`. */
export class TooManyFields extends Error {}

/**
 * A field's argument does not coerce (null from a variable with a default
 * into a required argument). Execution would fail only that field and run
 * the rest unchecked, so the whole operation is refused before it runs.
 */
export class InvalidArguments extends Error {}

export interface OperationInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: unknown;
}

/**
 * Walks the fields an operation would run (fragments expanded where they are
 * spread, @skip and @include applied, variables and arguments coerced as
 * execution coerces them), depth first: `visit` gets each field and a
 * function that walks what is selected below it and sums what `visit`
 * answered there. Answers the sum over the root fields; undefined when the
 * operation or its variables are not valid (execution refuses those before
 * any resolver runs). Throws TooManyFields past `maxFields`, InvalidArguments
 * when a field's argument does not coerce (null from a variable with a
 * default into a required argument): execution would fail only that field.
 */
export function walkOperation(input: OperationInput, maxFields: number, visit: (field: SelectedField, below: () => number) => number): number | undefined {
  const { schema, document } = input;
  const operation = getOperationAST(document, input.operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return undefined;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], (input.variableValues ?? {}) as Record<string, unknown>);
  // Variables that do not coerce: execution refuses the whole operation before any resolver runs.
  if (coerced.errors) return undefined;
  const variables = coerced.coerced;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  let fields = 0;

  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true && getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;

  const walk = (selectionSet: SelectionSetNode, parent: GraphQLCompositeType, path: string[]): number => {
    let sum = 0;
    for (const selection of selectionSet.selections) {
      if (!included(selection)) continue;
      // Fragments count too: a cycle (refused by validation before this runs) could not loop for long.
      if (++fields > maxFields) throw new TooManyFields();
      if (selection.kind === Kind.FIELD) {
        const definition = 'getFields' in parent ? parent.getFields()[selection.name.value] : undefined;
        if (!definition) continue; // __typename, introspection: nothing to count
        const at = [...path, selection.alias?.value ?? selection.name.value];
        const named = getNamedType(definition.type);
        const below = () => (selection.selectionSet && isCompositeType(named) ? walk(selection.selectionSet, named, at) : 0);
        sum += visit({ definition, parent, node: selection, path: at, args: getArgumentValues(definition, selection, variables) }, below);
      } else {
        const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
        const condition = fragment?.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
        if (fragment && condition && isCompositeType(condition)) sum += walk(fragment.selectionSet, condition, path);
      }
    }
    return sum;
  };
  try {
    return walk(operation.selectionSet, root, []);
  } catch (error) {
    if (error instanceof GraphQLError) throw new InvalidArguments(error.message);
    throw error;
  }
}
