// Query parameters that name a time are read with `Date`, which rolls a day
// the month does not have over into the next month (2026-02-30 becomes
// March 2): one check for every such parameter.

/**
 * Whether the `YYYY-MM-DD` a text starts with is a day the calendar has.
 *
 * @example
 * ```ts
 * isCalendarDay('2024-02-29T10:00:00Z'); // true
 * isCalendarDay('2026-02-30'); // false
 * ```
 */
export function isCalendarDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear puts them back.
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
