import type { ServerOptions } from 'node:http';
import type { Config } from '../config.ts';

/**
 * The HTTP server's own timeouts, so a client that sends its request slowly
 * (slow-loris) is answered 408 and disconnected (src/http/app.ts
 * answerClientError) rather than keeping its socket for Node's default 300 s.
 * JSON bodies have a shorter limit of their own (src/http/request-body.ts);
 * the whole-request limit is for uploads, and counts only while the request
 * arrives, never while it is being answered.
 */
export function httpServerOptions(config: Pick<Config, 'REQUEST_HEADERS_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS'>): ServerOptions {
  const requestTimeout = config.REQUEST_TIMEOUT_MS;
  return {
    requestTimeout,
    // Node refuses a head timeout longer than the whole request's.
    headersTimeout: Math.min(config.REQUEST_HEADERS_TIMEOUT_MS, requestTimeout),
    // Node's default, stated: an idle kept-alive connection closes after 5 s.
    keepAliveTimeout: 5_000,
    // How often Node looks for requests past those limits (its default of 30 s would add up to 30 s to each).
    connectionsCheckingInterval: 1_000,
  };
}
