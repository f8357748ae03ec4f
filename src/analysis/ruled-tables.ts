import { randomUUID } from 'node:crypto';
import type { Block } from './blocks.ts';
import type { Rule } from './engines/pdf-rules.ts';

// Tables drawn with ruling lines (PDF vector graphics): the lines give rows,
// columns and merged cells that word geometry cannot, such as empty cells,
// text wrapped inside a cell and headers spanning columns. Output follows
// Textract: a CELL for every grid position, MERGED_CELL blocks over them.

/** Lines closer than this (points) are the same line; ends this close touch. */
const TOLERANCE = 2;

interface PageSize {
  width: number;
  height: number;
}

const isHorizontal = (r: Rule) => r.y1 === r.y2;

/** Collinear pieces joined (table borders are often drawn cell by cell). */
function joinCollinear(rules: Rule[], horizontal: boolean): Rule[] {
  const at = (r: Rule) => (horizontal ? r.y1 : r.x1);
  const from = (r: Rule) => (horizontal ? r.x1 : r.y1);
  const to = (r: Rule) => (horizontal ? r.x2 : r.y2);
  const sorted = [...rules].sort((a, b) => at(a) - at(b) || from(a) - from(b));
  const joined: Rule[] = [];
  for (const rule of sorted) {
    const last = joined.at(-1);
    if (last && Math.abs(at(last) - at(rule)) <= TOLERANCE && from(rule) <= to(last) + TOLERANCE) {
      if (horizontal) last.x2 = Math.max(last.x2, rule.x2);
      else last.y2 = Math.max(last.y2, rule.y2);
    } else joined.push({ ...rule });
  }
  return joined;
}

const crosses = (h: Rule, v: Rule) =>
  v.x1 >= h.x1 - TOLERANCE && v.x1 <= h.x2 + TOLERANCE && h.y1 >= v.y1 - TOLERANCE && h.y1 <= v.y2 + TOLERANCE;

/** Groups of lines connected by crossings: each group is one drawn grid. */
function grids(horizontals: Rule[], verticals: Rule[]): Array<{ horizontals: Rule[]; verticals: Rule[] }> {
  const all = [...horizontals, ...verticals];
  const parent = all.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  horizontals.forEach((h, i) => verticals.forEach((v, j) => crosses(h, v) && (parent[root(i)] = root(horizontals.length + j))));
  const groups = new Map<number, { horizontals: Rule[]; verticals: Rule[] }>();
  all.forEach((rule, i) => {
    const group = groups.get(root(i)) ?? { horizontals: [], verticals: [] };
    groups.set(root(i), group);
    (isHorizontal(rule) ? group.horizontals : group.verticals).push(rule);
  });
  return [...groups.values()];
}

/** Distinct positions (within the tolerance), ascending. */
function positions(values: number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const clusters: number[][] = [];
  for (const value of sorted) {
    const last = clusters.at(-1);
    if (last && value - last.at(-1)! <= TOLERANCE) last.push(value);
    else clusters.push([value]);
  }
  return clusters.map((c) => c.reduce((a, b) => a + b, 0) / c.length);
}

function geometryOf(left: number, top: number, right: number, bottom: number, page: PageSize) {
  const box = { Width: (right - left) / page.width, Height: (bottom - top) / page.height, Left: left / page.width, Top: top / page.height };
  return {
    BoundingBox: box,
    Polygon: [
      { X: box.Left, Y: box.Top }, { X: box.Left + box.Width, Y: box.Top },
      { X: box.Left + box.Width, Y: box.Top + box.Height }, { X: box.Left, Y: box.Top + box.Height },
    ],
  };
}

/**
 * TABLE, CELL and MERGED_CELL blocks for the ruled grids of one page (at
 * least 2 rows and 2 columns, with text), and the ids of the words placed in
 * them (left out of the geometry-based detection).
 */
