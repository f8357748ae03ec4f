import anyAscii from 'any-ascii';
import type { IdentityResult } from '../analysis/identity.ts';
import { formatCalendarDate } from '../domain/dates.ts';

export interface SubmittedIdentity {
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: Date | null;
}

export type ComparisonOutcome = 'MATCH' | 'MISMATCH' | 'NOT_READ';

export interface FieldComparison {
  field: 'lastName' | 'firstName' | 'dateOfBirth';
  submitted: string | null;
  onDocument: string | null;
  outcome: ComparisonOutcome;
}

// Documents print names in capitals without accents (MRZ: A-Z only), so compare that way.
const nameKey = (value: string) => anyAscii(value).toUpperCase().replace(/[^A-Z]+/g, ' ').trim();

function fieldText(identity: IdentityResult, type: string): string | null {
  const field = identity.fields.find((candidate) => candidate.Type.Text === type);
  const text = field?.ValueDetection.NormalizedValue?.Value ?? field?.ValueDetection.Text;
  return text && text.trim() ? text.trim() : null;
}

/**
 * What the identity document says against what the person typed. Given names
 * match when every typed name appears on the document (middle names may be
 * left out on the form); dates compare as calendar days.
 */
export function compareIdentity(submitted: SubmittedIdentity, identity: IdentityResult): FieldComparison[] {
  const lastOnDocument = fieldText(identity, 'LAST_NAME');
  // Textract (and our engine) give the first given name and the rest apart.
  const givenNames = [fieldText(identity, 'FIRST_NAME'), fieldText(identity, 'MIDDLE_NAME')].filter(Boolean);
  const firstOnDocument = givenNames.length ? givenNames.join(' ') : null;
  // Only a date the analysis could normalise is comparable.
  const birth = identity.fields.find((candidate) => candidate.Type.Text === 'DATE_OF_BIRTH');
  const birthOnDocument = birth?.ValueDetection.NormalizedValue?.Value.slice(0, 10) ?? null;
  const birthSubmitted = submitted.dateOfBirth ? formatCalendarDate(submitted.dateOfBirth) : null;
  const outcome = (read: string | null, same: () => boolean): ComparisonOutcome => (!read ? 'NOT_READ' : same() ? 'MATCH' : 'MISMATCH');
  return [
    {
      field: 'lastName', submitted: submitted.lastName, onDocument: lastOnDocument,
      outcome: outcome(lastOnDocument, () => nameKey(lastOnDocument!) === nameKey(submitted.lastName ?? '')),
    },
    {
      field: 'firstName', submitted: submitted.firstName, onDocument: firstOnDocument,
      outcome: outcome(firstOnDocument, () => {
        const onDocument = new Set(nameKey(firstOnDocument!).split(' '));
        const typed = nameKey(submitted.firstName ?? '').split(' ').filter(Boolean);
        return typed.length > 0 && typed.every((name) => onDocument.has(name));
      }),
    },
    {
      field: 'dateOfBirth', submitted: birthSubmitted, onDocument: birthOnDocument,
      outcome: outcome(birthOnDocument, () => birthOnDocument === birthSubmitted),
    },
  ];
}
