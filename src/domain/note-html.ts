import { LRUCache } from 'lru-cache';
import MarkdownIt, { type StateBlock } from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { AppError, invalidInput } from '../errors.ts';

// Notes are shown to reviewers in other tools: the body is never trusted as
// HTML. Markdown is rendered with raw HTML disabled (it comes out escaped),
// then the result is sanitized against a short allow-list as a second line.
//
// Rendering is bounded so that no note holds the event loop for long: a
// table pads every row to its header's width (100 columns over 9,800 short
// rows made 980,000 cells, 730 KB of HTML and ~300 ms of CPU from 20,000
// characters), so tables are counted before they are parsed; and the HTML is
// rendered once when the note is written and stored with it, so reading
// notes renders nothing.

/** Table cells a Markdown note may hold, padded cells included (20 columns × 100 rows). */
export const MAX_NOTE_TABLE_CELLS = 2_000;
/** Characters of HTML a note may render to: ten times the longest body (plain text stays under half of it). */
export const MAX_NOTE_HTML_CHARS = 200_000;

const markdown = new MarkdownIt({ html: false, linkify: false, breaks: true });

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;
interface CellCount { tableCells?: number }

const table = markdown.block.ruler.getRules('').find((rule) => rule.name === 'table') as BlockRule | undefined;
if (!table) throw new Error('markdown-it has no block rule named "table"; src/domain/note-html.ts must be updated');

/**
 * The table rule, refusing a table whose rows would pad past the note's cell
 * budget before it builds any of them: its width (the delimiter row's cells)
 * times its longest possible height (every line up to a blank one).
 */
const boundedTable: BlockRule = (state, startLine, endLine, silent) => {
  if (!table(state, startLine, endLine, true)) return false;
  if (silent) return true;
  const lineText = (line: number) => state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]!);
  const columns = lineText(startLine + 1).split('|').filter((cell) => cell.trim()).length;
  let rows = 1;
  for (let line = startLine + 2; line < endLine && state.sCount[line]! >= state.blkIndent && !state.isEmpty(line); line++) rows++;
  const env = state.env as CellCount;
  env.tableCells = (env.tableCells ?? 0) + columns * rows;
  if (env.tableCells > MAX_NOTE_TABLE_CELLS) {
    throw invalidInput(`body: its tables would have ${env.tableCells} cells or more, counting the cells Markdown pads short rows with; the limit is ${MAX_NOTE_TABLE_CELLS}`);
  }
  return table(state, startLine, endLine, false);
};
markdown.block.ruler.at('table', boundedTable, { alt: ['paragraph', 'reference'] });

const ALLOWED = {
  allowedTags: ['p', 'br', 'strong', 'em', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 's'],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }) },
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const plainHtml = (body: string) => sanitizeHtml(`<p>${escape(body).replace(/\r?\n/g, '<br>')}</p>`, ALLOWED);

/**
 * The note's body as safe HTML: Markdown rendered, plain text escaped with
 * line breaks kept. A 400 naming the limit when the body's tables or its
 * HTML would pass MAX_NOTE_TABLE_CELLS or MAX_NOTE_HTML_CHARS.
 */
export function noteHtml(body: string, format: 'PLAIN' | 'MARKDOWN'): string {
  if (format === 'PLAIN') return plainHtml(body);
  const html = sanitizeHtml(markdown.render(body, {} satisfies CellCount), ALLOWED);
  if (html.length > MAX_NOTE_HTML_CHARS) {
    throw invalidInput(`body: renders to ${html.length} characters of HTML; the limit is ${MAX_NOTE_HTML_CHARS} (write it as PLAIN or shorten it)`);
  }
  return html;
}

/** Rendered HTML of notes written before it was stored, in characters. */
const CACHE_CHARS = 16_000_000;
const rendered = new LRUCache<string, string>({ maxSize: CACHE_CHARS, sizeCalculation: (html) => Math.max(1, html.length) });

/**
 * A note's HTML: the one stored when it was written, else (a note written
 * before HTML was stored) rendered once per version under the same bounds,
 * its body shown as plain text when it passes them.
 */
export function storedNoteHtml(note: { id: string; updatedAt: Date; body: string; format: 'PLAIN' | 'MARKDOWN'; bodyHtml: string | null }): string {
  if (note.bodyHtml !== null) return note.bodyHtml;
  const key = `${note.id}:${note.updatedAt.getTime()}:${note.format}`;
  let html = rendered.get(key);
  if (html === undefined) rendered.set(key, (html = legacyNoteHtml(note.body, note.format)));
  return html;
}

function legacyNoteHtml(body: string, format: 'PLAIN' | 'MARKDOWN'): string {
  try {
    return noteHtml(body, format);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return plainHtml(body);
  }
}
