// Wallet reads dates in the W3C profile of ISO 8601 with a time and a zone:
// 2026-05-07T10:30-05:00, 2026-05-07T10:30:00Z. Offsets without a colon and
// fractional seconds make it refuse the pass.
const W3C_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(?:Z|[+-](\d{2}):(\d{2}))$/;
const FRACTION = /T\d{2}:\d{2}:\d{2}[.,]\d/;
const OFFSET_WITHOUT_COLON = /[+-]\d{4}$/;
const NO_ZONE = /T\d{2}:\d{2}(?::\d{2})?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_START = /^\d{4}-\d{2}-\d{2}/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Why `text` is not a W3C date Wallet reads, or `undefined` when it is one.
 *
 * @example
 * ```ts
 * w3cDateProblem('2026-05-07T10:30-05:00');   // undefined
 * w3cDateProblem('2026-05-07T10:30:00+0000'); // 'the time zone offset needs a colon (+00:00)'
 * ```
 */
export function w3cDateProblem(text: string): string | undefined {
  const match = W3C_DATE.exec(text);
  if (match === null) {
    if (FRACTION.test(text)) return 'fractional seconds are not allowed';
    if (OFFSET_WITHOUT_COLON.test(text)) return 'the time zone offset needs a colon (+00:00)';
    if (DATE_ONLY.test(text)) return 'a time and a time zone are required';
    if (NO_ZONE.test(text)) return 'a time zone is required (Z or ±hh:mm)';
    return 'expected YYYY-MM-DDThh:mm[:ss] followed by Z or ±hh:mm';
  }
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (day < 1 || day > days) return 'no such date in the calendar';
  if (Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59) return 'no such time of day';
  if (Number(match[7] ?? 0) > 23 || Number(match[8] ?? 0) > 59) return 'no such time zone offset';
  return undefined;
}

/**
 * Whether a text is meant as a date (it starts `YYYY-MM-DD`), so a problem in
 * it is a malformed date rather than a value that is not a date at all.
 *
 * @example
 * ```ts
 * looksLikeDate('2026-12-01 20:00'); // true
 * looksLikeDate('tomorrow');         // false
 * ```
 */
export function looksLikeDate(text: string): boolean {
  return DATE_START.test(text);
}
