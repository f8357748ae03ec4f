const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// ISO 8601 date-time with seconds optional, fraction optional, and a zone.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `YYYY-MM-DD` that names a real day, as UTC midnight; else null. */
export function parseCalendarDate(value: string): Date | null {
  const match = DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isCalendarDate(year, month, day) ? new Date(Date.UTC(year, month - 1, day)) : null;
}

/** An ISO 8601 date (UTC midnight) or date-time with zone; else null. */
export function parseDateOrDateTime(value: string): Date | null {
  const dateOnly = parseCalendarDate(value);
  if (dateOnly) return dateOnly;
  const match = DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  if (!isCalendarDate(year!, month!, day!) || hour! > 23 || minute! > 59 || second! > 59) return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

export function formatCalendarDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
