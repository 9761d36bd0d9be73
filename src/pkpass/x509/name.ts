import { DerError } from '../asn1/der-error.js';
import type { DerNode } from '../asn1/der-reader.js';
import { readOid, readText } from '../asn1/der-values.js';
import { TAG } from '../asn1/tags.js';

/** One attribute of a distinguished name, as `type` OID and text `value`. */
export interface NameAttribute {
  readonly type: string;
  readonly value: string;
}

/**
 * An X.501 distinguished name: its DER as found (what issuer matching compares
 * first), its attributes in order, and a readable RFC 4514-like text in
 * certificate order (`UID=pass.com.example.test, CN=…, OU=A93A5CM278, O=…, C=US`).
 *
 * @example
 * ```ts
 * const name: Name = readName(subjectNode);
 * name.text; // 'UID=pass.com.example.test, CN=Pass Type ID: pass.com.example.test, …'
 * ```
 */
export interface Name {
  readonly der: Uint8Array;
  readonly attributes: readonly NameAttribute[];
  readonly text: string;
}

const SHORT_NAMES: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'street',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '0.9.2342.19200300.100.1.1': 'UID',
  '0.9.2342.19200300.100.1.25': 'DC',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

/**
 * Reads a Name (SEQUENCE OF SET OF AttributeTypeAndValue). Throws `DerError`.
 *
 * @example
 * ```ts
 * readName(tbs.children[5]).attributes[0]; // { type: '0.9.2342.19200300.100.1.1', value: 'pass.com.example.test' }
 * ```
 */
export function readName(node: DerNode | undefined): Name {
  if (node === undefined || node.tag !== TAG.SEQUENCE) throw new DerError('Name is not a SEQUENCE', node?.offset ?? 0);
  const attributes: NameAttribute[] = [];
  for (const rdn of node.children) {
    if (rdn.tag !== TAG.SET) throw new DerError('RelativeDistinguishedName is not a SET', rdn.offset);
    for (const pair of rdn.children) {
      if (pair.tag !== TAG.SEQUENCE || pair.children.length !== 2) throw new DerError('AttributeTypeAndValue is malformed', pair.offset);
      const type = readOid(pair.children[0], 'attribute type');
      let value: string;
      try {
        value = readText(pair.children[1], 'attribute value');
      } catch {
        // A value of a non-string type is shown as its bytes (RFC 4514 #hex form).
        value = `#${[...(pair.children[1]?.raw ?? [])].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
      }
      attributes.push({ type, value });
    }
  }
  const text = attributes.map(({ type, value }) => `${SHORT_NAMES[type] ?? type}=${value}`).join(', ');
  return { der: node.raw, attributes, text };
}

/**
 * The first value of an attribute type in a name.
 *
 * @example
 * ```ts
 * nameValue(subject, OID.userId); // 'pass.com.example.test'
 * ```
 */
export function nameValue(name: Name, type: string): string | undefined {
  return name.attributes.find((attribute) => attribute.type === type)?.value;
}

/**
 * Whether two names are the same: equal DER, or (RFC 5280 §7.1, simplified)
 * the same attributes in the same order with values equal ignoring case and
 * runs of spaces — so a UTF8String and a PrintableString of the same text match.
 *
 * @example
 * ```ts
 * sameName(certificate.issuer, wwdr.subject); // true when the WWDR issued it
 * ```
 */
export function sameName(a: Name, b: Name): boolean {
  if (equalBytes(a.der, b.der)) return true;
  if (a.attributes.length !== b.attributes.length) return false;
  return a.attributes.every((attribute, index) => {
    const other = b.attributes[index];
    return other !== undefined && other.type === attribute.type && fold(other.value) === fold(attribute.value);
  });
}

function fold(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Whether two byte arrays hold the same bytes.
 *
 * @example
 * ```ts
 * equalBytes(Uint8Array.of(1), Uint8Array.of(1)); // true
 * ```
 */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
