import { describe, expect, it } from 'vitest';
import { idCardMrz, passportMrz } from '../helpers/sample-files.ts';
import { parseCalendarDate, parseDateOrDateTime } from '../../src/domain/dates.ts';
import { assertConsumerCaseTransition, CONSUMER_CASE_TRANSITIONS } from '../../src/domain/consumer-case-status.ts';
import * as rules from '../../src/domain/validation.ts';

describe('calendar dates', () => {
  it.each(['1990-02-28', '2000-02-29', '2024-12-31'])('accepts %s', (value) => {
    expect(parseCalendarDate(value)?.toISOString().slice(0, 10)).toBe(value);
  });
  it.each(['1990-02-29', '1990-02-30', '1990-13-01', '1990-00-10', '1990-1-1', '19900101', '1990-01-01T00:00:00Z', ''])('refuses %s', (value) => {
    expect(parseCalendarDate(value)).toBeNull();
  });
});

describe('dates or date-times', () => {
  it('reads a date as UTC midnight and keeps zones of date-times', () => {
    expect(parseDateOrDateTime('2026-12-01')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(parseDateOrDateTime('2026-12-01T17:30:00+02:00')?.toISOString()).toBe('2026-12-01T15:30:00.000Z');
    expect(parseDateOrDateTime('2026-12-01T17:30Z')?.toISOString()).toBe('2026-12-01T17:30:00.000Z');
  });
  it.each(['2026-02-30T10:00:00Z', '2026-12-01T25:00:00Z', '2026-12-01T10:00:00', 'tomorrow', '2026-12-01 10:00:00Z'])('refuses %s', (value) => {
    expect(parseDateOrDateTime(value)).toBeNull();
  });
});

describe('field rules', () => {
  it('normalises phone numbers to E.164 and refuses local or junk numbers', () => {
    expect(rules.phoneNumber.parse('+44 20 7946 0958')).toBe('+442079460958');
    expect(rules.phoneNumber.parse('+1 (415) 555-2671')).toBe('+14155552671');
    for (const bad of ['020 7946 0958', '+1', '+999 123', 'abc', '+44 20 7946 0958 ext']) {
      expect(rules.phoneNumber.safeParse(bad).success).toBe(false);
    }
  });
  it('accepts ISO 3166-1 alpha-2 codes only, upper-casing them', () => {
    expect(rules.countryCode.parse('de')).toBe('DE');
    for (const bad of ['XX', 'DEU', 'Germany', 'D', 'UK']) expect(rules.countryCode.safeParse(bad).success).toBe(false);
  });
  it('checks and lower-cases email addresses', () => {
    expect(rules.email.parse(' Ada@Example.COM ')).toBe('ada@example.com');
    for (const bad of ['ada', 'ada@', '@example.com', 'a b@example.com']) expect(rules.email.safeParse(bad).success).toBe(false);
  });
  it('refuses dates of birth in the future', () => {
    expect(rules.dateOfBirth.safeParse(new Date(Date.now() + 86_400_000)).success).toBe(false);
    expect(rules.dateOfBirth.safeParse(new Date('1990-01-01')).success).toBe(true);
  });
});

describe('consumer case lifecycle', () => {
  it('includes ACTIVE and VERIFIED, and ARCHIVED is final', () => {
    expect(Object.keys(CONSUMER_CASE_TRANSITIONS)).toEqual(expect.arrayContaining(['ACTIVE', 'VERIFIED']));
    expect(CONSUMER_CASE_TRANSITIONS.ARCHIVED).toEqual([]);
  });
  it('names the allowed moves when refusing one', () => {
    expect(() => assertConsumerCaseTransition('PENDING', 'VERIFIED')).toThrow(
      'status: cannot change from PENDING to VERIFIED; allowed from PENDING: INVITED, ACTIVE, IN_REVIEW, REJECTED, ARCHIVED',
    );
    expect(() => assertConsumerCaseTransition('ARCHIVED', 'ACTIVE')).toThrow(/none \(final state\)/);
    expect(() => assertConsumerCaseTransition('ACTIVE', 'VERIFIED')).not.toThrow();
    expect(() => assertConsumerCaseTransition('VERIFIED', 'VERIFIED')).not.toThrow();
  });
});

describe('file names', () => {
  it('keep the last path segment without control or path characters', async () => {
    const { sanitizeFileName } = await import('../../src/files/file-name.ts');
    expect(sanitizeFileName('../../etc/pass\u0000wd')).toBe('passwd');
    expect(sanitizeFileName('C:\\Users\\me\\scan 1.pdf')).toBe('scan 1.pdf');
    expect(sanitizeFileName('...hidden')).toBe('hidden');
    expect(sanitizeFileName('')).toBe('file');
    expect(sanitizeFileName('x'.repeat(500))).toHaveLength(200);
    expect(sanitizeFileName('Reisepass Mu\u0308ller.pdf')).toBe('Reisepass Müller.pdf');
  });
});

describe('printed dates on identity documents', () => {
  it('normalizes only what is unambiguous', async () => {
    const { printedDate } = await import('../../src/analysis/identity.ts');
    expect(printedDate('1985-03-10')).toBe('1985-03-10');
    expect(printedDate('10.03.1985')).toBe('1985-03-10');
    expect(printedDate('10 MAR 1985')).toBe('1985-03-10');
    expect(printedDate('31/03/1985')).toBe('1985-03-31');
    expect(printedDate('03/31/1985')).toBe('1985-03-31');
    expect(printedDate('03/04/1985')).toBeNull();
    expect(printedDate('31.02.1985')).toBeNull();
    expect(printedDate('soon')).toBeNull();
    expect(printedDate('03/04/1985', 'DMY')).toBe('1985-04-03');
    expect(printedDate('03/04/1985', 'MDY')).toBe('1985-03-04');
  });

  it('reads ambiguous dates in the order the document itself shows', async () => {
    const { dateOrder } = await import('../../src/analysis/identity.ts');
    // Another date on the document can be read only one way.
    expect(dateOrder({ birth: '03/04/1985', expiry: '25/06/2031' }, '')).toBe('DMY');
    expect(dateOrder({ birth: '03/04/1985', expiry: '06/25/2031' }, '')).toBe('MDY');
    // Only one order puts issue before expiry.
    expect(dateOrder({ issue: '12/01/2020', expiry: '11/02/2020' }, '')).toBe('DMY'); // DMY: 12 Jan → 11 Feb; MDY: 1 Dec → 2 Nov (backwards)
    // Both orders fit: the document's country, spelling or printed format decides.
    expect(dateOrder({ birth: '03/04/1985', expiry: '05/06/2031' }, 'USA DRIVER LICENSE')).toBe('MDY');
    expect(dateOrder({ birth: '03/04/1985', expiry: '05/06/2031' }, 'DRIVING LICENCE')).toBe('DMY');
    expect(dateOrder({ birth: '03/04/1985', expiry: '05/06/2031' }, 'Format: DD/MM/YYYY')).toBe('DMY');
    // Nothing tells (or the evidence contradicts itself): left un-normalized.
    expect(dateOrder({ birth: '03/04/1985', expiry: '05/06/2031' }, 'IDENTITY CARD')).toBeNull();
    expect(dateOrder({ birth: '13/04/1985', expiry: '05/16/2031' }, '')).toBeNull();
  });
});

describe('machine-readable zones as OCR reads them', () => {
  const holder = { lastName: 'DUPONT', firstNames: ['MARIE'], documentNumber: 'X4RTBPFW4', nationality: 'FRA', birthDate: '900716', sex: 'F' as const, expirationDate: '320101' };
  const read = async (lines: string[]) => (await import('../../src/analysis/identity.ts')).identityFromLines(lines.map((text) => ({ text, confidence: 80 })));

  it('drops a character read twice when exactly one deletion makes every check digit hold', async () => {
    const [line1, line2, line3] = idCardMrz(holder);
    const doubled = `${line1.slice(0, 9)}I${line1.slice(9)}`; // "X4RTIBPFW4...": a stroke read as an extra I
    const identity = await read([doubled, line2, line3]);
    expect(identity.mrz).toMatchObject({ valid: true, corrected: true, lines: [line1, line2, line3] });
  });

  it('fills an unreadable character from the check digits, and a letter in a digit position', async () => {
    const [line1, line2] = passportMrz({ ...holder, documentNumber: 'YA1234567' });
    const smudged = `${line2.slice(0, 27)}/${line2.slice(28, 42)}Q${line2.slice(43)}`; // expiry check digit as "/", a 0 as "Q"
    const identity = await read([line1, smudged]);
    expect(identity.mrz).toMatchObject({ valid: true, lines: [line1, line2] });
  });

  it('does not mend a changed digit that no misreading explains', async () => {
    const [line1, line2] = passportMrz({ ...holder, documentNumber: 'YA1234567' });
    const forged = `${line2.slice(0, 3)}7${line2.slice(4)}`;
    const identity = await read([line1, forged]);
    expect(identity.mrz).toMatchObject({ valid: false, corrected: false, read: [line1, forged] });
    expect(identity.mrz.checkDigits.documentNumber).toBe(false);
  });

  it('reports what it mended, and trusts mended fields less', async () => {
    // A changed digit that a look-alike swap (5 → S) happens to explain: the
    // check digits then hold, but the answer says so and the reviewer sees both readings.
    const [line1, line2] = passportMrz({ ...holder, documentNumber: 'YA1234567' });
    const forged = `${line2.slice(0, 3)}9${line2.slice(4)}`;
    const identity = await read([line1, forged]);
    expect(identity.mrz).toMatchObject({ valid: true, corrected: true, read: [line1, forged] });
    expect(identity.mrz.lines[1]).not.toBe(forged);
    const confidence = (type: string) => identity.fields.find((f) => f.Type.Text === type)!.ValueDetection.Confidence;
    expect(confidence('DOCUMENT_NUMBER')).toBe(70);
    expect(confidence('DATE_OF_BIRTH')).toBe(99);
  });
});
