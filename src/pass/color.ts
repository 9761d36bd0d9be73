/**
 * A color as three channels, each an integer 0–255.
 *
 * @example
 * ```ts
 * const slate: Rgb = { r: 60, g: 65, b: 76 };
 * formatRgb(slate); // 'rgb(60, 65, 76)'
 * ```
 */
export interface Rgb {
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

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
  if (rgb !== null) return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]) };
  if (!HEX.test(text)) return undefined;
  const short = text.length === 4;
  const channel = (index: number): number =>
    short ? parseInt(text.charAt(index + 1), 16) * 17 : parseInt(text.slice(2 * index + 1, 2 * index + 3), 16);
  return { r: channel(0), g: channel(1), b: channel(2) };
}

/**
 * Which form a color text is in: `'rgb'`, `'hex'` (`#rgb`/`#rrggbb`, read by
 * current Wallet but not documented by Apple), or `undefined` when it is not
 * a color.
 *
 * @example
 * ```ts
 * colorForm('#ffffff');            // 'hex'
 * colorForm('rgb(255, 255, 255)'); // 'rgb'
 * colorForm('white');              // undefined
 * ```
 */
export function colorForm(text: string): 'rgb' | 'hex' | undefined {
  return RGB.test(text) ? 'rgb' : HEX.test(text) ? 'hex' : undefined;
}

/**
 * Whether a color text is in one of the hex forms (`#rgb`, `#rrggbb`).
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

// The language of the `color` definition in pass.schema.json: channels are
// integers 0–255 of at most three digits.
const RGB = /^rgb\(\s*(25[0-5]|2[0-4]\d|[01]?\d?\d)\s*,\s*(25[0-5]|2[0-4]\d|[01]?\d?\d)\s*,\s*(25[0-5]|2[0-4]\d|[01]?\d?\d)\s*\)$/;
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

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
