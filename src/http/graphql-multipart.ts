import type { IncomingMessage } from 'node:http';
import { processRequest } from 'graphql-upload-minimal';
import type { Middleware } from 'koa';
import type { AuthState } from './authenticate.ts';

const MULTIPART = /^multipart\/form-data\b/i;

/** A GraphQL-shaped error answered before the GraphQL server runs. */
function graphqlError(status: number, code: string, message: string) {
  return { status, body: { errors: [{ message, extensions: { code } }] } };
}

/**
 * GraphQL multipart requests (the "GraphQL multipart request spec") on
 * /graphql, parsed by graphql-upload-minimal into `Upload` variables that
 * stream the file parts, so yoga never buffers a file. Only for callers with
 * a valid key: nothing of an unauthenticated upload is read.
 */
export function graphqlMultipart(options: { maxUploadBytes: number }): Middleware<AuthState & { graphqlParams?: unknown }> {
  return async (ctx, next) => {
    if (ctx.path !== '/graphql' || ctx.method !== 'POST' || !MULTIPART.test(ctx.get('content-type'))) return next();
    let failure: ReturnType<typeof graphqlError> | null = null;
    if (!ctx.state.apiKey) failure = graphqlError(401, 'UNAUTHENTICATED', 'Unauthorized');
    else if ((ctx.request.length ?? 0) > options.maxUploadBytes + 1024 * 1024) {
      failure = graphqlError(413, 'PAYLOAD_TOO_LARGE', `file: must be at most ${options.maxUploadBytes / (1024 * 1024)} MB`);
    } else {
      try {
        keepLaterParserErrors(ctx.req);
        ctx.state.graphqlParams = await processRequest(ctx.req, ctx.res, { maxFileSize: options.maxUploadBytes, maxFiles: 1 });
      } catch (error) {
        // Everything processRequest refuses is the body's fault (its 500 "no JSON" and 499 "disconnected" included).
        const status = (error as { status?: number }).status === 413 ? 413 : 400;
        failure = graphqlError(status, status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST', (error as Error).message);
      }
    }
    if (failure) {
      ctx.status = failure.status;
      ctx.body = failure.body;
      return;
    }
    await next();
  };
}

/**
 * graphql-upload-minimal listens for only the first 'error' of its busboy
 * parser and then destroys it; busboy then emits a second 'error' ("Unexpected
 * end of form") that nobody listens for, an uncaught exception that ends the
 * process. The parser is the stream the request is piped into, so it gets a
 * listener here for the errors after the first (which already failed the
 * request, or the file stream of the upload).
 */
function keepLaterParserErrors(req: IncomingMessage) {
  const pipe = req.pipe.bind(req);
  req.pipe = ((destination: NodeJS.WritableStream, pipeOptions?: { end?: boolean }) => {
    destination.on('error', () => {});
    return pipe(destination, pipeOptions);
  }) as typeof req.pipe;
}
