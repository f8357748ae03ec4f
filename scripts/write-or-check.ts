import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Writes a generated file, or with --check on the command line fails when the committed one differs. */
export function writeOrCheck(target: URL, content: string, regenerate: string) {
  if (!process.argv.includes('--check')) return writeFileSync(target, content);
  if (readFileSync(target, 'utf8') !== content) {
    console.error(`${fileURLToPath(target)} is out of date: run ${regenerate}`);
    process.exit(1);
  }
}
