/**
 * A start-up failure the operator fixes with a setting (a port in use, a data
 * folder PostgreSQL cannot enter or that a server on another port holds):
 * src/server.ts prints its message as one line naming the setting, no stack.
 */
export class StartupProblem extends Error {
  constructor(
    readonly setting: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'StartupProblem';
  }
}
