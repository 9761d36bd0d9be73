const DIGITS: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * Bytes as lowercase hex.
 *
 * @example
 * ```ts
 * toHex(new Uint8Array([0, 255])); // '00ff'
 * ```
 */
export function toHex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += DIGITS[byte];
  return text;
}

/**
 * Hex (either case) as bytes; `undefined` for an odd length or any other character.
 *
 * @example
 * ```ts
 * fromHex('00FF'); // Uint8Array [0, 255]
 * fromHex('0g'); // undefined
 * ```
 */
export function fromHex(text: string): Uint8Array | undefined {
  if (text.length % 2 !== 0) return undefined;
  const bytes = new Uint8Array(text.length / 2);
  for (let index = 0; index < bytes.length; index++) {
    const high = nibble(text.charCodeAt(2 * index));
    const low = nibble(text.charCodeAt(2 * index + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[index] = high * 16 + low;
  }
  return bytes;
}

function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}
