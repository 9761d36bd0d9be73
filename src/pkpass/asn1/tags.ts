/**
 * Identifier octets of the universal types passmint reads and writes
 * (class universal; SEQUENCE and SET with the constructed bit set).
 *
 * @example
 * ```ts
 * node.tag === TAG.SEQUENCE; // 0x30
 * ```
 */
export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  T61_STRING: 0x14,
  IA5_STRING: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  VISIBLE_STRING: 0x1a,
  UNIVERSAL_STRING: 0x1c,
  BMP_STRING: 0x1e,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

/** The constructed bit of an identifier octet. */
export const CONSTRUCTED = 0x20;

/**
 * The identifier octet of a context-specific tag `[number]`.
 *
 * @example
 * ```ts
 * contextTag(0, true); // 0xa0, as in `[0] EXPLICIT` or a constructed `[0] IMPLICIT`
 * ```
 */
export function contextTag(number: number, constructed: boolean): number {
  return 0x80 | (constructed ? CONSTRUCTED : 0) | number;
}
