import { describe, expect, it } from 'vitest';
import { MAX_NOTE_HTML_CHARS, MAX_NOTE_TABLE_CELLS, noteHtml, storedNoteHtml } from '../../src/domain/note-html.ts';

/** The round-3 note: 100 header columns over 9,799 one-cell rows, each padded to 100 cells (730 KB of HTML). */
const paddedTable = `${'|a'.repeat(100)}\n${'|-'.repeat(100)}\n${'|\n'.repeat(9799)}`;
const table = (columns: number, rows: number) => [`|${' h |'.repeat(columns)}`, `|${'---|'.repeat(columns)}`, ...Array.from({ length: rows }, () => `|${' c |'.repeat(columns)}`)].join('\n');

const refusal = (body: string) => {
  try {
    noteHtml(body, 'MARKDOWN');
  } catch (error) {
    return { code: (error as { code?: string }).code, status: (error as { status?: number }).status, message: (error as Error).message };
  }
  return undefined;
};

describe('Markdown tables are counted before they are built', () => {
  it('refuses a table whose short rows would pad past the cell limit, with a 400 naming it', () => {
    expect(refusal(paddedTable)).toEqual({
      code: 'BAD_USER_INPUT',
      status: 400,
      message: `body: its tables would have 980000 cells or more, counting the cells Markdown pads short rows with; the limit is ${MAX_NOTE_TABLE_CELLS}`,
    });
  });

  it('renders a table at the limit', () => {
    const html = noteHtml(table(20, 99), 'MARKDOWN');
    expect(html.match(/<td>/g)).toHaveLength(20 * 99);
    expect(html.match(/<th>/g)).toHaveLength(20);
  });

  it('counts every table of the note, and tables inside quotes and lists', () => {
    const small = table(10, 9); // 100 cells each
    expect(refusal(Array.from({ length: 21 }, () => small).join('\n\n'))?.message).toMatch(/2100 cells/);
    const quoted = paddedTable.split('\n').map((line) => `> ${line}`).join('\n');
    expect(refusal(quoted)?.message).toMatch(/limit is 2000/);
    const listed = `- item\n\n${paddedTable.split('\n').map((line) => `  ${line}`).join('\n')}`;
    expect(refusal(listed)?.message).toMatch(/limit is 2000/);
  });

  it('leaves text with pipes that is no table alone', () => {
    expect(noteHtml('a | b\nc | d', 'MARKDOWN')).toBe('<p>a | b<br />\nc | d</p>\n');
  });
});

describe('the HTML of a note is bounded', () => {
  it('refuses Markdown rendering to more HTML than the limit', () => {
    const links = '[a](b)'.repeat(3333); // 19,998 characters, 68 of HTML for every 6
    expect(refusal(links)?.message).toMatch(new RegExp(`^body: renders to \\d+ characters of HTML; the limit is ${MAX_NOTE_HTML_CHARS} \\(write it as PLAIN or shorten it\\)$`));
  });

  it('never refuses plain text: its worst case stays under the limit', () => {
    for (const worst of ['&'.repeat(20_000), '<\n'.repeat(10_000), paddedTable]) {
      expect(noteHtml(worst, 'PLAIN').length).toBeLessThan(MAX_NOTE_HTML_CHARS);
    }
  });
});

describe('storedNoteHtml', () => {
  const note = { id: 'n1', updatedAt: new Date('2026-11-24T00:00:00Z'), format: 'MARKDOWN' as const };

  it('answers the HTML stored at write, rendering nothing', () => {
    expect(storedNoteHtml({ ...note, body: paddedTable, bodyHtml: '<p>stored</p>' })).toBe('<p>stored</p>');
  });

  it('shows a note written before HTML was stored as plain text when its Markdown passes the bounds', () => {
    const html = storedNoteHtml({ ...note, id: 'legacy', body: paddedTable, bodyHtml: null });
    expect(html).not.toContain('<table');
    expect(html.startsWith('<p>|a|a|a')).toBe(true);
    expect(storedNoteHtml({ ...note, id: 'legacy-ok', body: '**ok**', bodyHtml: null })).toBe('<p><strong>ok</strong></p>\n');
  });
});
