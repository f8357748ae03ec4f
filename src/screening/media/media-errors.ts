// Failures of adverse media sources, typed so that callers can tell a
// provider outage (retry later, record the screening as incomplete) from a
// broken local corpus (fix the file).

export type MediaProviderFailure = 'HTTP_STATUS' | 'TIMEOUT' | 'ABORTED' | 'TOO_LARGE' | 'INVALID_RESPONSE' | 'NETWORK';

export class MediaProviderError extends Error {
  override readonly name = 'MediaProviderError';
  constructor(
    readonly providerId: string,
    readonly failure: MediaProviderFailure,
    message: string,
    /** The HTTP status, for HTTP_STATUS. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`${providerId}: ${message}`, options);
  }
}

/** A corpus file that cannot be read as articles; the message starts with the file's path. */
export class MediaCorpusError extends Error {
  override readonly name = 'MediaCorpusError';
  constructor(readonly file: string, reason: string, options?: { cause?: unknown }) {
    super(`${file}: ${reason}`, options);
  }
}
