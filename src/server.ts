import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { startService } from './service.ts';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
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
