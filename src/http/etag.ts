import { toBase64url } from '../base64url.js';
import { sha256 } from './sha256/index.js';

/**
 * A strong entity tag for a body: `"` + base64url(SHA-256(bytes)) + `"` (45 characters).
 *
 * @example
 * ```ts
 * await entityTag(new TextEncoder().encode('{}')); // '"RBNvo1WzZ4oRRq0W9-hknpT7T8If536DEMBg9hyq_4o"'
 * ```
 */
export async function entityTag(bytes: Uint8Array): Promise<string> {
  return `"${toBase64url(await sha256(bytes))}"`;
}

/**
 * Whether an `If-None-Match` header matches an entity tag, by the weak
 * comparison RFC 9110 (§13.1.2) prescribes: `*`, or any listed tag whose
 * opaque part equals the tag's, with or without `W/`. A malformed member ends
 * the list (what came before it still counts).
 *
 * @example
 * ```ts
 * ifNoneMatchMatches('W/"abc", "def"', '"abc"'); // true
 * ```
 */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  const length = header.length;
  let index = 0;
  while (index < length) {
    const code = header.charCodeAt(index);
    // Skip the list's separators and optional whitespace.
    if (code === 0x2c || code === 0x20 || code === 0x09) {
      index++;
      continue;
    }
    if (code === 0x2a) return true; // `*`
    if (code === 0x57 && header.charCodeAt(index + 1) === 0x2f) index += 2; // `W/`
    if (header.charCodeAt(index) !== 0x22) return false;
    const end = header.indexOf('"', index + 1);
    if (end === -1) return false;
    if (end + 1 - index === etag.length && header.startsWith(etag, index)) return true;
    index = end + 1;
  }
  return false;
}
