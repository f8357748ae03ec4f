import { z } from 'zod';
import { formatCalendarDate, parseCalendarDate } from '../domain/dates.ts';
import * as rules from '../domain/validation.ts';

export type FieldType = 'text' | 'date' | 'tel' | 'country';

export interface OnboardingField {
  /** Flat name; address parts are `address.<part>`. */
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
}

/** What the onboarding form asks for, in page order. */
export const ONBOARDING_FIELDS: readonly OnboardingField[] = [
  { name: 'firstName', label: 'First name', type: 'text', required: true },
  { name: 'lastName', label: 'Last name', type: 'text', required: true },
  { name: 'dateOfBirth', label: 'Date of birth', type: 'date', required: true },
  { name: 'phoneNumber', label: 'Phone number', type: 'tel', required: true },
  { name: 'nationality', label: 'Nationality', type: 'country', required: true },
  { name: 'address.line1', label: 'Address line 1', type: 'text', required: true },
  { name: 'address.line2', label: 'Address line 2 (optional)', type: 'text', required: false },
  { name: 'address.city', label: 'City', type: 'text', required: true },
  { name: 'address.region', label: 'State or region (optional)', type: 'text', required: false },
  // Not every country has postal codes (Hong Kong, the UAE, ...).
  { name: 'address.postalCode', label: 'Postal code', type: 'text', required: false },
  { name: 'address.country', label: 'Country', type: 'country', required: true },
];

const FIELD_NAMES = new Set(ONBOARDING_FIELDS.map((field) => field.name));

export type FlatValues = Record<string, string | null>;

/** The case columns the form shows. */
export interface CaseValues {
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: Date | null;
  phoneNumber: string | null;
  nationality: string | null;
  address: unknown;
}

/** The case's current values under the form's flat names. */
export function valuesOfCase(consumerCase: CaseValues): FlatValues {
  const address = (consumerCase.address ?? {}) as Partial<Record<string, string | null>>;
  return {
    firstName: consumerCase.firstName,
    lastName: consumerCase.lastName,
    dateOfBirth: consumerCase.dateOfBirth ? formatCalendarDate(consumerCase.dateOfBirth) : null,
    phoneNumber: consumerCase.phoneNumber,
    nationality: consumerCase.nationality,
    'address.line1': address.line1 ?? null,
    'address.line2': address.line2 ?? null,
    'address.city': address.city ?? null,
    'address.region': address.region ?? null,
    'address.postalCode': address.postalCode ?? null,
    'address.country': address.country ?? null,
  };
}

/** A draft may be partial and wrong; it is only kept, so it is only bounded. */
export const DraftValues = z
  .record(z.string(), z.string().max(500, 'must be at most 500 characters').nullable())
  .refine((values) => Object.keys(values).every((name) => FIELD_NAMES.has(name)), { message: 'contains an unknown field' });

/** The draft's entries over the case's values: what the person typed last wins. */
export function currentValues(consumerCase: CaseValues, draft: unknown): FlatValues {
  const parsed = DraftValues.safeParse(draft ?? {});
  return { ...valuesOfCase(consumerCase), ...(parsed.success ? parsed.data : {}) };
}

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value ?? undefined);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
// A missing value reads "is required" (issuesByField words zod's "received undefined" so).
const required = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema);

const calendarDate = z.string().transform((value, ctx) => {
  const date = parseCalendarDate(value.trim());
  if (!date) {
    ctx.addIssue({ code: 'custom', message: 'must be a date in the form YYYY-MM-DD' });
    return z.NEVER;
  }
  return date;
});

/** The submitted form, every field checked at once; field paths are the form's flat names. */
const Submission = z.object({
  firstName: required(rules.personName),
  lastName: required(rules.personName),
  dateOfBirth: required(calendarDate.pipe(rules.dateOfBirth)),
  phoneNumber: required(rules.phoneNumber),
  nationality: required(rules.countryCode),
  'address.line1': required(rules.shortText(200)),
  'address.line2': optional(rules.shortText(200)),
  'address.city': required(rules.shortText(100)),
  'address.region': optional(rules.shortText(100)),
  'address.postalCode': optional(rules.shortText(20)),
  'address.country': required(rules.countryCode),
});

export interface SubmittedPerson {
  firstName: string;
  lastName: string;
  dateOfBirth: Date;
  phoneNumber: string;
  nationality: string;
  address: rules.Address;
}

/** The person's details, or the problems keyed by field name. */
export function parseSubmission(values: unknown): { person: SubmittedPerson } | { fields: Record<string, string> } {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return { fields: { values: 'must be an object of field values' } };
  const unknown = Object.keys(values).filter((name) => !FIELD_NAMES.has(name));
  const parsed = Submission.safeParse(values);
  const fields = parsed.success ? {} : rules.issuesByField(parsed.error.issues);
  for (const name of unknown) fields[name] = 'is not a field of this form';
  if (!parsed.success || unknown.length) return { fields };
  const value = parsed.data;
  return {
    person: {
      firstName: value.firstName,
      lastName: value.lastName,
      dateOfBirth: value.dateOfBirth,
      phoneNumber: value.phoneNumber,
      nationality: value.nationality,
      address: {
        line1: value['address.line1'],
        line2: value['address.line2'] ?? null,
        city: value['address.city'],
        region: value['address.region'] ?? null,
        postalCode: value['address.postalCode'] ?? null,
        country: value['address.country'],
      },
    },
  };
}

/** "Jane Q. Public" → first "Jane Q.", last "Public": a starting point the person corrects on the form. */
export function splitFullName(fullName: string): { firstName: string | null; lastName: string | null } {
  const parts = fullName.trim().split(/\s+/);
  if (parts.length < 2) return { firstName: parts[0] || null, lastName: null };
  return { firstName: parts.slice(0, -1).join(' '), lastName: parts.at(-1)! };
}
