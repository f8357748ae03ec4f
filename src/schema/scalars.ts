import { GraphQLError, Kind } from 'graphql';
import { builder } from '../builder.ts';
import { formatCalendarDate, parseCalendarDate, parseDateOrDateTime } from '../domain/dates.ts';

function parseWith(parse: (value: string) => Date | null, expected: string) {
  return (value: unknown): Date => {
    const parsed = typeof value === 'string' ? parse(value) : null;
    if (!parsed) throw new GraphQLError(`must be ${expected}`);
    return parsed;
  };
}

const parseDate = parseWith(parseCalendarDate, 'a real calendar date in YYYY-MM-DD format');

builder.scalarType('Date', {
  description: 'A calendar date, YYYY-MM-DD (ISO 8601).',
  serialize: (value) => formatCalendarDate(value),
  parseValue: parseDate,
  parseLiteral: (ast) => parseDate(ast.kind === Kind.STRING ? ast.value : null),
});

const parseDateTime = parseWith(
  parseDateOrDateTime,
  'an ISO 8601 date (YYYY-MM-DD) or date-time with time zone (e.g. 2026-01-31T17:00:00Z)',
);

builder.scalarType('JSON', {
  description: 'Any JSON value (used for Textract-shaped block lists, which keep AWS field names).',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.scalarType('DateTime', {
  description: 'An instant, ISO 8601 in UTC on output; a date (UTC midnight) or a date-time with zone on input.',
  serialize: (value) => value.toISOString(),
  parseValue: parseDateTime,
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : null),
});
