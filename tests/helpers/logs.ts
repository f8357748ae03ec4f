import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger.ts';

/** A logger at `info` whose JSON lines are kept in `lines`, for tests that read the logs. */
export function capturedLogs() {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } });
  return { logger: createLogger('info', sink), lines };
}
