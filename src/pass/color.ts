/** A color as three channels, each an integer 0–255. */
export interface Rgb {
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

// The same language as the `color` definition in pass.schema.json.
const RGB = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/;
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * Reads a pass color: `rgb(r, g, b)` (Apple's documented form; spaces are
 * flexible, channels are integers 0–255), `#rgb` or `#rrggbb` (hex digits in
 * either case). Anything else gives `undefined`.
 *
 * @example
 * ```ts
 * parseColor('rgb(60, 65, 76)'); // { r: 60, g: 65, b: 76 }
 * parseColor('#F00');            // { r: 255, g: 0, b: 0 }
 * parseColor('red');             // undefined
 * ```
 */
export function parseColor(text: string): Rgb | undefined {
  if (typeof text !== 'string') return undefined;
  const rgb = RGB.exec(text);
  if (rgb !== null) {
    const r = Number(rgb[1]);
    const g = Number(rgb[2]);
    const b = Number(rgb[3]);
    return r <= 255 && g <= 255 && b <= 255 ? { r, g, b } : undefined;
  }
  if (!HEX.test(text)) return undefined;
  if (text.length === 4) {
    const r = parseInt(text[1] as string, 16);
    const g = parseInt(text[2] as string, 16);
    const b = parseInt(text[3] as string, 16);
    return { r: r * 17, g: g * 17, b: b * 17 };
  }
  return {
    r: parseInt(text.slice(1, 3), 16),
    g: parseInt(text.slice(3, 5), 16),
    b: parseInt(text.slice(5, 7), 16),
  };
}

/**
 * Whether a color text is in one of the hex forms (`#rgb`, `#rrggbb`), which
 * current Wallet reads but Apple does not document.
 *
 * @example
 * ```ts
 * isHexColor('#ffffff'); // true
 * isHexColor('rgb(255, 255, 255)'); // false
 * ```
 */
export function isHexColor(text: string): boolean {
  return HEX.test(text);
}

/**
 * Writes a color the way Apple documents it: `rgb(r, g, b)`.
 *
 * @example
 * ```ts
 * formatRgb({ r: 255, g: 0, b: 0 }); // 'rgb(255, 0, 0)'
 * ```
 */
export function formatRgb(color: Rgb): string {
  return `rgb(${color.r}, ${color.g}, ${color.b})`;
}

/**
 * Converts a color to `rgb(r, g, b)`: hex becomes `rgb(…)`, an `rgb(…)` is
 * normalized (one space after each comma, no leading zeros), and text that is
 * not a color comes back unchanged (for `validatePass` to report).
 *
 * @example
 * ```ts
 * toRgbColor('#3c414c');       // 'rgb(60, 65, 76)'
 * toRgbColor('rgb(60,65,76)'); // 'rgb(60, 65, 76)'
 * toRgbColor('red');           // 'red'
 * ```
 */
export function toRgbColor(text: string): string {
  const color = parseColor(text);
  return color === undefined ? text : formatRgb(color);
}
