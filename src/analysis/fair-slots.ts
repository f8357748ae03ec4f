import { AppError } from '../errors.ts';

/** Gives the slot back; later calls do nothing. */
export type Release = () => void;

export interface FairSlotsOptions {
  /** Slots in all (analyses that run at once). */
  size: number;
  /** Slots one group may hold at once: below `size`, the rest stay free for other groups. */
  perGroup: number;
  /** Requests one group may have waiting; past it `acquire` refuses (429). Unset: no limit. */
  maxWaitingPerGroup?: number;
}

/**
 * A fixed number of slots shared by groups (organizations), taken in
 * round-robin: when a slot frees, the next group in turn that has a request
 * waiting and holds fewer than `perGroup` slots gets it, and moves to the
 * back of the turn. One group's backlog therefore never makes another
 * group's request wait for more than the slots in use when it arrives.
 */
export class FairSlots {
  readonly #running = new Map<string, number>();
  /** Groups with waiting requests, in turn order (a Map keeps insertion order). */
  readonly #waiting = new Map<string, Array<(release: Release) => void>>();
  #inUse = 0;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly options: FairSlotsOptions) {}

  /** Slots not in use. */
  get free() {
    return this.options.size - this.#inUse;
  }

  /** Groups that hold all the slots a group may hold. */
  groupsAtLimit(): string[] {
    return [...this.#running].filter(([, count]) => count >= this.options.perGroup).map(([group]) => group);
  }

  /** Whether a request of `group` would get a slot at once. */
  canStart(group: string) {
    return this.free > 0 && (this.#running.get(group) ?? 0) < this.options.perGroup;
  }

  /** Waits for a slot for `group`; call the returned function when done with it. */
  acquire(group: string, options: { refuseWhenFull?: boolean } = {}): Promise<Release> {
    if (this.canStart(group) && !this.#waiting.has(group)) return Promise.resolve(this.#take(group));
    const queue = this.#waiting.get(group) ?? [];
    const { maxWaitingPerGroup } = this.options;
    if (options.refuseWhenFull && maxWaitingPerGroup !== undefined && queue.length >= maxWaitingPerGroup) {
      return Promise.reject(
        new AppError('TOO_MANY_REQUESTS', `Too many analyses: ${queue.length} of this organization's analyses are waiting to run, the limit; wait for them, or use analyze-async`),
      );
    }
    return new Promise((resolve) => {
      queue.push(resolve);
      this.#waiting.set(group, queue);
    });
  }

  /** Called whenever a slot frees (a queue intake uses it to look for work). */
  onRelease(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #take(group: string): Release {
    this.#inUse++;
    this.#running.set(group, (this.#running.get(group) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inUse--;
      const count = this.#running.get(group)! - 1;
      if (count) this.#running.set(group, count);
      else this.#running.delete(group);
      this.#dispatch();
      for (const listener of this.#listeners) listener();
    };
  }

  #dispatch() {
    for (const [group, queue] of this.#waiting) {
      if (this.free <= 0) return;
      if (!this.canStart(group)) continue;
      const next = queue.shift()!;
      // To the back of the turn (or out of it, with nothing left waiting).
      this.#waiting.delete(group);
      if (queue.length) this.#waiting.set(group, queue);
      next(this.#take(group));
    }
  }
}
