import { getOperationAST, type GraphQLSchema, Kind, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context.ts';
import { releaseTenantSession } from './request-scope.ts';

/**
 * Whether every root field of a query only reads. A few legacy query fields
 * record work they do (`extensions: { writes: true }`, e.g. parseDocument);
 * root fragments are not inspected, so they count as writing.
 */
function onlyReads(schema: GraphQLSchema, operation: OperationDefinitionNode) {
  const fields = schema.getQueryType()?.getFields() ?? {};
  return operation.selectionSet.selections.every(
    (selection) => selection.kind === Kind.FIELD && !fields[selection.name.value]?.extensions?.writes,
  );
}

/**
 * Query operations (GraphQL queries, REST GETs) run all their database reads
 * in one transaction on the request's tenant session (src/db/tenant.ts
 * SharedReadTransaction), opened by the first read and ended once the result
 * is complete. Mutations
 * (and queries with a field that writes) keep a transaction per statement:
 * their jobs and events must see each write committed as soon as it is made.
 */
export function useSharedReadTransaction(): Plugin<Context> {
  return {
    onExecute({ args }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'query' || !onlyReads(args.schema, operation)) {
        // Writes run in transactions of their own (committed at once for jobs and events): the session is not needed.
        releaseTenantSession();
        return;
      }
      const { readTransaction } = args.contextValue as Context;
      readTransaction.active = true;
      return {
        onExecuteDone() {
          readTransaction.close();
        },
      };
    },
  };
}
