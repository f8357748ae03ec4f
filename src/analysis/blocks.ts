import { randomUUID } from 'node:crypto';

// AWS Textract's document model, so that code written for Textract reads our
// results unchanged. Field names and shapes follow Textract's API.

export interface BoundingBox {
  Width: number;
  Height: number;
  Left: number;
  Top: number;
}

export interface Geometry {
  BoundingBox: BoundingBox;
  Polygon: Array<{ X: number; Y: number }>;
}

export interface Relationship {
  /** The local engine writes CHILD, VALUE and MERGED_CELL; Textract has a few more (TITLE, ANSWER, ...). */
  Type: 'CHILD' | 'VALUE' | 'MERGED_CELL' | 'TITLE' | 'ANSWER' | 'TABLE' | 'TABLE_TITLE' | 'TABLE_FOOTER' | 'COMPLEX_FEATURES';
  Ids: string[];
}

export interface Block {
  /** The local engine writes the first seven; Textract's other types pass through from the textract engine. */
  BlockType:
    | 'PAGE' | 'LINE' | 'WORD' | 'TABLE' | 'CELL' | 'MERGED_CELL' | 'KEY_VALUE_SET'
    | 'SELECTION_ELEMENT' | 'TITLE' | 'TABLE_TITLE' | 'TABLE_FOOTER' | 'SIGNATURE' | 'QUERY' | 'QUERY_RESULT' | `LAYOUT_${string}`;
  Id: string;
  Confidence?: number;
  Text?: string;
  TextType?: 'PRINTED' | 'HANDWRITING';
  RowIndex?: number;
  ColumnIndex?: number;
  RowSpan?: number;
  ColumnSpan?: number;
  /** KEY/VALUE on KEY_VALUE_SET; Textract also marks cells (COLUMN_HEADER, ...). */
  EntityTypes?: string[];
  SelectionStatus?: 'SELECTED' | 'NOT_SELECTED';
  Geometry: Geometry;
  Relationships?: Relationship[];
  Page: number;
}

/** A box in page units (pixels or points), origin top-left. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface RecognizedWord {
  text: string;
  /** 0..100 */
  confidence: number;
  box: Box;
}

export interface RecognizedPage {
  width: number;
  height: number;
  lines: RecognizedWord[][];
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;
const clamp = (value: number) => Math.min(1, Math.max(0, value));

/** Textract geometry: the box normalized to the page (0..1) and its four corners. */
export function geometry(box: Box, page: { width: number; height: number }): Geometry {
  const left = clamp(box.left / page.width);
  const top = clamp(box.top / page.height);
  const width = clamp((box.left + box.width) / page.width) - left;
  const height = clamp((box.top + box.height) / page.height) - top;
  const b = { Width: round(width), Height: round(height), Left: round(left), Top: round(top) };
  return {
    BoundingBox: b,
    Polygon: [
      { X: b.Left, Y: b.Top },
      { X: round(b.Left + b.Width), Y: b.Top },
      { X: round(b.Left + b.Width), Y: round(b.Top + b.Height) },
      { X: b.Left, Y: round(b.Top + b.Height) },
    ],
  };
}

function union(boxes: Box[]): Box {
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  return { left, top, width: right - left, height: bottom - top };
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/** PAGE, LINE and WORD blocks of recognized pages (pages numbered from 1). */
export function textBlocks(pages: RecognizedPage[]): Block[] {
  const blocks: Block[] = [];
  pages.forEach((page, index) => {
    const pageNumber = index + 1;
    const pageBlock: Block = {
      BlockType: 'PAGE',
      Id: randomUUID(),
      Geometry: geometry({ left: 0, top: 0, width: page.width, height: page.height }, page),
      Relationships: [],
      Page: pageNumber,
    };
    blocks.push(pageBlock);
    const lineIds: string[] = [];
    for (const words of page.lines) {
      const kept = words.filter((w) => w.text.trim() !== '');
      if (kept.length === 0) continue;
      const wordBlocks: Block[] = kept.map((word) => ({
        BlockType: 'WORD',
        Id: randomUUID(),
        Confidence: round(word.confidence),
        Text: word.text,
        TextType: 'PRINTED',
        Geometry: geometry(word.box, page),
        Page: pageNumber,
      }));
      const line: Block = {
        BlockType: 'LINE',
        Id: randomUUID(),
        Confidence: round(mean(kept.map((w) => w.confidence))),
        Text: kept.map((w) => w.text).join(' '),
        Geometry: geometry(union(kept.map((w) => w.box)), page),
        Relationships: [{ Type: 'CHILD', Ids: wordBlocks.map((w) => w.Id) }],
        Page: pageNumber,
      };
      lineIds.push(line.Id);
      blocks.push(line, ...wordBlocks);
    }
    if (lineIds.length) pageBlock.Relationships = [{ Type: 'CHILD', Ids: lineIds }];
    else delete pageBlock.Relationships;
  });
  return blocks;
}
