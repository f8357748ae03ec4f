import type { Block } from './blocks.ts';

export interface FormField {
  key: string;
  value: string;
  confidence: number;
  page: number;
}

/** The convenient views of a block list that Textract users usually derive themselves. */
export function deriveViews(blocks: Block[]) {
  const byId = new Map(blocks.map((block) => [block.Id, block]));
  const children = (block: Block, type: 'CHILD' | 'VALUE' = 'CHILD') =>
    (block.Relationships ?? []).filter((r) => r.Type === type).flatMap((r) => r.Ids).map((id) => byId.get(id)).filter((b): b is Block => Boolean(b));
  const textOf = (block: Block) => children(block).filter((b) => b.BlockType === 'WORD').map((b) => b.Text).join(' ');

  const pages = blocks.filter((b) => b.BlockType === 'PAGE');
  const textContent = pages
    .map((page) => children(page).filter((b) => b.BlockType === 'LINE').map((line) => line.Text).join('\n'))
    .join('\n\n');

  const tables = blocks
    .filter((b) => b.BlockType === 'TABLE')
    .map((table) => {
      const cells = children(table).filter((b) => b.BlockType === 'CELL');
      const rows: string[][] = [];
      for (const cell of cells) {
        const row = (rows[(cell.RowIndex ?? 1) - 1] ??= []);
        row[(cell.ColumnIndex ?? 1) - 1] = textOf(cell);
      }
      return { page: table.Page, confidence: table.Confidence ?? 0, rows: rows.map((row) => Array.from(row, (text) => text ?? '')) };
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
