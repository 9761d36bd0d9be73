import type { Field, PassStructure, PassStyle } from '../../src/index.js';
// What Wallet draws on the front of each style: the tables the library's
// too-many-fields rule uses (from Apple's Wallet Developer Guide).
import { FIELD_LIMITS as LIMITS, SHARED_ROW_STYLES, SQUARE_FORMATS } from '../../src/index.js';

/**
 * Coupons and store cards draw their secondary and auxiliary fields on one row whatever
 * the barcode (Apple's store card and coupon layouts: "Card holder" beside "Card no.");
 * a generic pass does so only above a square barcode.
 */
const ONE_ROW_STYLES: ReadonlySet<PassStyle> = new Set(['coupon', 'storeCard']);

/** The front of a pass as Wallet lays it out: the fields drawn per row, and how many are not drawn. */
export interface FrontLayout {
  readonly header: readonly Field[];
  readonly primary: readonly Field[];
  /** One row, or two (secondary, auxiliary); with a square barcode some styles share one row. */
  readonly rows: readonly (readonly Field[])[];
  readonly back: readonly Field[];
  /** Fields on the front Wallet does not show. */
  readonly hidden: number;
}

function fieldsOf(structure: PassStructure, key: keyof PassStructure): readonly Field[] {
  const fields = structure[key];
  return Array.isArray(fields) ? fields.filter((field): field is Field => typeof field === 'object' && field !== null) : [];
}

/**
 * Lays out a pass's fields as Wallet does for its style and barcode: on coupons and store
 * cards (and generic passes with a square barcode) secondary and auxiliary fields share one row of four.
 *
 * @example
 * ```ts
 * const layout = frontLayout(pass.generic ?? {}, 'generic', 'PKBarcodeFormatQR');
 * layout.hidden; // fields Wallet would not draw
 * ```
 */
export function frontLayout(structure: PassStructure, style: PassStyle, barcodeFormat: string | undefined): FrontLayout {
  const limits = LIMITS[style];
  let hidden = 0;
  const take = (fields: readonly Field[], limit: number): readonly Field[] => {
    hidden += Math.max(0, fields.length - limit);
    return fields.slice(0, limit);
  };
  const header = take(fieldsOf(structure, 'headerFields'), limits.header);
  const primary = take(fieldsOf(structure, 'primaryFields'), limits.primary);
  const secondary = take(fieldsOf(structure, 'secondaryFields'), limits.secondary);
  const auxiliary = take(fieldsOf(structure, 'auxiliaryFields'), limits.auxiliary);
  let rows: (readonly Field[])[];
  if (ONE_ROW_STYLES.has(style) || (barcodeFormat !== undefined && SQUARE_FORMATS.has(barcodeFormat) && SHARED_ROW_STYLES.has(style))) {
    const shared = [...secondary, ...auxiliary];
    hidden += Math.max(0, shared.length - 4);
    rows = [shared.slice(0, 4)];
  } else {
    rows = [secondary, auxiliary];
  }
  return { header, primary, rows: rows.filter((row) => row.length > 0), back: fieldsOf(structure, 'backFields'), hidden };
}
