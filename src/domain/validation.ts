import countries from 'i18n-iso-countries';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { z } from 'zod';

// Shared field rules. Each message is phrased to follow "<field>: ".

export const email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'))
  .transform((value) => value.toLowerCase());

/** Text shown on one line (names in emails, notes, pages): no line breaks or other control characters. */
export const oneLine = <T extends z.ZodType<string>>(schema: T) =>
  schema.refine((value) => !/[\p{Cc}\p{Cf}]/u.test(value), { message: 'must not contain control characters' });

export const personName = oneLine(z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters'));

/** International format with country code; stored as E.164 (+14155550123). */
export const phoneNumber = z.string().transform((value, ctx) => {
  const trimmed = value.trim();
  const parsed = /^\+[\d\s().-]+$/.test(trimmed) ? parsePhoneNumberFromString(trimmed) : undefined;
  if (!parsed || !parsed.isValid()) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a valid phone number in international format, e.g. +14155550123',
    });
    return z.NEVER;
  }
  return parsed.number;
});

/** ISO 3166-1 alpha-2, any case on input, upper case stored. */
export const countryCode = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => /^[A-Z]{2}$/.test(value) && countries.isValid(value), {
    message: 'must be an ISO 3166-1 alpha-2 country code, e.g. DE',
  });

export const dateOfBirth = z
  .date()
  .refine((value) => value.getTime() <= Date.now(), { message: 'must not be in the future' })
  .refine((value) => value.getUTCFullYear() >= 1900, { message: 'must not be before 1900-01-01' });

export const uuid = z.uuid('must be a UUID');

export const shortText = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** A postal address (business and consumer cases). */
export const address = z.strictObject(
  {
    line1: shortText(200),
    line2: shortText(200).nullish(),
    city: shortText(100),
    region: shortText(100).nullish(),
    postalCode: shortText(20).nullish(),
    country: countryCode,
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : undefined) },
);

export type Address = z.infer<typeof address>;


export const userId = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters')
  .regex(/^[\w.@:+-]*$/, 'may contain only letters, digits and . _ @ : + -');

export const searchText = z.string().trim().max(200, 'must be at most 200 characters');

/** One of an enum's values; null gets "must not be null". */
export const enumValue = <Values extends Record<string, string>>(values: Values) =>
  z.enum(values, {
    error: (issue) => (issue.input === null ? 'must not be null' : `must be one of ${Object.values(values).join(', ')}`),
  });

/** Optional on update, but null is refused (the column is required). */
export const notNull = <T extends z.ZodType>(schema: T) => schema.optional();

// zod's own wording for type mismatches, in the API's wording.
function plainMessage(message: string): string {
  if (/received null$/.test(message)) return 'must not be null';
  if (/received undefined$/.test(message)) return 'is required';
  return message;
}

type IssuePath = ReadonlyArray<PropertyKey | { key: PropertyKey }>;

/** "email: must be a valid email address; dateOfBirth: must not be in the future" */
export function formatIssues(issues: ReadonlyArray<{ message: string; path?: IssuePath }>): string {
  return issues
    .map((issue) => {
      const keys = (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part));
      // Argument wrappers such as `input` say nothing to the client.
      const field = keys.filter((key) => key !== 'input').join('.');
      const message = plainMessage(issue.message);
      return field ? `${field}: ${message}` : message;
    })
    .join('; ');
}

/** The first message for each field, keyed by its dotted path ("address.city"), for forms that show them inline. */
export function issuesByField(issues: ReadonlyArray<{ message: string; path?: IssuePath }>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const field = (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)).join('.');
    fields[field] ??= plainMessage(issue.message);
  }
  return fields;
}
