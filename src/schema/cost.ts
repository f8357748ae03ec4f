// What a field costs beyond the records it returns, declared next to the
// field as GraphQL field extensions and read by the operation cost analysis
// (src/http/operation-cost.ts; the model is described in docs/api-limits.md).

/** A field's arguments, as the cost analysis sees them (coerced, defaults applied). */
export type CostArgs = Record<string, unknown>;

// A type, not an interface: Pothos takes extensions as a string-indexed object.
export type CostExtensions = {
  /** Work the field does each time it runs beyond reading records: a screening, OCR, an email, an outside call. */
  cost?: number | ((args: CostArgs) => number);
  /** A list without paging arguments: how many items it holds at most (else a typical upper bound). */
  listSize?: number;
};

/** The unit of work costs: one screening against every watchlist ≈ reading this many records. */
export const SCREENING = 1_000;
/** Running the OCR engine over a document (seconds of CPU per page). */
export const OCR = 5_000;
/** Sending one email through the mail server. */
export const EMAIL = 1_000;
/** A call to the object store (upload, delete). */
export const OBJECT_STORE = 20;
/** An assessment of a case's risk (reads its screenings, parties and documents; may open tasks). */
export const RISK_ASSESSMENT = 50;
/** The ownership graph of a business case with its beneficial owners. */
export const OWNERSHIP = 20;
/** A webhook delivery sent to an outside address. */
export const OUTSIDE_CALL = 100;
/** A long text (a note's body, up to 20,000 characters; a stored row in the audit trail): its bytes weigh as much as this many records. */
export const LONG_TEXT = 20;
/** Rendering Markdown to sanitized HTML (milliseconds of CPU for a long note; about 4 times the bytes of the text). */
export const HTML_RENDERING = 50;
/** Rendering a note's Markdown to sanitized HTML at write (up to about 40 ms of the event loop at the note limits). */
export const NOTE_RENDERING = 500;
/**
 * A document analysis's blocks (JSON, every word with its geometry): up to 14 MB at the output
 * limits (ANALYSIS_MAX_BLOCKS_MB), so that at most four fit the cost limit, within the 64 MB answer limit.
 */
export const ANALYSIS_OUTPUT = 2000;
/**
 * A document analysis's text in another shape (`textContent`, `tables`, `forms`): up to
 * ANALYSIS_MAX_TEXT_CHARS (500,000) characters with a few bytes around each cell or pair, about
 * 3 MB at most, so that at most nineteen fit the cost limit.
 */
export const ANALYSIS_TEXT = 500;

/** Extensions of a field that does `work` each time it runs. */
export const costs = (work: CostExtensions['cost']): CostExtensions => ({ cost: work });

/** Extensions of a list field without paging arguments that holds at most `size` items. */
export const listOfAtMost = (size: number): CostExtensions => ({ listSize: size });

/**
 * Extensions of the item list of a page (`items`, a connection's `edges`):
 * the paged field that returns the page already counts its page size.
 */
export const PAGE_ITEMS: CostExtensions = { listSize: 1 };
