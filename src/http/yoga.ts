import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { authenticate } from '../auth/api-keys.ts';
import type { Context } from '../context.ts';
import type { Database } from '../db/client.ts';
import { forOrganization } from '../db/tenant.ts';
import { unauthenticated } from '../errors.ts';
import { createMaskError } from './mask-error.ts';
import { currentRequestId } from './request-scope.ts';

export type GraphQLServer = YogaServerInstance<Record<string, unknown>, Context>;

const DEFAULT_QUERY = `# Put your key in the Headers tab: {"X-API-Key": "cpk_..."}
query RecentConsumerCases {
  consumerCases(limit: 5) {
    items { id email firstName lastName status createdAt }
    meta { total page limit totalPages }
  }
}
`;

/**
 * The GraphQL pipeline. REST requests run through it too (rest/adapter.ts),
 * so authentication, organization scoping and error masking happen once.
 */
export function createGraphQLServer(options: { schema: GraphQLSchema; db: Database; logger: Logger }): GraphQLServer {
  const { schema, db, logger } = options;
  return createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'Compliance platform GraphQL', defaultQuery: DEFAULT_QUERY, headers: '{"X-API-Key": ""}' },
    logging: {
      debug: (...args) => logger.debug(args.map(String).join(' ')),
      info: (...args) => logger.info(args.map(String).join(' ')),
      warn: (...args) => logger.warn(args.map(String).join(' ')),
      // yoga reports every error it rewrites; client errors are not faults,
      // and unexpected ones were already logged by the error mapper.
      error: (...args) =>
        args[0] instanceof GraphQLError ? logger.debug(String(args[0])) : logger.error(args.map(String).join(' ')),
    },
    maskedErrors: { maskError: createMaskError(schema, logger) },
    // Authentication is per request, before any field runs: a missing or
    // unknown key is a 401 for the whole operation.
    context: async ({ request }): Promise<Context> => {
      const apiKey = await authenticate(db, request.headers.get('x-api-key'));
      if (!apiKey) throw unauthenticated();
      return { requestId: currentRequestId() ?? '', apiKey, db: forOrganization(db, apiKey.organizationId) };
    },
  });
}
