/**
 * The parts as one byte array. `length`, their total size, may be given by a
 * caller that counted it already.
 *
 * @example
 * ```ts
 * concatBytes([Uint8Array.of(1), Uint8Array.of(2, 3)]); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(parts: readonly Uint8Array[], length: number = totalLength(parts)): Uint8Array {
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

function totalLength(parts: readonly Uint8Array[]): number {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  return length;
}
