import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import type { Permission } from './auth/permissions.ts';
import type { Context } from './context.ts';
import { forbidden, invalidInput } from './errors.ts';
import type PrismaTypes from './generated/pothos-types.ts';
import { getDatamodel } from './generated/pothos-types.ts';
import { formatIssues } from './domain/validation.ts';

interface BuilderTypes {
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { permission: Permission };
  DefaultFieldNullability: false;
  Scalars: {
    ID: { Input: string; Output: string };
    Date: { Input: Date; Output: Date };
    DateTime: { Input: Date; Output: Date };
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
      const failure = result.failure;
      const needed = failure.kind === 'AuthScope' && failure.scope === 'permission' ? String(failure.parameter) : null;
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
  },
  validation: {
    validationError: (result) => invalidInput(formatIssues(result.issues)),
  },
});

builder.queryType();
builder.mutationType();

/** The resolved schema types, for helpers that take refs generically. */
export type Types = PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>;
