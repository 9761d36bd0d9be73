import { concatBytes } from './der-values.js';
import { TAG, contextTag } from './tags.js';

/**
 * The DER length octets of a content of `length` bytes (shortest form).
 *
 * @example
 * ```ts
 * encodeLength(300); // Uint8Array [0x82, 0x01, 0x2c]
 * ```
 */
export function encodeLength(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const octets: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) octets.unshift(rest % 256);
  return Uint8Array.of(0x80 | octets.length, ...octets);
}

/**
 * One element: identifier octet, length, and the content parts joined.
 *
 * @example
 * ```ts
 * tlv(TAG.OCTET_STRING, Uint8Array.of(1, 2)); // Uint8Array [4, 2, 1, 2]
 * ```
 */
export function tlv(tag: number, ...content: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of content) length += part.length;
  return concatBytes([Uint8Array.of(tag), encodeLength(length), ...content]);
}

/**
 * A SEQUENCE of already encoded elements.
 *
 * @example
 * ```ts
 * sequence(oid('1.2.840.113549.1.1.1'), NULL); // an AlgorithmIdentifier for rsaEncryption
 * ```
 */
export function sequence(...items: readonly Uint8Array[]): Uint8Array {
  return tlv(TAG.SEQUENCE, ...items);
}

/**
 * A SET OF in DER order: the encodings sorted as octet strings, a shorter one
 * compared as if padded with zero octets (X.690 §11.6).
 *
 * @example
 * ```ts
 * setOf(messageDigestAttribute, contentTypeAttribute); // contentType first
 * ```
 */
export function setOf(...items: readonly Uint8Array[]): Uint8Array {
  return tlv(TAG.SET, ...[...items].sort(compareDer));
}

/**
 * The DER order of two encodings within a SET OF.
 *
 * @example
 * ```ts
 * compareDer(Uint8Array.of(1), Uint8Array.of(1, 0)); // 0: equal once padded
 * ```
 */
export function compareDer(a: Uint8Array, b: Uint8Array): number {
  const common = Math.min(a.length, b.length);
  for (let index = 0; index < common; index++) {
    const difference = (a[index] as number) - (b[index] as number);
    if (difference !== 0) return difference;
  }
  const longer = a.length > b.length ? a : b;
  for (let index = common; index < longer.length; index++) {
    if (longer[index] !== 0) return longer === a ? 1 : -1;
  }
  return 0;
}

/**
 * A context-specific `[number]` element: constructed (EXPLICIT, or IMPLICIT over a
 * constructed type) by default, primitive when `constructed` is `false`.
 *
 * @example
 * ```ts
 * tagged(0, sequence(...certificates)); // [0] IMPLICIT SET OF Certificate, as in SignedData
 * ```
 */
export function tagged(number: number, content: Uint8Array, constructed = true): Uint8Array {
  return tlv(contextTag(number, constructed), content);
}

/**
 * An OBJECT IDENTIFIER from its dotted form.
 *
 * @example
 * ```ts
 * oid('2.5.4.3'); // Uint8Array [0x06, 0x03, 0x55, 0x04, 0x03]
 * ```
 */
export function oid(dotted: string): Uint8Array {
  const arcs = dotted.split('.').map((arc) => BigInt(arc));
  const [first, second, ...rest] = arcs;
  if (first === undefined || second === undefined || first > 2n || (first < 2n && second >= 40n)) {
    throw new RangeError(`Not an object identifier: ${dotted}`);
  }
  const octets: number[] = [];
  for (const arc of [first * 40n + second, ...rest]) {
    const groups: number[] = [Number(arc & 0x7fn)];
    for (let value = arc >> 7n; value > 0n; value >>= 7n) groups.unshift(Number(value & 0x7fn) | 0x80);
    octets.push(...groups);
  }
  return tlv(TAG.OID, Uint8Array.from(octets));
}

/**
 * An INTEGER. A number or bigint is encoded as signed; bytes are taken as an
 * unsigned magnitude (a zero octet is put in front when the top bit is set,
 * redundant leading zeros are dropped).
 *
 * @example
 * ```ts
 * integer(1); // Uint8Array [2, 1, 1]
 * integer(Uint8Array.of(0x80)); // Uint8Array [2, 2, 0, 0x80]
 * ```
 */
