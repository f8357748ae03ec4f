import { type DestinationStream, pino, type Logger } from 'pino';
import { currentRequestId } from './http/request-scope.ts';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      // Every line written while serving a request carries its id.
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    destination,
  );
}
