import { invalidInput } from '../errors.ts';

/** Throws a 400 naming the allowed targets unless `from → to` is allowed (staying put is). */
export function assertTransition<Status extends string>(transitions: Readonly<Record<Status, readonly Status[]>>, from: Status, to: Status): void {
  if (from === to || transitions[from].includes(to)) return;
  const allowed = transitions[from];
  throw invalidInput(
    `status: cannot change from ${from} to ${to}; allowed from ${from}: ${allowed.length ? allowed.join(', ') : 'none (final state)'}`,
  );
}