export function integer(value: number | bigint | Uint8Array): Uint8Array {
  if (value instanceof Uint8Array) {
    let start = 0;
    while (start < value.length - 1 && value[start] === 0) start++;
    const magnitude = value.subarray(start);
    if (magnitude.length === 0) return tlv(TAG.INTEGER, Uint8Array.of(0));
    return ((magnitude[0] as number) & 0x80) !== 0 ? tlv(TAG.INTEGER, Uint8Array.of(0), magnitude) : tlv(TAG.INTEGER, magnitude);
  }
  let rest = BigInt(value);
  const octets: number[] = [];
  // Two's complement, shortest form: stop once the remaining value is the sign extension.
  for (;;) {
    const octet = Number(rest & 0xffn);
    octets.unshift(octet);
    rest >>= 8n;
    if ((rest === 0n && (octet & 0x80) === 0) || (rest === -1n && (octet & 0x80) !== 0)) break;
  }
  return tlv(TAG.INTEGER, Uint8Array.from(octets));
}

/**
 * An OCTET STRING.
 *
 * @example
 * ```ts
 * octetString(digest); // 04 20 …
 * ```
 */
export function octetString(bytes: Uint8Array): Uint8Array {
  return tlv(TAG.OCTET_STRING, bytes);
}

/**
 * A BIT STRING of whole bytes (or with `unusedBits` of the last byte unused).
 *
 * @example
 * ```ts
 * bitString(signature); // 03 82 01 01 00 …
 * ```
 */
export function bitString(bytes: Uint8Array, unusedBits = 0): Uint8Array {
  return tlv(TAG.BIT_STRING, Uint8Array.of(unusedBits), bytes);
}

/**
 * The NULL value, as in the parameters of `rsaEncryption`.
 *
 * @example
 * ```ts
 * sequence(oid('1.2.840.113549.1.1.1'), NULL);
 * ```
 */
export const NULL: Uint8Array = Uint8Array.of(TAG.NULL, 0);

/**
 * A BOOLEAN (DER: `0xff` for true).
 *
 * @example
 * ```ts
 * boolean(true); // Uint8Array [1, 1, 0xff]
 * ```
 */
export function boolean(value: boolean): Uint8Array {
  return Uint8Array.of(TAG.BOOLEAN, 1, value ? 0xff : 0);
}

const encoder = new TextEncoder();

/**
 * A UTF8String.
 *
 * @example
 * ```ts
 * utf8String('Example'); // 0c 07 …
 * ```
 */
export function utf8String(text: string): Uint8Array {
  return tlv(TAG.UTF8_STRING, encoder.encode(text));
}

/**
 * A PrintableString (the caller keeps to its alphabet: letters, digits, space and `'()+,-./:=?`).
 *
 * @example
 * ```ts
 * printableString('US'); // 13 02 55 53
 * ```
 */
export function printableString(text: string): Uint8Array {
  return tlv(TAG.PRINTABLE_STRING, encoder.encode(text));
}

/**
 * A UTCTime `YYMMDDHHMMSSZ` (whole seconds; years 1950–2049).
 *
 * @example
 * ```ts
 * utcTime(new Date('2026-01-02T03:04:05Z')); // 17 0d '260102030405Z'
 * ```
 */
export function utcTime(date: Date): Uint8Array {
  const year = date.getUTCFullYear();
  if (year < 1950 || year > 2049) throw new RangeError(`UTCTime holds years 1950–2049, not ${year}`);
  return tlv(TAG.UTC_TIME, encoder.encode(`${pad(year % 100, 2)}${timeOfYear(date)}Z`));
}

/**
 * A GeneralizedTime `YYYYMMDDHHMMSSZ` (whole seconds, as DER wants: no fraction when it is zero).
 *
 * @example
 * ```ts
 * generalizedTime(new Date('2050-01-01T00:00:00Z')); // 18 0f '20500101000000Z'
 * ```
 */
export function generalizedTime(date: Date): Uint8Array {
  return tlv(TAG.GENERALIZED_TIME, encoder.encode(`${pad(date.getUTCFullYear(), 4)}${timeOfYear(date)}Z`));
}

/**
 * A time as RFC 5280 and RFC 5652 want it: UTCTime through 2049, GeneralizedTime from 2050.
 *
 * @example
 * ```ts
 * time(new Date('2049-12-31T23:59:59Z'))[0]; // 0x17 (UTCTime)
 * ```
 */
export function time(date: Date): Uint8Array {
  const year = date.getUTCFullYear();
  return year >= 1950 && year <= 2049 ? utcTime(date) : generalizedTime(date);
}

function timeOfYear(date: Date): string {
  return pad(date.getUTCMonth() + 1, 2) + pad(date.getUTCDate(), 2) + pad(date.getUTCHours(), 2) + pad(date.getUTCMinutes(), 2) + pad(date.getUTCSeconds(), 2);
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
