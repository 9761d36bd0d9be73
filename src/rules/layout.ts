import type { PassStyle, StyleKey } from '../types.js';
import { type Context, isDict, report } from './context.js';

/**
 * How many fields of each front area a style body holds; `-1` when the area
 * is not a static array (absent, a placeholder, not an array).
 */
export interface FieldCounts {
  header: number;
  primary: number;
  secondary: number;
  auxiliary: number;
  /** `footerFields`: shown only by `posterGeneric`. */
  footer: number;
}

/** A FieldCounts with nothing counted yet. */
export function noFieldCounts(): FieldCounts {
  return { header: -1, primary: -1, secondary: -1, auxiliary: -1, footer: -1 };
}

// What Wallet shows on the front of each style (Apple's Wallet Developer
// Guide, "Pass Design and Creation" → fields; see SOURCES.md). Fields past
// these are not shown: a warning, Wallet does not refuse the pass. The
// playground's Wallet layout draws with the same tables. iOS 27's poster
// generic face has a header field, up to four primary fields and one footer
// field, no secondary or auxiliary row ("What's new in Wallet", WWDC26: "if
// you include more than one [footer field], only the first will be
// displayed"; see SOURCES.md); only it shows footer fields.
export const LIMITS: { readonly [S in StyleKey]: Readonly<FieldCounts> } = {
  boardingPass: { header: 3, primary: 2, secondary: 4, auxiliary: 5, footer: 0 },
  coupon: { header: 3, primary: 1, secondary: 4, auxiliary: 4, footer: 0 },
  eventTicket: { header: 3, primary: 1, secondary: 4, auxiliary: 4, footer: 0 },
  generic: { header: 3, primary: 1, secondary: 4, auxiliary: 4, footer: 0 },
  storeCard: { header: 3, primary: 1, secondary: 4, auxiliary: 4, footer: 0 },
  posterGeneric: { header: 1, primary: 4, secondary: 0, auxiliary: 0, footer: 1 },
};
// A square barcode (QR, Aztec) takes the lower part of the front of these
// styles: their secondary and auxiliary fields share one row, four in all.
export const SHARED_ROW_STYLES: ReadonlySet<PassStyle> = new Set(['coupon', 'generic', 'storeCard']);
const SHARED_ROW = 4;
export const SQUARE_FORMATS: ReadonlySet<string> = new Set(['PKBarcodeFormatQR', 'PKBarcodeFormatAztec']);
// The formats Wallet draws; the first of `barcodes` among them is the one shown.
const ALL_FORMATS: ReadonlySet<string> = new Set([
  'PKBarcodeFormatQR',
  'PKBarcodeFormatPDF417',
  'PKBarcodeFormatAztec',
  'PKBarcodeFormatCode128',
  'PKBarcodeFormatCode39',
  'PKBarcodeFormatCodabar',
  'PKBarcodeFormatEAN13',
  'PKBarcodeFormatI2of5',
]);

const AREAS = [
  ['header', 'headerFields'],
  ['primary', 'primaryFields'],
  ['secondary', 'secondaryFields'],
  ['auxiliary', 'auxiliaryFields'],
  ['footer', 'footerFields'],
] as const;

/**
 * Warns `too-many-fields` at the first field of an area that Wallet does not
 * show on the front of `style`, and, on a coupon, store card or generic pass
 * whose barcode is square, at the first secondary or auxiliary field past
 * the four their shared row holds. `square` is `undefined` when the barcode
 * is not known yet (a placeholder).
 */
export function checkFieldCounts(context: Context, style: StyleKey, counts: FieldCounts, square: boolean | undefined): void {
  const limits = LIMITS[style];
  context.stack.push(style);
  for (const [area, list] of AREAS) {
    const count = counts[area];
    const limit = limits[area];
    if (count > limit) {
      context.stack.push(list);
      const message =
        limit === 0
          ? `A ${style} shows no ${area} fields${area === 'footer' ? ' (only posterGeneric does)' : ''}: these ${count} are not shown`
          : `A ${style} shows at most ${limit} ${area} field${limit === 1 ? '' : 's'}: this one and the rest of the ${count} are not shown`;
      report(context, 'warning', 'too-many-fields', limit, message);
      context.stack.pop();
    }
  }
  if (style === 'posterGeneric') {
    context.stack.pop();
    return;
  }
  const { secondary, auxiliary } = counts;
  if (square === true && SHARED_ROW_STYLES.has(style) && secondary <= limits.secondary && auxiliary <= limits.auxiliary) {
    const total = Math.max(secondary, 0) + Math.max(auxiliary, 0);
    if (total > SHARED_ROW) {
      // The first field past the shared row, in reading order: secondary fields, then auxiliary.
      const [list, index] = secondary > SHARED_ROW ? ['secondaryFields', SHARED_ROW] : ['auxiliaryFields', SHARED_ROW - Math.max(secondary, 0)];
      context.stack.push(list);
      report(
        context,
        'warning',
        'too-many-fields',
        index,
        `With a square barcode, a ${style} shows at most ${SHARED_ROW} secondary and auxiliary fields together (it has ${total}): this one and those after it are not shown`,
      );
      context.stack.pop();
    }
  }
  context.stack.pop();
}

/**
 * Whether the barcode Wallet shows is square (QR or Aztec): the first of
 * `barcodes` with a format Wallet knows, else `barcode`. `false` without
 * one; `undefined` when a placeholder decides it.
 */
export function isSquareBarcode(context: Context, barcodes: unknown, barcode: unknown): boolean | undefined {
  if (Array.isArray(barcodes)) {
    for (const entry of barcodes as readonly unknown[]) {
      const format = isDict(entry) ? entry['format'] : undefined;
      if (typeof format !== 'string') continue;
      if (context.isDynamic(format)) return undefined;
      if (ALL_FORMATS.has(format)) return SQUARE_FORMATS.has(format);
    }
    if (barcodes.length > 0) return false;
  } else if (typeof barcodes === 'string' && context.isDynamic(barcodes)) return undefined;
  const format = isDict(barcode) ? barcode['format'] : barcode;
  if (typeof format === 'string' && context.isDynamic(format)) return undefined;
  return typeof format === 'string' && SQUARE_FORMATS.has(format);
}
