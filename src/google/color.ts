const RGB = /^\s*rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)\s*$/i;
const HEX = /^\s*#([0-9a-f]{6}|[0-9a-f]{3})\s*$/i;

/**
 * A pass color (`rgb(r, g, b)` or `#rrggbb`) as Google's `#rrggbb`, or `undefined` when unreadable.
 *
 * @example
 * ```ts
 * toHexColor('rgb(60, 65, 76)'); // '#3c414c'
 * ```
 */
export function toHexColor(color: string): string | undefined {
  const rgb = RGB.exec(color);
  if (rgb !== null) {
    const parts = rgb.slice(1, 4).map(Number);
    if (parts.some((part) => part > 255)) return undefined;
    return `#${parts.map((part) => part.toString(16).padStart(2, '0')).join('')}`;
  }
  const hex = HEX.exec(color)?.[1];
  if (hex === undefined) return undefined;
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  return `#${full.toLowerCase()}`;
}
