import { parseDer } from '../pkpass/asn1/index.js';

/**
 * An ECDSA signature in DER (`SEQUENCE { r INTEGER, s INTEGER }`, what Google
 * sends) as the raw `r ‖ s` Web Crypto verifies, each `size` bytes; `undefined` when not such a DER.
 *
 * @example
 * ```ts
 * derToRawSignature(der, 32)?.length; // 64
 * ```
 */
export function derToRawSignature(der: Uint8Array, size: number): Uint8Array<ArrayBuffer> | undefined {
  let children;
  try {
    const node = parseDer(der, { maxDepth: 2, maxElements: 3 });
    if (node.tag !== 0x30) return undefined;
    children = node.children;
  } catch {
    return undefined;
  }
  if (children.length !== 2) return undefined;
  const raw = new Uint8Array(size * 2);
  for (const [index, child] of children.entries()) {
    if (child.tag !== 0x02) return undefined;
    let bytes = child.content;
    while (bytes.length > 0 && bytes[0] === 0) bytes = bytes.subarray(1);
    if (bytes.length === 0 || bytes.length > size) return undefined;
    raw.set(bytes, index * size + size - bytes.length);
  }
  return raw;
}
