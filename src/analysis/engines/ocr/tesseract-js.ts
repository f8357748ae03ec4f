import eng from '@tesseract.js-data/eng';
import { imageSize } from 'image-size';
import { createWorker, type Worker } from 'tesseract.js';
import type { RecognizedWord } from '../../blocks.ts';
import { MRZ_ALPHABET, type OcrBackend } from './backend.ts';

/**
 * tesseract.js (WebAssembly) with the English data shipped in an npm package:
 * works everywhere with no download. It has no orientation data, so turned
 * pages are found by trying each turn (see recognize.ts).
 */
export function tesseractJs(): OcrBackend {
  let worker: Promise<Worker> | undefined;
  // The worker handles one image at a time; queue callers instead of failing.
  let queue: Promise<unknown> = Promise.resolve();
  const getWorker = () => (worker ??= createWorker('eng', 1, { langPath: eng.langPath, gzip: true, cacheMethod: 'none' }));
  function serial<T>(task: (ocr: Worker) => Promise<T>): Promise<T> {
    const run = queue.then(async () => task(await getWorker()));
    queue = run.catch(() => {});
    return run;
  }

  return {
    name: 'tesseract.js',
    async read(image) {
      const { width = 1, height = 1 } = imageSize(image);
      const { data } = await serial((ocr) => ocr.recognize(image, {}, { blocks: true }));
      const lines: RecognizedWord[][] = [];
      for (const block of data.blocks ?? []) {
        for (const paragraph of block.paragraphs) {
          for (const line of paragraph.lines) {
            lines.push(
              line.words.map((word) => ({
                text: word.text,
                confidence: word.confidence,
                box: { left: word.bbox.x0, top: word.bbox.y0, width: word.bbox.x1 - word.bbox.x0, height: word.bbox.y1 - word.bbox.y0 },
              })),
            );
          }
        }
      }
      return { width, height, lines };
    },
    async readMrz(image, rectangle) {
      const { data } = await serial(async (ocr) => {
        await ocr.setParameters({ tessedit_char_whitelist: MRZ_ALPHABET });
        try {
          return await ocr.recognize(image, { rectangle });
        } finally {
          await ocr.setParameters({ tessedit_char_whitelist: '' });
        }
      });
      return data.text.split('\n').map((line) => line.trim()).filter(Boolean);
    },
    async stop() {
      const current = worker;
      worker = undefined;
      if (current) await (await current).terminate();
    },
  };
}
