import * as rules from '../domain/validation.ts';
import { notFound } from '../errors.ts';

/**
 * Loads a row by id through the organization-scoped client, or answers 404.
 * A malformed id cannot exist either, so it gets the same answer, and another
 * organization's id is indistinguishable from a missing one.
 */
export async function findOr404<Row>(label: string, id: string, load: (id: string) => Promise<Row | null>): Promise<Row> {
  const row = rules.uuid.safeParse(id).success ? await load(id) : null;
  if (!row) throw notFound(`${label} ${id} not found`);
  return row;
}
