import { concatBytes } from '../../concat-bytes.js';
import { DerError } from './der-error.js';
import type { DerNode } from './der-reader.js';
import { TAG } from './tags.js';

/**
 * The node, if its tag is `tag`; otherwise a `DerError` naming `what` was expected.
 *
 * @example
 * ```ts
 * const tbs = expectTag(certificate.children[0], TAG.SEQUENCE, 'TBSCertificate');
 * ```
 */
export function expectTag(node: DerNode | undefined, tag: number, what: string): DerNode {
  if (node === undefined) throw new DerError(`${what} is missing`, 0);
  if (node.tag !== tag) {
    throw new DerError(`${what}: expected tag 0x${hex(tag)}, found 0x${hex(node.tag)}`, node.offset);
  }
  return node;
}

/**
 * The children of a constructed node with the given tag, checked to number at least `min`.
 *
 * @example
 * ```ts
 * const [version, digests, content] = childrenOf(signedData, TAG.SEQUENCE, 'SignedData', 4);
 * ```
 */
export function childrenOf(node: DerNode | undefined, tag: number, what: string, min = 0): readonly DerNode[] {
  const checked = expectTag(node, tag, what);
  if (checked.children.length < min) throw new DerError(`${what} has ${checked.children.length} elements, expected at least ${min}`, checked.offset);
  return checked.children;
}

/**
 * An OBJECT IDENTIFIER in dotted form.
 *
 * @example
 * ```ts
 * readOid(parseDer(Uint8Array.of(0x06, 0x03, 0x55, 0x04, 0x03))); // '2.5.4.3'
 * ```
 */
export function readOid(node: DerNode | undefined, what = 'OBJECT IDENTIFIER'): string {
  const { content, offset } = expectTag(node, TAG.OID, what);
  if (content.length === 0 || content.length > 256) throw new DerError(`${what}: bad length`, offset);
  const arcs: string[] = [];
  let value = 0n;
  let small = 0;
  let useBig = false;
  let startOfArc = true;
  for (const byte of content) {
    if (startOfArc && byte === 0x80) throw new DerError(`${what}: arc with a leading zero octet`, offset);
    startOfArc = false;
    if (useBig) value = (value << 7n) | BigInt(byte & 0x7f);
    else {
      small = small * 128 + (byte & 0x7f);
      if (small > 0x1fffffffffff) {
        useBig = true;
        value = BigInt(small);
      }
    }
    if ((byte & 0x80) !== 0) continue;
    const arc = useBig ? value : BigInt(small);
    if (arcs.length === 0) {
      // The first octets hold the first two arcs: 40 × first + second.
      const first = arc < 40n ? 0n : arc < 80n ? 1n : 2n;
      arcs.push(String(first), String(arc - first * 40n));
    } else arcs.push(String(arc));
    value = 0n;
    small = 0;
    useBig = false;
    startOfArc = true;
  }
  if (!startOfArc) throw new DerError(`${what}: last arc is unterminated`, offset);
  return arcs.join('.');
}

/**
 * The content octets of an INTEGER (two's complement, big-endian), checked to be non-empty.
 *
 * @example
 * ```ts
 * readIntegerBytes(serialNode); // Uint8Array [0x01, 0x23, …]
 * ```
 */
export function readIntegerBytes(node: DerNode | undefined, what = 'INTEGER'): Uint8Array {
  const { content, offset } = expectTag(node, TAG.INTEGER, what);
  if (content.length === 0) throw new DerError(`${what}: empty`, offset);
  return content;
}

/**
 * A non-negative INTEGER as unsigned big-endian bytes without leading zero octets
 * (`[0]` for zero) — how RSA moduli and exponents are compared and imported.
 *
 * @example
 * ```ts
 * readUnsigned(exponentNode); // Uint8Array [1, 0, 1]
 * ```
 */
export function readUnsigned(node: DerNode | undefined, what = 'INTEGER'): Uint8Array {
  const content = readIntegerBytes(node, what);
  if (((content[0] as number) & 0x80) !== 0) throw new DerError(`${what}: negative`, node?.offset ?? 0);
  let start = 0;
  while (start < content.length - 1 && content[start] === 0) start++;
  return content.subarray(start);
}

/**
 * A small non-negative INTEGER (versions, iteration counts, key lengths) as a number.
 *
 * @example
 * ```ts
 * readSmallInteger(versionNode); // 1
 * ```
 */
export function readSmallInteger(node: DerNode | undefined, what = 'INTEGER', max = 0x7fffffff): number {
  const content = readUnsigned(node, what);
  if (content.length > 4) throw new DerError(`${what}: larger than ${max}`, node?.offset ?? 0);
  let value = 0;
  for (const byte of content) value = value * 256 + byte;
  if (value > max) throw new DerError(`${what}: larger than ${max}`, node?.offset ?? 0);
  return value;
}

/**
 * A BOOLEAN.
 *
 * @example
 * ```ts
 * readBoolean(parseDer(Uint8Array.of(1, 1, 0xff))); // true
 * ```
 */
export function readBoolean(node: DerNode | undefined, what = 'BOOLEAN'): boolean {
  const { content, offset } = expectTag(node, TAG.BOOLEAN, what);
  if (content.length !== 1) throw new DerError(`${what}: bad length`, offset);
  return content[0] !== 0;
}

