import { STATUS_CODES } from 'node:http';
import { GraphQLError } from 'graphql';

/**
 * Every failure a client can cause is one of these. The code travels in
 * GraphQL's `extensions.code`, the status in `extensions.http.status` (which
 * yoga uses as the HTTP status) and the REST adapter renders both as
 * `{statusCode, message, error}`.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * A GraphQLError so that graphql-js and yoga pass it through unmasked, with
 * its code and status, wherever it is thrown (resolver, validation, context).
 */
export class AppError extends GraphQLError {
  readonly code: ErrorCode;
  readonly status: number;
  constructor(code: ErrorCode, message: string, original?: GraphQLError) {
    const status = ERROR_STATUS[code];
    super(message, {
      nodes: original?.nodes,
      source: original?.source,
      positions: original?.positions,
      path: original?.path,
      extensions: { code, http: { status } },
    });
    this.name = 'AppError';
    this.code = code;
    this.status = status;
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const invalidInput = (message: string) => new AppError('BAD_USER_INPUT', message);
export const unauthenticated = () => new AppError('UNAUTHENTICATED', 'Unauthorized');
export const forbidden = (message = 'Forbidden') => new AppError('FORBIDDEN', message);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const gone = (message: string) => new AppError('GONE', message);
export const badGateway = (message: string) => new AppError('BAD_GATEWAY', message);

/**
 * A 400 that also says which field each problem belongs to, for forms that
 * show messages next to their fields: `fields` maps field name to message.
 */
export class InvalidFieldsError extends AppError {
  readonly fields: Readonly<Record<string, string>>;
  constructor(fields: Record<string, string>) {
    super('BAD_USER_INPUT', Object.entries(fields).map(([field, message]) => `${field}: ${message}`).join('; '));
    this.fields = fields;
    this.extensions.fields = fields;
  }
}

export const GENERIC_SERVER_ERROR = 'Internal server error';

/** The body of every REST error, and of errors outside GraphQL on /graphql. */
export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
}

export function errorBody(status: number, message: string): ErrorBody {
  return { statusCode: status, message, error: STATUS_CODES[status] ?? 'Error' };
}
