import type { Block } from './blocks.ts';

export interface FormField {
  key: string;
  value: string;
  confidence: number;
  page: number;
}

export interface MergedCell {
  rowIndex: number;
  columnIndex: number;
  rowSpan: number;
  columnSpan: number;
}

export interface TableView {
  page: number;
  confidence: number;
  /** Cell texts by row and column; a merged cell's text sits in its first (top-left) position. */
  rows: string[][];
  mergedCells: MergedCell[];
}

/** The convenient views of a block list that Textract users usually derive themselves. */
export function deriveViews(blocks: Block[]) {
  const byId = new Map(blocks.map((block) => [block.Id, block]));
  const children = (block: Block, type: 'CHILD' | 'VALUE' | 'MERGED_CELL' = 'CHILD') =>
    (block.Relationships ?? []).filter((r) => r.Type === type).flatMap((r) => r.Ids).map((id) => byId.get(id)).filter((b): b is Block => Boolean(b));
  // Check boxes (SELECTION_ELEMENT) read as their state, as Textract's own parsers show them.
  const textOf = (block: Block) =>
    children(block)
      .flatMap((b) => (b.BlockType === 'WORD' ? [b.Text] : b.BlockType === 'SELECTION_ELEMENT' ? [b.SelectionStatus] : []))
      .join(' ');

  const pages = blocks.filter((b) => b.BlockType === 'PAGE');
  const textContent = pages
    .map((page) => children(page).filter((b) => b.BlockType === 'LINE').map((line) => line.Text).join('\n'))
    .join('\n\n');

  const tables: TableView[] = blocks
    .filter((b) => b.BlockType === 'TABLE')
    .map((table) => {
      const cells = children(table).filter((b) => b.BlockType === 'CELL');
      const rows: string[][] = [];
      for (const cell of cells) {
        const row = (rows[(cell.RowIndex ?? 1) - 1] ??= []);
        row[(cell.ColumnIndex ?? 1) - 1] = textOf(cell);
      }
      const width = Math.max(0, ...rows.map((row) => row.length));
      const mergedCells = children(table, 'MERGED_CELL').map((cell) => ({
        rowIndex: cell.RowIndex ?? 1, columnIndex: cell.ColumnIndex ?? 1, rowSpan: cell.RowSpan ?? 1, columnSpan: cell.ColumnSpan ?? 1,
      }));
      return { page: table.Page, confidence: table.Confidence ?? 0, rows: Array.from(rows, (row) => Array.from({ length: width }, (_, i) => row?.[i] ?? '')), mergedCells };
    });

  const forms: FormField[] = blocks
    .filter((b) => b.BlockType === 'KEY_VALUE_SET' && b.EntityTypes?.includes('KEY'))
    .map((key) => {
      const value = children(key, 'VALUE')[0];
      return {
        key: textOf(key),
        value: value ? textOf(value) : '',
        confidence: Math.min(key.Confidence ?? 0, value?.Confidence ?? 0),
        page: key.Page,
      };
    });

  return { textContent, blockCount: blocks.length, pageCount: pages.length, tables, forms };
}
