import type { PassStyle } from '../../src/index.js';

const STYLES: readonly PassStyle[] = ['generic', 'eventTicket', 'coupon', 'storeCard', 'boardingPass'];

/**
 * The style key a pass uses (`generic` when none).
 *
 * @example
 * ```ts
 * passStyle({ coupon: {} }); // 'coupon'
 * ```
 */
export function passStyle(pass: unknown): PassStyle {
  if (typeof pass !== 'object' || pass === null) return 'generic';
  return STYLES.find((style) => (pass as Record<string, unknown>)[style] !== undefined) ?? 'generic';
}
