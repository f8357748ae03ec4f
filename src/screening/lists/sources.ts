import { readFile } from 'node:fs/promises';
import { z } from 'zod';

// Where each watchlist comes from. Defaults are the publishers' own download
// addresses; WATCHLIST_SOURCES (JSON) replaces them, e.g. with local files.

export const WatchlistSourceSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{2,40}$/, 'must be 2-40 lower-case letters, digits or -'),
  name: z.string().min(1),
  format: z.enum(['ofac-csv', 'un-xml', 'senzing-json', 'eu-fsf-xml']),
  /** Download time limit per file. */
  timeoutSeconds: z.number().int().min(1).max(3600).default(60),
  /** A path (relative to the working directory) or an http(s) URL for each file of the format. */
  files: z.object({ primary: z.string().min(1), aliases: z.string().optional(), addresses: z.string().optional() }),
});

export type WatchlistSource = z.input<typeof WatchlistSourceSchema>;

export const DEFAULT_WATCHLIST_SOURCES: WatchlistSource[] = [
  {
    id: 'ofac-sdn', name: 'OFAC Specially Designated Nationals', format: 'ofac-csv',
    files: {
      primary: 'https://www.treasury.gov/ofac/downloads/sdn.csv',
      aliases: 'https://www.treasury.gov/ofac/downloads/alt.csv',
      addresses: 'https://www.treasury.gov/ofac/downloads/add.csv',
    },
  },
  {
    id: 'ofac-consolidated', name: 'OFAC Consolidated (non-SDN)', format: 'ofac-csv',
    files: {
      primary: 'https://www.treasury.gov/ofac/downloads/consolidated/cons_prim.csv',
      aliases: 'https://www.treasury.gov/ofac/downloads/consolidated/cons_alt.csv',
      addresses: 'https://www.treasury.gov/ofac/downloads/consolidated/cons_add.csv',
    },
  },
  {
    id: 'un-consolidated', name: 'UN Security Council Consolidated List', format: 'un-xml',
    files: { primary: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml' },
  },
  {
    // The EU Financial Sanctions Files XML v1.1; the token is the public one of the Commission's RSS feed links.
    // The endpoint is reported to take over a minute to produce ~25 MB, hence the longer limit.
    id: 'eu-fsf', name: 'EU Financial Sanctions Files (consolidated)', format: 'eu-fsf-xml', timeoutSeconds: 300,
    files: { primary: 'https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw' },
  },
  {
    id: 'opensanctions-peps', name: 'OpenSanctions PEPs', format: 'senzing-json',
    files: { primary: 'https://data.opensanctions.org/datasets/latest/peps/senzing.json' },
  },
];

/** The shared snapshots (../shared/datasets/sanctions), for tests, benchmarks and offline development. */
export function snapshotSources(directory: string): WatchlistSource[] {
  const at = (name: string) => `${directory.replace(/\/$/, '')}/${name}`;
  return [
    { id: 'ofac-sdn', name: 'OFAC Specially Designated Nationals', format: 'ofac-csv', files: { primary: at('ofac_sdn.csv'), aliases: at('ofac_alt.csv'), addresses: at('ofac_add.csv') } },
    { id: 'ofac-consolidated', name: 'OFAC Consolidated (non-SDN)', format: 'ofac-csv', files: { primary: at('ofac_cons_prim.csv'), aliases: at('ofac_cons_alt.csv') } },
    { id: 'un-consolidated', name: 'UN Security Council Consolidated List', format: 'un-xml', files: { primary: at('un_consolidated.xml') } },
    // Part of the OpenSanctions PEP data set: it stands in for the default PEP source (same id), so that the
    // service screens it, until a download of the whole data set replaces it.
    { id: 'opensanctions-peps', name: 'OpenSanctions PEPs: US Congress snapshot', format: 'senzing-json', files: { primary: at('us_congress_senzing.json') } },
  ];
}

const MAX_BYTES = 200 * 1024 * 1024;

/**
 * Why a file could not be read, in words an operator can act on: the
 * system's code (ENOTFOUND, ECONNREFUSED, ENOENT ...) with its message, a
 * time limit, or the HTTP status. fetch itself says only "fetch failed".
 */
export function failureReason(error: unknown, timeoutMs: number): string {
  const err = error as Error & { code?: string; cause?: Error & { code?: string; errors?: Array<Error & { code?: string }> } };
  if (err.name === 'TimeoutError') return `timeout: no complete answer within ${timeoutMs / 1000} s`;
  const cause = err.cause?.errors?.[0] ?? err.cause ?? err;
  const code = cause.code ?? err.code;
  const message = (cause.message ?? '').replace(`${code}: `, '');
  if (code) return `${code}${message && message !== code ? ` (${message})` : ''}`;
  // No system code (fetch refusing a port, say): its own words and the cause's.
  return err.cause?.message && err.message ? `${err.message} (${err.cause.message})` : err.message || String(error);
}

/** A file of a source that could not be read; the message names the file and the reason. */
export class LocationError extends Error {
  constructor(readonly location: string, readonly reason: string) {
    super(`${location}: ${reason}`);
  }
}

/** One file of a source: downloaded (bounded in time and size) or read from disk. */
export async function readLocation(location: string, timeoutMs = 60_000): Promise<Buffer> {
  try {
    if (!/^https?:\/\//.test(location)) return await readFile(location);
    const response = await fetch(location, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    if (!response.ok) {
      await response.body?.cancel();
      throw new LocationError(location, `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
    }
    const body = Buffer.from(await response.arrayBuffer());
    if (body.length > MAX_BYTES) throw new LocationError(location, `larger than ${MAX_BYTES} bytes`);
    return body;
  } catch (error) {
    if (error instanceof LocationError) throw error;
    throw new LocationError(location, failureReason(error, timeoutMs));
  }
}
