import type { GraphQLField, GraphQLSchema } from 'graphql';

/** The `permission` scope a schema field declares (Pothos keeps field options in extensions). */
export function declaredPermission(field: GraphQLField<unknown, unknown>): string | undefined {
  const options = field.extensions?.pothosOptions as { authScopes?: { permission?: string } } | undefined;
  return options?.authScopes?.permission;
}

/** Every root field with the permission it declares (undefined when none). */
export function rootFieldPermissions(schema: GraphQLSchema) {
  return [schema.getQueryType(), schema.getMutationType()].flatMap((type) =>
    type ? Object.values(type.getFields()).map((field) => ({ type: type.name, field: field.name, permission: declaredPermission(field) })) : [],
  );
}
