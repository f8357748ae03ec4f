import { once } from 'node:events';
import pg from 'pg';

/** A client-side limit on queries: `applies` picks which (default: all). */
export interface QueryTimeout {
  ms: number;
  applies?: () => boolean;
}

export interface ConnectionPoolConfig extends pg.PoolConfig {
  /**
   * Past `ms` without an answer a query fails ("Query read timeout") and its
   * connection is closed: PostgreSQL may not answer at all (paused, network
   * gone), and a connection with a query in flight serves nothing else.
   */
  queryTimeout?: QueryTimeout;
}

/**
 * A pg pool whose `end()` resolves once its connections have closed. pg's own
 * resolves as soon as it has asked them to close, so a PostgreSQL stopped right
 * after (the embedded one, at shutdown) terminates connections that are still
 * open and their clients report "terminating connection due to administrator
 * command".
 */
export class ConnectionPool extends pg.Pool {
  readonly #open = new Set<pg.Client>();

  constructor({ queryTimeout, ...config }: ConnectionPoolConfig) {
    super(queryTimeout ? { ...config, Client: timedClient(queryTimeout) } : config);
    this.on('connect', (client) => {
      this.#open.add(client);
      client.once('end', () => this.#open.delete(client));
    });
  }

  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(callback?: (error?: Error) => void): Promise<void> | void {
    const closed = super.end().then(() => this.#closed());
    if (!callback) return closed;
    void closed.then(() => callback(), callback);
  }

  async #closed() {
    await Promise.all([...this.#open].map((client) => once(client, 'end')));
  }
}

const READ_TIMEOUT = 'Query read timeout';

/** A pg client whose queries (those `timeout.applies` to) carry pg's `query_timeout`, and that closes its connection when one passes. */
function timedClient(timeout: QueryTimeout): typeof pg.Client {
  return class TimedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // Closing the connection below fails its queries (which their callers see);
      // the client's own error event then has no one else to tell while it is checked out.
      this.on('error', () => {});
    }

    override query(...args: unknown[]): never {
      const [config] = args;
      if (!timeout.applies || timeout.applies()) {
        if (typeof config === 'string') args[0] = { text: config, query_timeout: timeout.ms };
        else if (config && typeof config === 'object' && typeof (config as { submit?: unknown }).submit !== 'function') args[0] = { ...config, query_timeout: timeout.ms };
      }
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (error: Error | undefined, result: unknown) => {
          this.#closeAfter(error);
          callback(error, result);
        };
      }
      const result = (super.query as (...queryArgs: unknown[]) => unknown)(...args);
      if (result instanceof Promise) result.catch((error: Error) => this.#closeAfter(error));
      return result as never;
    }

    #closeAfter(error: Error | undefined) {
      // After pg has finished with the query it gave up on.
      if (error?.message === READ_TIMEOUT) process.nextTick(() => this.connection.stream.destroy());
    }
  };
}