export function ruledTables(words: Block[], rules: Rule[], page: PageSize, pageNumber: number): { blocks: Block[]; used: Set<string> } {
  const blocks: Block[] = [];
  const used = new Set<string>();
  const horizontals = joinCollinear(rules.filter(isHorizontal), true);
  const verticals = joinCollinear(rules.filter((r) => !isHorizontal(r)), false);
  const centre = (w: Block) => {
    const b = w.Geometry.BoundingBox;
    return { x: (b.Left + b.Width / 2) * page.width, y: (b.Top + b.Height / 2) * page.height };
  };

  for (const grid of grids(horizontals, verticals)) {
    const ys = positions(grid.horizontals.map((h) => h.y1));
    const xs = positions(grid.verticals.map((v) => v.x1));
    if (ys.length < 3 || xs.length < 3) continue;
    const rows = ys.length - 1;
    const columns = xs.length - 1;
    const middleY = (r: number) => (ys[r]! + ys[r + 1]!) / 2;
    const middleX = (c: number) => (xs[c]! + xs[c + 1]!) / 2;
    // A border between two positions exists where a line covers the middle of their shared edge.
    const verticalAt = (c: number, r: number) =>
      grid.verticals.some((v) => Math.abs(v.x1 - xs[c]!) <= TOLERANCE && v.y1 - TOLERANCE <= middleY(r) && middleY(r) <= v.y2 + TOLERANCE);
    const horizontalAt = (r: number, c: number) =>
      grid.horizontals.some((h) => Math.abs(h.y1 - ys[r]!) <= TOLERANCE && h.x1 - TOLERANCE <= middleX(c) && middleX(c) <= h.x2 + TOLERANCE);

    // Positions without a border between them are one merged cell.
    const slot = (r: number, c: number) => r * columns + c;
    const parent = Array.from({ length: rows * columns }, (_, i) => i);
    const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        if (c + 1 < columns && !verticalAt(c + 1, r)) parent[root(slot(r, c + 1))] = root(slot(r, c));
        if (r + 1 < rows && !horizontalAt(r + 1, c)) parent[root(slot(r + 1, c))] = root(slot(r, c));
      }
    }
    const regions = new Map<number, Array<[number, number]>>();
    for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) regions.set(root(slot(r, c)), [...(regions.get(root(slot(r, c))) ?? []), [r, c]]);
    if (regions.size < 2) continue; // A frame around text, not a table.

    // Each region's first (top-left) position holds its words; irregular regions stay unmerged.
    const owner = new Map<number, number>();
    const merged: Array<{ r: number; c: number; rowSpan: number; columnSpan: number; slots: number[] }> = [];
    for (const positionsOfRegion of regions.values()) {
      const rs = positionsOfRegion.map(([r]) => r);
      const cs = positionsOfRegion.map(([, c]) => c);
      const [r0, c0] = [Math.min(...rs), Math.min(...cs)];
      const rowSpan = Math.max(...rs) - r0 + 1;
      const columnSpan = Math.max(...cs) - c0 + 1;
      const rectangular = rowSpan * columnSpan === positionsOfRegion.length;
      for (const [r, c] of positionsOfRegion) owner.set(slot(r, c), rectangular ? slot(r0, c0) : slot(r, c));
      if (rectangular && positionsOfRegion.length > 1) merged.push({ r: r0, c: c0, rowSpan, columnSpan, slots: positionsOfRegion.map(([r, c]) => slot(r, c)) });
    }

    const wordsBySlot = new Map<number, Block[]>();
    for (const word of words) {
      const { x, y } = centre(word);
      const r = ys.findIndex((top, i) => i < rows && y >= top && y < ys[i + 1]!);
      const c = xs.findIndex((left, i) => i < columns && x >= left && x < xs[i + 1]!);
      if (r < 0 || c < 0) continue;
      const target = owner.get(slot(r, c))!;
      wordsBySlot.set(target, [...(wordsBySlot.get(target) ?? []), word]);
    }
    if (wordsBySlot.size === 0) continue;

    const cellIds: string[] = [];
    const cells: Block[] = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        const cellWords = wordsBySlot.get(slot(r, c)) ?? [];
        for (const word of cellWords) used.add(word.Id);
        const cell: Block = {
          BlockType: 'CELL', Id: randomUUID(), Confidence: Math.min(99, ...cellWords.map((w) => w.Confidence ?? 0)),
          RowIndex: r + 1, ColumnIndex: c + 1, RowSpan: 1, ColumnSpan: 1,
          Geometry: geometryOf(xs[c]!, ys[r]!, xs[c + 1]!, ys[r + 1]!, page), Page: pageNumber,
          ...(cellWords.length ? { Relationships: [{ Type: 'CHILD' as const, Ids: cellWords.map((w) => w.Id) }] } : {}),
        };
        cells.push(cell);
        cellIds.push(cell.Id);
      }
    }
    const mergedBlocks: Block[] = merged.map((m) => ({
      BlockType: 'MERGED_CELL', Id: randomUUID(), Confidence: Math.min(...m.slots.map((s) => cells[s]!.Confidence ?? 0)),
      RowIndex: m.r + 1, ColumnIndex: m.c + 1, RowSpan: m.rowSpan, ColumnSpan: m.columnSpan,
      Geometry: geometryOf(xs[m.c]!, ys[m.r]!, xs[m.c + m.columnSpan]!, ys[m.r + m.rowSpan]!, page), Page: pageNumber,
      Relationships: [{ Type: 'CHILD', Ids: m.slots.map((s) => cells[s]!.Id) }],
    }));
    blocks.push(
      {
        BlockType: 'TABLE', Id: randomUUID(), Confidence: Math.min(...cells.map((c) => c.Confidence ?? 0)),
        Geometry: geometryOf(xs[0]!, ys[0]!, xs.at(-1)!, ys.at(-1)!, page), Page: pageNumber,
        Relationships: [
          { Type: 'CHILD', Ids: cellIds },
          ...(mergedBlocks.length ? [{ Type: 'MERGED_CELL' as const, Ids: mergedBlocks.map((m) => m.Id) }] : []),
        ],
      },
      ...cells,
      ...mergedBlocks,
    );
  }
  return { blocks, used };
}
