import { OPS } from './pdfjs.ts';
import type { PdfDocument } from './pdf.ts';

/** A horizontal or vertical ruling line in page points, origin top left. */
export interface Rule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

type Matrix = [number, number, number, number, number, number];

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5],
];

// pdf.js path data: an op code followed by its coordinates.
const MOVE_TO = 0;
const LINE_TO = 1;
const CURVE_TO = 2;
const QUADRATIC_TO = 3;
const CLOSE = 4;

const STROKES = new Set<number>([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
const FILLS = new Set<number>([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);

/** Thicker than this (points) a filled bar is shading, not a line. */
const MAX_BAR = 3;
/** Shorter than this (points) a segment is a tick or a glyph part, not a rule. */
const MIN_LENGTH = 6;

/**
 * The page's horizontal and vertical ruling lines: stroked straight segments
 * and thin filled bars (how many generators draw table borders). Curves and
 * slanted lines are left out; coordinates go through the drawing transforms
 * and the page's viewport (rotation, crop box).
 */
export async function pageRules(pdf: PdfDocument, pageNumber: number): Promise<Rule[]> {
  const page = await pdf.getPage(pageNumber);
  const viewport = page.getViewport({ scale: 1 });
  const { fnArray, argsArray } = await page.getOperatorList();
  const rules: Rule[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  const toPage = (x: number, y: number) => {
    const [px, py] = viewport.convertToViewportPoint(ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]) as [number, number];
    return { x: px, y: py };
  };

  fnArray.forEach((fn, i) => {
    const args = argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (fn === OPS.transform) ctm = multiply(ctm, args as Matrix);
    else if (fn === OPS.constructPath) {
      const [paint, [data]] = args as [number, [ArrayLike<number> | null]];
      if (!data || (!STROKES.has(paint) && !FILLS.has(paint))) return;
      for (const path of subpaths(data)) {
        const points = path.map(([x, y]) => toPage(x, y));
        if (STROKES.has(paint)) rules.push(...straightSegments(points));
        if (FILLS.has(paint)) {
          const bar = thinBar(points);
          if (bar) rules.push(bar);
        }
      }
    }
  });
  return rules.filter((r) => Math.hypot(r.x2 - r.x1, r.y2 - r.y1) >= MIN_LENGTH);
}

/** Subpaths as point lists (closed ones end at their start); null for any with curves. */
function subpaths(data: ArrayLike<number>): Array<Array<[number, number]>> {
  const paths: Array<Array<[number, number]> | null> = [];
  let current: Array<[number, number]> | null = null;
  for (let i = 0; i < data.length; ) {
    const op = data[i++];
    if (op === MOVE_TO) {
      current = [[data[i]!, data[i + 1]!]];
      paths.push(current);
      i += 2;
    } else if (op === LINE_TO) {
      current?.push([data[i]!, data[i + 1]!]);
      i += 2;
    } else if (op === CURVE_TO || op === QUADRATIC_TO) {
      // A rounded corner or a circle: not a rule.
      paths[paths.length - 1] = current = null;
      i += op === CURVE_TO ? 6 : 4;
    } else if (op === CLOSE) {
      if (current?.[0]) current.push(current[0]);
    } else break;
  }
  return paths.filter((p): p is Array<[number, number]> => Boolean(p && p.length >= 2));
}

const level = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.abs(a.y - b.y) < 0.5;
const upright = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.abs(a.x - b.x) < 0.5;

function straightSegments(points: Array<{ x: number; y: number }>): Rule[] {
  const rules: Rule[] = [];
  for (let k = 1; k < points.length; k++) {
    const a = points[k - 1]!;
    const b = points[k]!;
    if (level(a, b)) rules.push({ x1: Math.min(a.x, b.x), y1: a.y, x2: Math.max(a.x, b.x), y2: a.y });
    else if (upright(a, b)) rules.push({ x1: a.x, y1: Math.min(a.y, b.y), x2: a.x, y2: Math.max(a.y, b.y) });
  }
  return rules;
}

/** A filled axis-aligned rectangle at most MAX_BAR thick, as the line along its middle. */
function thinBar(points: Array<{ x: number; y: number }>): Rule | null {
  for (let k = 1; k < points.length; k++) if (!level(points[k - 1]!, points[k]!) && !upright(points[k - 1]!, points[k]!)) return null;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  if (bottom - top <= MAX_BAR && right - left > bottom - top) return { x1: left, y1: (top + bottom) / 2, x2: right, y2: (top + bottom) / 2 };
  if (right - left <= MAX_BAR && bottom - top > right - left) return { x1: (left + right) / 2, y1: top, x2: (left + right) / 2, y2: bottom };
  return null;
}
