/**
 * Milliseconds a `Retry-After` value asks to wait: delay-seconds (`120`) or an
 * HTTP date (`Wed, 21 Oct 2025 07:28:00 GMT`, measured from `now`); a date in
 * the past gives 0; anything else `undefined`.
 *
 * @example
 * ```ts
 * parseRetryAfter('120', Date.now()); // 120000
 * ```
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date always names the weekday and "GMT"; refuse other Date.parse-able text.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : Math.max(0, time - now);
}
