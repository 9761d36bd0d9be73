const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const imfFixdate = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const rfc850 = /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const asctime = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/**
 * An HTTP date (RFC 9110 §5.6.7, IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`.
 * Milliseconds are dropped, as the format has none.
 *
 * @example
 * ```ts
 * formatHttpDate(Date.UTC(1994, 10, 6, 8, 49, 37)); // 'Sun, 06 Nov 1994 08:49:37 GMT'
 * ```
 */
export function formatHttpDate(time: number): string {
  const date = new Date(time);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return (
    `${days[date.getUTCDay()]}, ${pad(date.getUTCDate())} ${months[date.getUTCMonth()]} ` +
    `${String(date.getUTCFullYear()).padStart(4, '0')} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} GMT`
  );
}

/**
 * Milliseconds since the epoch of an HTTP date in any of the three forms a
 * recipient must accept (IMF-fixdate, RFC 850, asctime), or `undefined` for
 * anything else — an invalid `If-Modified-Since` is ignored (RFC 9110 §13.1.3).
 *
 * @example
 * ```ts
 * parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'); // 784111777000
 * parseHttpDate('yesterday'); // undefined
 * ```
 */
export function parseHttpDate(text: string): number | undefined {
  let day: string, month: string, year: number, hour: string, minute: string, second: string;
  let match = imfFixdate.exec(text);
  if (match !== null) {
    [, day = '', month = '', , hour = '', minute = '', second = ''] = match;
    year = Number(match[3]);
  } else if ((match = rfc850.exec(text)) !== null) {
    [, day = '', month = '', , hour = '', minute = '', second = ''] = match;
    // A two-digit year more than 50 years ahead is in the past century (RFC 9110 §5.6.7).
    const twoDigit = Number(match[3]);
    const thisYear = new Date().getUTCFullYear();
    year = 2000 + twoDigit > thisYear + 50 ? 1900 + twoDigit : 2000 + twoDigit;
  } else if ((match = asctime.exec(text)) !== null) {
    [, month = '', day = '', hour = '', minute = '', second = ''] = match;
    year = Number(match[6]);
  } else {
    return undefined;
  }
  const monthIndex = months.indexOf(month);
  const [d, h, m, s] = [Number(day.trim()), Number(hour), Number(minute), Number(second)];
  if (monthIndex === -1 || d < 1 || d > 31 || h > 23 || m > 59 || s > 60) return undefined;
  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, d);
  date.setUTCHours(h, m, Math.min(s, 59));
  // 31 Feb rolls over into March; such a date is not a date.
  return date.getUTCDate() === d ? date.getTime() : undefined;
}
