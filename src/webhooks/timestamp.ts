const SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * A time as an event's `created`: `YYYY-MM-DDTHH:MM:SSZ`, UTC, fractions dropped.
 * Throws a `RangeError` for an invalid date or a year outside 0000–9999.
 *
 * @example
 * ```ts
 * formatEventTime(new Date('2025-03-01T12:00:00.750Z')); // '2025-03-01T12:00:00Z'
 * ```
 */
export function formatEventTime(time: Date | number): string {
  const text = new Date(time).toISOString(); // throws RangeError for an invalid date
  if (text.length !== 24) throw new RangeError(`Year outside 0000–9999: ${text}`);
  return `${text.slice(0, 19)}Z`;
}

/**
 * Milliseconds since the epoch of an exact `YYYY-MM-DDTHH:MM:SSZ` text naming a
 * real moment; `undefined` for anything else (fractions, offsets, 2025-02-30 …).
 *
 * @example
 * ```ts
 * parseEventTime('1970-01-01T00:00:01Z'); // 1000
 * parseEventTime('2025-02-30T00:00:00Z'); // undefined
 * ```
 */
export function parseEventTime(text: string): number | undefined {
  if (!SHAPE.test(text)) return undefined;
  const time = Date.parse(text);
  // Round-tripping rejects dates some engines roll over (Feb 30 → Mar 2).
  return Number.isNaN(time) || formatEventTime(time) !== text ? undefined : time;
}
