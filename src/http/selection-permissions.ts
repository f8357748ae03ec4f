import { type GraphQLField, getNamedType } from 'graphql';
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
 * The permission a selected field needs, on itself or on the type it
 * returns, that the key lacks. Checked for every field an operation selects
 * before it runs (src/http/operation-limits.ts), so a mutation never runs and
 * then fails on a field below it.
 */
export function missingPermission(field: GraphQLField<unknown, unknown>, held: ReadonlySet<Permission>): string | undefined {
  return [declaredPermission(field), typePermission(field)].find((permission) => permission && !held.has(permission as Permission));
}
