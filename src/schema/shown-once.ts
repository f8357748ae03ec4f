import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getNamedType,
  getOperationAST,
  type GraphQLSchema,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';

/**
 * Fields whose value is shown once and never kept (onboarding link tokens,
 * webhook signing secrets) declare `extensions: { shownOnce: true }`. A copy
 * of a result that is kept (an idempotent replay) has them set to null.
 */
export const SHOWN_ONCE = { shownOnce: true } as const;

/** A copy of `data` without the values of shown-once fields the operation selected. */
export function withoutShownOnce(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, data: Record<string, unknown>) {
  const operation = getOperationAST(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return data;
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const copy = structuredClone(data);

  const visit = (typeName: string, selections: SelectionSetNode, value: unknown): void => {
    if (Array.isArray(value)) return value.forEach((item) => visit(typeName, selections, item));
    const type = schema.getType(typeName);
    if (!value || typeof value !== 'object' || !isObjectType(type)) return;
    const object = value as Record<string, unknown>;
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        const field = type.getFields()[selection.name.value];
        const key = selection.alias?.value ?? selection.name.value;
        if (!field || !(key in object)) continue;
        if (field.extensions?.shownOnce) object[key] = null;
        else if (selection.selectionSet) visit(getNamedType(field.type).name, selection.selectionSet, object[key]);
      } else {
        const set = selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : fragments.get(selection.name.value)?.selectionSet;
        const condition = selection.kind === Kind.INLINE_FRAGMENT ? selection.typeCondition?.name.value : fragments.get(selection.name.value)?.typeCondition.name.value;
        // Abstract results carry their concrete type only when asked; object types are visited as themselves.
        if (set) visit(condition && schema.getType(condition) && isObjectType(schema.getType(condition)) ? condition : typeName, set, value);
      }
    }
  };
  visit(root.name, operation.selectionSet, copy);
  return copy;
}
