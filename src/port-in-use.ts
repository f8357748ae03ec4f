import { StartupProblem } from './startup-problem.ts';

/**
 * A port the service needs at start is taken: says which setting names it, so
 * the one line an operator reads is the fix (src/server.ts prints it rather
 * than a stack).
 */
export class PortInUseError extends StartupProblem {
  constructor(
    setting: string,
    readonly port: number,
  ) {
    super(setting, `Port ${port} is already in use (${setting}): stop what listens there, or set ${setting} to a free port`, { port });
    this.name = 'PortInUseError';
  }
}

/** Node's "address in use" error, as net and http servers report it. */
export const isAddressInUse = (error: unknown) => (error as { code?: string } | null)?.code === 'EADDRINUSE';

/** `start()`, with an address-in-use failure reported as the setting's. */
export async function onPort<T>(setting: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    throw isAddressInUse(error) ? new PortInUseError(setting, port) : error;
  }
}