/**
 * A BIT STRING: its bytes and how many bits of the last byte are unused.
 *
 * @example
 * ```ts
 * readBitString(signatureNode).bytes; // the RSA signature
 * ```
 */
export function readBitString(node: DerNode | undefined, what = 'BIT STRING'): { readonly bytes: Uint8Array; readonly unusedBits: number } {
  const { content, offset } = expectTag(node, TAG.BIT_STRING, what);
  const unusedBits = content[0];
  if (unusedBits === undefined || unusedBits > 7 || (unusedBits > 0 && content.length === 1)) {
    throw new DerError(`${what}: bad unused-bits octet`, offset);
  }
  return { bytes: content.subarray(1), unusedBits };
}

/**
 * The value of an OCTET STRING, primitive or (BER) constructed of pieces, which are joined.
 *
 * @example
 * ```ts
 * readOctets(digestNode).length; // 32 for SHA-256
 * ```
 */
export function readOctets(node: DerNode | undefined, what = 'OCTET STRING'): Uint8Array {
  if (node !== undefined && node.tag === (TAG.OCTET_STRING | 0x20)) {
    const pieces: Uint8Array[] = [];
    collectOctets(node, pieces, what);
    return concatBytes(pieces);
  }
  return expectTag(node, TAG.OCTET_STRING, what).content;
}

function collectOctets(node: DerNode, pieces: Uint8Array[], what: string): void {
  for (const child of node.children) {
    if (child.tag === TAG.OCTET_STRING) pieces.push(child.content);
    else if (child.tag === (TAG.OCTET_STRING | 0x20)) collectOctets(child, pieces, what);
    else throw new DerError(`${what}: a constructed OCTET STRING holds a non-OCTET STRING piece`, child.offset);
  }
}

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');
const utf16 = new TextDecoder('utf-16be');

/**
 * The text of a directory string (UTF8String, PrintableString, IA5String,
 * VisibleString, T61String as Latin-1, BMPString, UniversalString).
 * Malformed UTF-8/UTF-16 becomes U+FFFD rather than an error: a name is for display.
 *
 * @example
 * ```ts
 * readText(uidValueNode); // 'pass.com.example.test'
 * ```
 */
export function readText(node: DerNode | undefined, what = 'string'): string {
  if (node === undefined) throw new DerError(`${what} is missing`, 0);
  const { content } = node;
  switch (node.tag) {
    case TAG.UTF8_STRING:
      return utf8.decode(content);
    case TAG.PRINTABLE_STRING:
    case TAG.IA5_STRING:
    case TAG.VISIBLE_STRING:
    case TAG.T61_STRING:
      return latin1.decode(content);
    case TAG.BMP_STRING:
      return utf16.decode(content);
    case TAG.UNIVERSAL_STRING: {
      let text = '';
      for (let index = 0; index + 3 < content.length; index += 4) {
        const code =
          (((content[index] as number) << 24) |
            ((content[index + 1] as number) << 16) |
            ((content[index + 2] as number) << 8) |
            (content[index + 3] as number)) >>>
          0;
        text += code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
      }
      return text;
    }
    default:
      throw new DerError(`${what}: not a string type (tag 0x${hex(node.tag)})`, node.offset);
  }
}

const UTC_TIME = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?Z$/;
const GENERALIZED_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:[.,](\d{1,9}))?Z$/;

/**
 * A UTCTime (years 1950–2049, RFC 5280) or GeneralizedTime, in UTC (`Z`) as
 * certificates and CMS write them; seconds may be left out of a UTCTime (BER).
 *
 * @example
 * ```ts
 * readTime(notAfterNode).toISOString(); // '2030-12-10T00:00:00.000Z'
 * ```
 */
export function readTime(node: DerNode | undefined, what = 'time'): Date {
  if (node === undefined) throw new DerError(`${what} is missing`, 0);
  const text = latin1.decode(node.content);
  let parts: RegExpExecArray | null;
  let year: number;
  let milliseconds = 0;
  if (node.tag === TAG.UTC_TIME) {
    parts = UTC_TIME.exec(text);
    if (parts === null) throw new DerError(`${what}: malformed UTCTime`, node.offset);
    const short = Number(parts[1]);
    year = short < 50 ? 2000 + short : 1900 + short;
  } else if (node.tag === TAG.GENERALIZED_TIME) {
    parts = GENERALIZED_TIME.exec(text);
    if (parts === null) throw new DerError(`${what}: malformed GeneralizedTime`, node.offset);
    year = Number(parts[1]);
    if (parts[7] !== undefined) milliseconds = Math.floor(Number(`0.${parts[7]}`) * 1000);
  } else {
    throw new DerError(`${what}: not a time (tag 0x${hex(node.tag)})`, node.offset);
  }
  const month = Number(parts[2]);
  const day = Number(parts[3]);
  const hour = Number(parts[4]);
  const minute = Number(parts[5]);
  const second = Number(parts[6] ?? '0');
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, milliseconds));
  // Date.UTC rolls 31 February over into March; a real time reads back the same.
  if (year < 100) date.setUTCFullYear(year);
  if (
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    date.getUTCHours() !== hour ||
    date.getUTCMinutes() !== minute ||
    date.getUTCSeconds() !== second
  ) {
    throw new DerError(`${what}: not a real date`, node.offset);
  }
  return date;
}

// Joins byte arrays: the library's one implementation, exported here too for the DER code and its tests.
export { concatBytes };

function hex(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}
