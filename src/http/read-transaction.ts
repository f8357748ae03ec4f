import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context.ts';

/**
 * Query operations (GraphQL queries, REST GETs) run all their database reads
 * in one read-only tenant transaction (src/db/tenant.ts SharedReadTransaction),
 * opened by the first read and ended once the result is complete. Mutations
 * keep a transaction per statement: their jobs and events must see each
 * write committed as soon as it is made.
 */
export function useSharedReadTransaction(): Plugin<Context> {
  return {
    onExecute({ args }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      const { readTransaction } = args.contextValue as Context;
      readTransaction.active = true;
      return {
        onExecuteDone() {
          // The answer does not wait for the COMMIT of a transaction that wrote nothing.
          void readTransaction.close();
        },
      };
    },
  };
}
