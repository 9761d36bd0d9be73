// What a placeholder may render to at each location of a pass body for the
// rules to find no error there. The rule files declare their locations' specs
// beside their checks; src/pass/site-checks.ts turns them into the tests
// buildPass runs on a rendered pass.

// buildPass validates a rendered pass incrementally. Its template's static
// parts were checked already, and a rule that reads a placeholder-bearing
// (dynamic) value was skipped there; so after rendering, only those rules can
// find an error. Each rule file states, next to its checks, what a value at
// each of its locations may be for no rule to find an error there (`Sites`);
// a location where that is not a cheap test on the value alone (a field key,
// whose uniqueness depends on the others; an enum …) is `'none'`, and a
// template with a placeholder there is always validated in full.

/**
 * What the rendered value at a location may be for no rule to report an
 * error there (warnings aside): `'string'`; `'text'` (a string or a finite
 * number); `'number'` (finite); `'date'` (a W3C date Wallet reads);
 * `'color'` (any form the rules accept); `'barcode-text'` (a barcode message
 * that fits every format and encoding: see `isPlainBarcodeText`); `'any'` (no rule reads it); `'none'`
 * (no cheap test is exact).
 */
export type Accept = 'string' | 'text' | 'number' | 'date' | 'color' | 'barcode-text' | 'any' | 'none';

/**
 * The spec of a location: an {@link Accept}; `{ each }`, an array whose
 * elements are at `each`; or, for an object, a function of its keys giving
 * each member's spec (so a field's `value` can depend on its style keys, and
 * a barcode's `message` on its `format`, read with `constant`: a member's
 * value when it holds no placeholder, else `undefined`). A
 * value rendered whole where an array or object spec is asked for is `'none'`.
 */
export type Sites = Accept | { readonly each: Sites } | ((keys: readonly string[], constant: (key: string) => unknown) => (key: string) => Sites);

/** The spec of an object none of whose members any rule reads (`userInfo`, `semantics`). */
export const OPAQUE_OBJECT: Sites = () => () => 'any';
