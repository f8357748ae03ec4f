import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { type AuthFailure, AuthScopeFailureType } from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import type { Permission } from './auth/permissions.ts';
import type { Context } from './context.ts';
import { forbidden, invalidInput } from './errors.ts';
import type PrismaTypes from './generated/pothos-types.ts';
import { getDatamodel } from './generated/pothos-types.ts';
import { formatIssues } from './domain/validation.ts';
import { PAGE_ITEMS } from './schema/cost.ts';

/** The permission named by the first failed `permission` scope, if any. */
function missingPermission(failure: AuthFailure): string | null {
  if (failure.kind === AuthScopeFailureType.AuthScope && failure.scope === 'permission') return String(failure.parameter);
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    for (const child of failure.failures) {
      const found = missingPermission(child);
      if (found) return found;
    }
  }
  return null;
}

interface BuilderTypes {
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { permission: Permission };
  DefaultFieldNullability: false;
  Scalars: {
    ID: { Input: string; Output: string };
    Date: { Input: Date; Output: Date };
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    /** graphql-upload-minimal resolves it to the file part. */
    Upload: { Input: Promise<unknown>; Output: never };
  };
}

export const builder = new SchemaBuilder<BuilderTypes>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, RelayPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (context) => ({
      permission: (permission) => context.apiKey.permissions.has(permission),
    }),
    unauthorizedError: (_parent, _context, _info, result) => {
      const needed = missingPermission(result.failure);
      return forbidden(needed ? `Forbidden: this API key lacks the permission ${needed}` : 'Forbidden');
    },
  },
  prisma: {
    client: (context) => context.db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // A connection field counts its page size (src/http/operation-cost.ts).
    edgesFieldOptions: { extensions: PAGE_ITEMS },
  },
  validation: {
    validationError: (result) => invalidInput(formatIssues(result.issues)),
  },
});

builder.queryType();
builder.mutationType();

/** The resolved schema types, for helpers that take refs generically. */
export type Types = PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>;
