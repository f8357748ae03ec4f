import { randomUUID } from 'node:crypto';
import { type Block, type BoundingBox, type Geometry } from './blocks.ts';
import type { Rule } from './engines/pdf-rules.ts';
import { ruledTables } from './ruled-tables.ts';

/** A page's ruling lines in its own units (PDF points), with its size. */
export interface PageRules {
  width: number;
  height: number;
  rules: Rule[];
}

// Tables and key/value pairs from word geometry, for engines that only find
// words (OCR, PDF text layers). Heuristics, measured by the evaluation bench.

interface Cell {
  words: Block[];
  box: BoundingBox;
}

const box = (b: Block) => b.Geometry.BoundingBox;

function unionBox(words: Block[]): BoundingBox {
  const left = Math.min(...words.map((w) => box(w).Left));
  const top = Math.min(...words.map((w) => box(w).Top));
  const right = Math.max(...words.map((w) => box(w).Left + box(w).Width));
  const bottom = Math.max(...words.map((w) => box(w).Top + box(w).Height));
  return { Left: left, Top: top, Width: right - left, Height: bottom - top };
}

function geometryOf(b: BoundingBox): Geometry {
  return {
    BoundingBox: b,
    Polygon: [
      { X: b.Left, Y: b.Top }, { X: b.Left + b.Width, Y: b.Top },
      { X: b.Left + b.Width, Y: b.Top + b.Height }, { X: b.Left, Y: b.Top + b.Height },
    ],
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const minConfidence = (words: Block[]) => Math.min(...words.map((w) => w.Confidence ?? 0));

/**
 * The page's skew (radians): the median slope of its multi-word lines, from
 * the centres of their first and last words. Scans are rarely level.
 */
function skewOf(lines: Block[], byId: Map<string, Block>): number {
  const slopes = lines.flatMap((line) => {
    const ids = line.Relationships?.find((r) => r.Type === 'CHILD')?.Ids ?? [];
    const first = byId.get(ids[0] ?? '');
    const last = byId.get(ids.at(-1) ?? '');
    if (!first || !last || first === last) return [];
    const dx = box(last).Left + box(last).Width / 2 - (box(first).Left + box(first).Width / 2);
    const dy = box(last).Top + box(last).Height / 2 - (box(first).Top + box(first).Height / 2);
    return dx > 0.05 ? [Math.atan2(dy, dx)] : [];
  });
  return slopes.length ? median(slopes) : 0;
}

/** Words of one page grouped into visual rows (deskewed vertical centres within half a word height). */
function rows(words: Block[], skew: number): Block[][] {
  // The vertical centre a word would have on a level page.
  const centre = (w: Block) => box(w).Top + box(w).Height / 2 - Math.tan(skew) * (box(w).Left + box(w).Width / 2);
  const sorted = [...words].sort((a, b) => centre(a) - centre(b) || box(a).Left - box(b).Left);
  const result: Block[][] = [];
  for (const word of sorted) {
    const row = result.at(-1);
    if (row && Math.abs(centre(row[0]!) - centre(word)) < box(row[0]!).Height / 2) row.push(word);
    else result.push([word]);
  }
  for (const row of result) row.sort((a, b) => box(a).Left - box(b).Left);
  return result;
}

/** A row split where the gap between words is wider than `gapFactor` word heights. */
function cells(row: Block[], gapFactor: number): Cell[] {
  const height = median(row.map((w) => box(w).Height));
  const groups: Block[][] = [];
  for (const word of row) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    if (last && box(word).Left - (box(last).Left + box(last).Width) < gapFactor * height) group!.push(word);
    else groups.push([word]);
  }
  return groups.map((words) => ({ words, box: unionBox(words) }));
}

function aligned(a: Cell[], b: Cell[], tolerance: number) {
  return a.length === b.length && a.every((cell, i) => {
    const other = b[i]!.box;
    const overlap = Math.min(cell.box.Left + cell.box.Width, other.Left + other.Width) - Math.max(cell.box.Left, other.Left);
    return overlap > 0 || Math.abs(cell.box.Left - other.Left) < tolerance;
  });
}

/**
 * TABLE/CELL and KEY_VALUE_SET blocks for the words of `blocks`, appended to
 * them: ruled tables first (when the page has ruling lines), then tables and
 * key/value pairs from the geometry of the remaining words.
 */
export function addLayoutBlocks(blocks: Block[], rulesByPage: Map<number, PageRules> = new Map()): Block[] {
  const added: Block[] = [];
  const pages = [...new Set(blocks.map((b) => b.Page))];
  const byId = new Map(blocks.map((b) => [b.Id, b]));
  for (const page of pages) {
    let words = blocks.filter((b) => b.BlockType === 'WORD' && b.Page === page);
    const drawn = rulesByPage.get(page);
    if (drawn?.rules.length) {
      const ruled = ruledTables(words, drawn.rules, drawn, page);
      added.push(...ruled.blocks);
      words = words.filter((w) => !ruled.used.has(w.Id));
    }
    if (words.length === 0) continue;
    const height = median(words.map((w) => box(w).Height));
    const skew = skewOf(blocks.filter((b) => b.BlockType === 'LINE' && b.Page === page), byId);
    const pageRows = rows(words, skew).map((row) => cells(row, 1.5));
    const inTable = new Set<number>();

    // Tables: runs of at least two vertically adjacent rows with the same, aligned columns (2+).
    for (let start = 0; start < pageRows.length; start++) {
      let end = start;
      while (
        end + 1 < pageRows.length &&
        pageRows[start]!.length >= 2 &&
        aligned(pageRows[end]!, pageRows[end + 1]!, 2 * height) &&
        Math.abs(pageRows[end + 1]![0]!.box.Top - pageRows[end]![0]!.box.Top) < 3.5 * height
      ) end++;
      if (end === start) continue;
      const tableRows = pageRows.slice(start, end + 1);
      const cellBlocks: Block[] = tableRows.flatMap((row, r) =>
        row.map((cell, c) => ({
          BlockType: 'CELL' as const, Id: randomUUID(), Confidence: minConfidence(cell.words),
          RowIndex: r + 1, ColumnIndex: c + 1, RowSpan: 1, ColumnSpan: 1,
          Geometry: geometryOf(cell.box), Page: page,
          Relationships: [{ Type: 'CHILD' as const, Ids: cell.words.map((w) => w.Id) }],
        })),
      );
      added.push(
        {
          BlockType: 'TABLE', Id: randomUUID(), Confidence: Math.min(...cellBlocks.map((c) => c.Confidence ?? 0)),
          Geometry: geometryOf(unionBox(tableRows.flat().flatMap((c) => c.words))), Page: page,
          Relationships: [{ Type: 'CHILD', Ids: cellBlocks.map((c) => c.Id) }],
        },
        ...cellBlocks,
      );
      for (let r = start; r <= end; r++) inTable.add(r);
      start = end;
    }

    // Key/value pairs: outside tables, a row whose first word group ends with ':' and has more after it.
    pageRows.forEach((row, r) => {
      if (inTable.has(r)) return;
      const rowWords = row.flatMap((c) => c.words);
      const colon = rowWords.findIndex((w) => (w.Text ?? '').endsWith(':'));
      if (colon < 0 || colon === rowWords.length - 1) return;
      const keyWords = rowWords.slice(0, colon + 1);
      const valueWords = rowWords.slice(colon + 1);
      const value: Block = {
        BlockType: 'KEY_VALUE_SET', Id: randomUUID(), EntityTypes: ['VALUE'], Confidence: minConfidence(valueWords),
        Geometry: geometryOf(unionBox(valueWords)), Page: page,
        Relationships: [{ Type: 'CHILD', Ids: valueWords.map((w) => w.Id) }],
      };
      added.push(
        {
          BlockType: 'KEY_VALUE_SET', Id: randomUUID(), EntityTypes: ['KEY'], Confidence: minConfidence(keyWords),
          Geometry: geometryOf(unionBox(keyWords)), Page: page,
          Relationships: [{ Type: 'VALUE', Ids: [value.Id] }, { Type: 'CHILD', Ids: keyWords.map((w) => w.Id) }],
        },
        value,
      );
    });
  }
  return [...blocks, ...added];
}
