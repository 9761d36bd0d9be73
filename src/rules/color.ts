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
  if (text.length === 4) {
    return { r: hexDigit(text, 1) * 17, g: hexDigit(text, 2) * 17, b: hexDigit(text, 3) * 17 };
  }
  return {
    r: hexDigit(text, 1) * 16 + hexDigit(text, 2),
    g: hexDigit(text, 3) * 16 + hexDigit(text, 4),
    b: hexDigit(text, 5) * 16 + hexDigit(text, 6),
  };
}

// The value of a hex digit already known to be one (0-9, a-f, A-F).
function hexDigit(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code <= 0x39 ? code - 0x30 : (code | 0x20) - 0x57;
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
  if (CANONICAL_RGB.test(text)) return text;
  let converted = converting.get(text);
  if (converted === undefined) {
    const color = parseColor(text);
    converted = color === undefined ? text : formatRgb(color);
    // buildPass converts the same few template colors again and again.
    if (converting.size >= 64) converting.clear();
    converting.set(text, converted);
  }
  return converted;
}

const CANONICAL_RGB = /^rgb\((?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d), (?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d), (?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\)$/;
const converting = new Map<string, string>();
