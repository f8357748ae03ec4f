import { once } from 'node:events';
import pg from 'pg';

/**
 * A pg pool whose `end()` resolves once its connections have closed. pg's own
 * resolves as soon as it has asked them to close, so a PostgreSQL stopped right
 * after (the embedded one, at shutdown) terminates connections that are still
 * open and their clients report "terminating connection due to administrator
 * command".
 */
export class ConnectionPool extends pg.Pool {
  readonly #open = new Set<pg.Client>();

  constructor(config: pg.PoolConfig) {
    super(config);
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
