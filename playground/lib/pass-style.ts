import type { PassStyle } from '../../src/index.js';

/** A style's name in a sentence, with its article: "a generic pass", "an event ticket". */
export const STYLE_PHRASES: Readonly<Record<PassStyle, string>> = {
  generic: 'a generic pass',
  eventTicket: 'an event ticket',
  coupon: 'a coupon',
  storeCard: 'a store card',
  boardingPass: 'a boarding pass',
};

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
