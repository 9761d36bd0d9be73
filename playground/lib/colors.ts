import { parseColor, type Rgb } from '../../src/index.js';

/** A pass color in the forms the preview shows. */
export interface ShownColor {
  readonly rgb: string;
  readonly hex: string;
}

const hex2 = (n: number): string => n.toString(16).padStart(2, '0');

/**
 * Reads a pass color with the library's parser; `undefined` when absent or invalid
 * (validatePass reports why), so the preview falls back to Wallet's default.
 *
 * @example
 * ```ts
 * shownColor('#ff0000'); // { rgb: 'rgb(255, 0, 0)', hex: '#ff0000' }
 * ```
 */
export function shownColor(value: unknown): ShownColor | undefined {
  if (typeof value !== 'string') return undefined;
  const color: Rgb | undefined = parseColor(value);
  if (color === undefined) return undefined;
  return { rgb: `rgb(${color.r}, ${color.g}, ${color.b})`, hex: `#${hex2(color.r)}${hex2(color.g)}${hex2(color.b)}` };
}
