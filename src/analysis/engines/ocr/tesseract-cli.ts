import { execFileSync, spawn } from 'node:child_process';
import type { RecognizedPage, RecognizedWord } from '../../blocks.ts';
import { crop } from '../raster.ts';
import { MRZ_ALPHABET, type OcrBackend, type QuarterTurn } from './backend.ts';

/**
 * The `tesseract` program (Debian's tesseract-ocr): native code, faster and
 * more accurate than the WebAssembly build, and with the `osd` data it tells
 * a page's orientation in one pass.
 */
export function tesseractCli(program = 'tesseract'): OcrBackend {
  const hasOrientationData = installedLanguages(program)?.includes('osd') ?? false;
  return {
    name: 'tesseract',
    async read(image) {
      return parseTsv(await run(program, ['stdin', 'stdout', 'tsv'], image));
    },
    async readMrz(image, rectangle) {
      const text = await run(program, ['stdin', 'stdout', '--psm', '6', '-c', `tessedit_char_whitelist=${MRZ_ALPHABET}`], await crop(image, rectangle));
      return text.split('\n').map((line) => line.trim()).filter(Boolean);
    },
    uprightTurn: hasOrientationData
      ? async (image) => {
          let report: string;
          try {
            report = await run(program, ['stdin', 'stdout', '--psm', '0'], image);
          } catch {
            return null; // "Too few characters": nothing to orient by.
          }
          const rotate = Number(/^Rotate: (\d+)/m.exec(report)?.[1]);
          const confidence = Number(/^Orientation confidence: ([\d.]+)/m.exec(report)?.[1]);
          // A weak guess (sparse or odd text) is worse than none: the caller then keeps the page as read.
          if (![0, 90, 180, 270].includes(rotate) || !(confidence >= 2)) return null;
          return rotate as QuarterTurn;
        }
      : undefined,
    stop: async () => {},
  };
}

/** The languages the program can read, or null when it is not installed. */
export function installedLanguages(program = 'tesseract'): string[] | null {
  try {
    const output = execFileSync(program, ['--list-langs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 });
    return output.split('\n').slice(1).map((line) => line.trim()).filter(Boolean);
  } catch {
    return null;
  }
}

function run(program: string, args: string[], input: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    // One thread: its OpenMP threads slow it down on small machines, and analyses run one at a time anyway.
    const child = spawn(program, args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`tesseract exited with ${code}: ${Buffer.concat(err).toString('utf8').trim().split('\n').at(-1)}`));
    });
    child.stdin.on('error', () => {}); // It may exit before reading everything; the exit code tells.
    child.stdin.end(input);
  });
}

/** Tesseract's TSV: one row per word (level 5) with page/block/paragraph/line numbers and a pixel box. */
export function parseTsv(tsv: string): RecognizedPage {
  const rows = tsv.split('\n').slice(1).map((line) => line.split('\t')).filter((cells) => cells.length >= 12);
  const page = rows.find((cells) => cells[0] === '1');
  const lines = new Map<string, RecognizedWord[]>();
  for (const [level, pageNumber, block, paragraph, line, , left, top, width, height, confidence, ...text] of rows) {
    const word = text.join('\t').trim();
    if (level !== '5' || !word) continue;
    const key = `${pageNumber}/${block}/${paragraph}/${line}`;
    if (!lines.has(key)) lines.set(key, []);
    lines.get(key)!.push({
      text: word,
      confidence: Math.max(0, Number(confidence)),
      box: { left: Number(left), top: Number(top), width: Number(width), height: Number(height) },
    });
  }
  return { width: Number(page?.[8] ?? 1), height: Number(page?.[9] ?? 1), lines: [...lines.values()] };
}
