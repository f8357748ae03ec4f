import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup, refusedTarget } from './target-guard.ts';

export interface WebhookResponse {
  status: number | null;
  /** The first characters of the response, for the delivery log (null when nothing was sent). */
  body: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * What the delivery log keeps of an answer: enough for a receiver's error
 * message, too little to make webhooks a way to read other services' pages.
 */
export const KEPT_RESPONSE_CHARACTERS = 200;

/**
 * One POST of a signed payload. Never throws: any outcome (status, network
 * error, timeout, refused target) is a result to record. Redirects are not
 * followed (a 3xx is a failed attempt), so a receiver cannot bounce requests
 * elsewhere. Unless private networks are allowed, the address connected to is
 * public whatever the URL's host form: literals are checked before
 * connecting, names as they resolve (guardedLookup).
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivateNetworks: boolean; signal?: AbortSignal },
): Promise<WebhookResponse> {
  const started = performance.now();
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const refused = refusedTarget(target, options.allowPrivateNetworks);
  if (refused) return Promise.resolve({ status: null, body: null, error: refused, durationMs: 0 });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<WebhookResponse, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: Math.round(performance.now() - started) });
    };
    const outgoing = send(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body).toString() },
      lookup: guardedLookup(options.allowPrivateNetworks),
      // A connection of its own: never a kept-alive socket that another send's checks let through.
      agent: false,
    }, (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        if (kept < KEPT_RESPONSE_CHARACTERS * 4) chunks.push(chunk);
        kept += chunk.length;
      });
      response.on('end', () => finish({
        status: response.statusCode ?? null,
        body: Buffer.concat(chunks).toString('utf8').slice(0, KEPT_RESPONSE_CHARACTERS),
        error: null,
      }));
      response.on('error', (error) => finish({ status: response.statusCode ?? null, body: null, error: error.message }));
    });
    // The whole exchange is bounded, not only the idle time between packets.
    const deadline = setTimeout(() => outgoing.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    options.signal?.addEventListener('abort', () => outgoing.destroy(new Error('cancelled: the instance is shutting down')), { once: true });
    outgoing.on('error', (error) => finish({ status: null, body: null, error: error.message }));
    outgoing.on('close', () => {
      clearTimeout(deadline);
      // Normally settled by now; this covers a connection dropped mid-response.
      setImmediate(() => finish({ status: null, body: null, error: 'the connection closed before a complete answer' }));
    });
    outgoing.end(body);
  });
}
