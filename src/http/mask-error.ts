import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { AppError, conflict, GENERIC_SERVER_ERROR, notFound } from '../errors.ts';
import { databaseRefusal } from '../db/unavailable.ts';
import { describeVariableError } from './input-errors.ts';

interface PrismaKnownError {
  name: 'PrismaClientKnownRequestError';
  code: string;
}

function isPrismaKnownError(error: unknown): error is PrismaKnownError {
  return error instanceof Error && error.name === 'PrismaClientKnownRequestError' && 'code' in error;
}

/** Maps a Prisma failure the client can cause to a typed error; null for real faults. */
function fromPrisma(error: PrismaKnownError): AppError | null {
  switch (error.code) {
    case 'P2025': // a row vanished between check and write (concurrent delete)
      return notFound('Not found');
    case 'P2002':
      return conflict('A record with these values already exists');
    default:
      return null;
  }
}

/**
 * The one error mapper of the GraphQL pipeline (and so of REST, which runs
 * through it): typed errors keep their code and status, bad variables become
 * 400s naming the field, everything else becomes a generic 500 that is logged
 * with the request id and reveals nothing.
 */
export function createMaskError(schema: GraphQLSchema, logger: Logger) {
  return (error: unknown): Error => {
    const graphqlError = error instanceof GraphQLError ? error : undefined;
    const original = graphqlError?.originalError ?? error;
    // graphql-js wraps thrown errors and copies their extensions: keep as is.
    if (original instanceof AppError) return graphqlError ?? original;
    const refusal = databaseRefusal(original);
    if (refusal) {
      logger.warn({ err: original }, 'database unavailable or too slow');
      return new AppError(refusal.code, refusal.message, graphqlError);
    }
    if (isPrismaKnownError(original)) {
      const mapped = fromPrisma(original);
      if (mapped) return new AppError(mapped.code, mapped.message, graphqlError);
    }
    if (graphqlError && !graphqlError.path) {
      // Request errors: unknown operation, bad variables, parse/validation.
      const described = describeVariableError(graphqlError.message, schema);
      if (described) return new AppError('BAD_USER_INPUT', described, graphqlError);
      if (!graphqlError.originalError || graphqlError.originalError instanceof GraphQLError) {
        return graphqlError.extensions.http ? graphqlError : new AppError('BAD_REQUEST', graphqlError.message, graphqlError);
      }
    }
    logger.error({ err: original, path: graphqlError?.path }, 'unexpected error');
    return new GraphQLError(GENERIC_SERVER_ERROR, {
      nodes: graphqlError?.nodes,
      path: graphqlError?.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } },
    });
  };
}
