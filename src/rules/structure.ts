import type { PassStyle, StyleKey } from '../types.js';
import { type Context, describe, isDict, isDynamic, quote, report, mayInherit } from './context.js';
import { checkFieldList, FIELD_SITES, type FieldArrayKind } from './field.js';
import { type FieldCounts, noFieldCounts } from './layout.js';
import { resetSeenKeys } from './seen-keys.js';
import type { Sites } from './sites.js';
import { reportUnknownKey } from './unknown-key.js';

/** The five style keys; a pass holds exactly one. */
export const STYLES: readonly PassStyle[] = ['boardingPass', 'coupon', 'eventTicket', 'generic', 'storeCard'];
/** iOS 27's poster generic style, held beside one of the five. */
export const POSTER_GENERIC: 'posterGeneric' = 'posterGeneric';

const FIELD_ARRAYS: ReadonlyMap<string, FieldArrayKind> = new Map([
  ['headerFields', 'other'],
  ['primaryFields', 'primary'],
  ['secondaryFields', 'other'],
  ['auxiliaryFields', 'other'],
  ['backFields', 'back'],
  // iOS 18 event tickets; its keys share the pass's key space too.
  ['additionalInfoFields', 'other'],
  // iOS 27 poster generic passes (counted: only that style shows them).
  ['footerFields', 'other'],
]);
const STRUCTURE_KEYS = [...FIELD_ARRAYS.keys(), 'transitType'];

/** What a placeholder may render to in a style body for checkStructure to find no error (see sites.ts). */
export const STYLE_SITES: Sites = () => (key) => (FIELD_ARRAYS.has(key) ? { each: FIELD_SITES } : key === 'transitType' ? 'none' : 'any');
const TRANSIT_TYPES = new Set(['PKTransitTypeAir', 'PKTransitTypeBoat', 'PKTransitTypeBus', 'PKTransitTypeGeneric', 'PKTransitTypeTrain']);

// The front areas whose fields are counted (see layout.ts).
const COUNTED: { readonly [list: string]: keyof FieldCounts } = {
  headerFields: 'header',
  primaryFields: 'primary',
  secondaryFields: 'secondary',
  auxiliaryFields: 'auxiliary',
  footerFields: 'footer',
};

/**
 * Checks style body `style` of the current object: its field arrays (keys
 * unique across all of them), and `transitType`, required in `boardingPass`
 * and ignored elsewhere. Returns how many fields each front area holds.
 */
export function checkStructure(context: Context, value: unknown, style: StyleKey): FieldCounts {
  const counts = noFieldCounts();
  if (isDynamic(context, value)) return counts;
  if (!isDict(value)) {
    report(context, 'error', 'invalid-type', style, `${quote(style)} must be an object (a style body with field arrays), not ${describe(value)}`);
    return counts;
  }
  context.stack.push(style);
  const seen = resetSeenKeys(context.seen, context.stack.length);
  let hasTransitType = false;
  const inherited = mayInherit(context, value);
  for (const member in value) {
    if (inherited && !Object.hasOwn(value, member)) continue;
    const child = value[member];
    if (child === undefined) continue;
    const kind = FIELD_ARRAYS.get(member);
    if (kind !== undefined) {
      checkFieldList(context, child, member, kind, seen);
      const area = Object.hasOwn(COUNTED, member) ? COUNTED[member] : undefined;
      if (area !== undefined && Array.isArray(child)) counts[area] = child.length;
    } else if (member === 'transitType') {
      hasTransitType = true;
      checkTransitType(context, child, style);
    } else {
      reportUnknownKey(context, member, STRUCTURE_KEYS, `a style body (${style})`);
    }
  }
  if (style === 'boardingPass' && !hasTransitType) {
    report(context, 'error', 'missing-transit-type', 'transitType', `A boarding pass needs a \`transitType\` (${[...TRANSIT_TYPES].join(', ')})`);
  }
  context.stack.pop();
  return counts;
}

function checkTransitType(context: Context, value: unknown, style: StyleKey): void {
  if (style !== 'boardingPass') {
    // Only a boarding pass reads it; elsewhere Wallet ignores it.
    report(
      context,
      'warning',
      'unexpected-transit-type',
      'transitType',
      `\`transitType\` has an effect only in \`boardingPass\`; Wallet ignores it in ${quote(style)}`,
    );
    return;
  }
  if (typeof value === 'string' && (TRANSIT_TYPES.has(value) || context.isDynamic(value))) return;
  report(context, 'error', 'invalid-transit-type', 'transitType', `\`transitType\` must be one of ${[...TRANSIT_TYPES].join(', ')}; not ${describe(value)}`);
}
