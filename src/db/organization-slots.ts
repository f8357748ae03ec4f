import { AppError } from '../errors.ts';

/** The 503 (with Retry-After, src/http/app.ts) for an organization that already uses its share of the request pool. */
export const organizationBusy = (cap: number) =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    `The service is busy: your organization already has ${cap} requests using the database at once (REQUEST_CONNECTIONS_PER_ORGANIZATION); try again shortly`,
  );

interface Waiter {
  resolve: () => void;
  timer: NodeJS.Timeout;
}

/**
 * How many request connections each organization holds, at most `cap` at
 * once: one organization's slow requests then leave the rest of the pool to
 * the others. A request past the cap waits (first come, first served, holding
 * no connection) for one of its organization's to end, at most `waitMs`.
 */
export class OrganizationSlots {
  readonly #held = new Map<string, number>();
  readonly #waiting = new Map<string, Waiter[]>();

  constructor(
    readonly cap: number,
    readonly waitMs: number,
  ) {}

  /** Takes a slot if one is free now. */
  tryTake(organizationId: string): boolean {
    const held = this.#held.get(organizationId) ?? 0;
    if (held >= this.cap || this.#waiting.has(organizationId)) return false;
    this.#held.set(organizationId, held + 1);
    return true;
  }

  /** Waits for a slot; past `waitMs`, the 503 naming the cap. */
  take(organizationId: string): Promise<void> {
    if (this.tryTake(organizationId)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const queue = this.#waiting.get(organizationId) ?? [];
      this.#waiting.set(organizationId, queue);
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          this.#leave(organizationId, waiter);
          reject(organizationBusy(this.cap));
        }, this.waitMs),
      };
      queue.push(waiter);
    });
  }

  /** Gives a slot back: to the organization's next waiter, if any. */
  give(organizationId: string): void {
    const next = this.#waiting.get(organizationId)?.[0];
    if (next) {
      // The slot passes on as it is: the count held stays.
      this.#leave(organizationId, next);
      clearTimeout(next.timer);
      next.resolve();
      return;
    }
    const held = (this.#held.get(organizationId) ?? 1) - 1;
    if (held > 0) this.#held.set(organizationId, held);
    else this.#held.delete(organizationId);
  }

  #leave(organizationId: string, waiter: Waiter) {
    const queue = this.#waiting.get(organizationId) ?? [];
    const remaining = queue.filter((w) => w !== waiter);
    if (remaining.length) this.#waiting.set(organizationId, remaining);
    else this.#waiting.delete(organizationId);
  }
}
