import { z } from 'zod';
import { countryCode, shortText } from './validation.ts';

// Field rules of business cases and their parties. Messages follow "<field>: ".

/** NAICS sectors (the first two digits); 31-33, 44-45 and 48-49 are one sector each. */
const NAICS_SECTORS = new Set(['11', '21', '22', '23', '31', '32', '33', '42', '44', '45', '48', '49', '51', '52', '53', '54', '55', '56', '61', '62', '71', '72', '81', '92']);

export const naicsCode = z
  .string()
  .trim()
  .refine((value) => /^\d{2,6}$/.test(value) && NAICS_SECTORS.has(value.slice(0, 2)), {
    message: 'must be a NAICS code: 2 to 6 digits starting with a NAICS sector, e.g. 541511',
  });

export const websiteUrl = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.') && !url.username && !url.password;
      } catch {
        return false;
      }
    },
    { message: 'must be an http(s) URL with a domain name, e.g. https://example.com' },
  );

/** ISO 3166-2: the country code, a hyphen, and 1 to 3 letters or digits (US-DE, GB-SCT, FR-75). */
export const subdivisionCode = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => /^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(value), { message: 'must be an ISO 3166-2 code, e.g. US-DE' });

const identifier = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[\p{L}\p{N}][\p{L}\p{N} ./-]*$/u, 'may contain only letters, digits, spaces and . / -');

export const registrationNumber = identifier(50);
export const taxId = identifier(30).refine((value) => (value.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 4, {
  message: 'must have at least 4 letters or digits',
});

export const legalName = shortText(300);

export const riskScore = z.number().min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100');

export const incorporationDate = z
  .date()
  .refine((value) => value.getTime() <= Date.now(), { message: 'must not be in the future' })
  .refine((value) => value.getUTCFullYear() >= 1600, { message: 'must not be before 1600-01-01' });

/** A share in percent: above 0, at most 100, at most 4 decimals. */
export const percentage = z
  .number()
  .refine((value) => Number.isFinite(value) && value > 0 && value <= 100, { message: 'must be a number above 0 and at most 100' })
  .refine((value) => Math.abs(value * 1e4 - Math.round(value * 1e4)) < 1e-6, { message: 'must have at most 4 decimals' });
