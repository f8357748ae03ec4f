import { parsePrismaCursor } from '@pothos/plugin-prisma';
import type { SelectedField } from './operation-walk.ts';

// Connections (@pothos/plugin-relay over Prisma) refuse a negative `first`
// or `last` and a cursor they cannot decode only when they run, with an
// untyped error (a 500), after the rest of the operation has run. Checked
// with the rest before execution instead, so the whole operation is a 400.

const isCursor = (value: unknown) => {
  try {
    parsePrismaCursor(value);
    return true;
  } catch {
    return false;
  }
};

/** Why a connection's paging arguments are invalid, or undefined when they are fine (and for other fields). */
export function connectionArgsProblem({ definition, path, args }: SelectedField): string | undefined {
  const names = new Set(definition.args.map((arg) => arg.name));
  if (!names.has('first') && !names.has('last')) return undefined;
  const at = path.join('.');
  for (const name of ['first', 'last'] as const) {
    const value = args[name];
    if (names.has(name) && value != null && (typeof value !== 'number' || value < 0)) return `${at}: "${name}" must be a non-negative integer`;
  }
  for (const name of ['after', 'before'] as const) {
    const value = args[name];
    if (names.has(name) && value != null && !isCursor(value)) return `${at}: "${name}" is not a cursor this connection gave out`;
  }
  return undefined;
}
