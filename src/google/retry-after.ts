/**
 * The wait a `Retry-After` header asks for, in milliseconds (seconds or an HTTP date), or `undefined`.
 *
 * @example
 * ```ts
 * retryAfterMs('2', Date.now()); // 2000
 * ```
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
