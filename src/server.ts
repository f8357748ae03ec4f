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

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
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
