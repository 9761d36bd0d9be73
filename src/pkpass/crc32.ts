// CRC-32 (IEEE 802.3, as zip uses it). fflate computes one internally but does
// not export it; the writer needs it for entries it lays out itself.

let table: Uint32Array | undefined;

function makeTable(): Uint32Array {
  const out = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    out[n] = c >>> 0;
  }
  return out;
}

/**
 * The CRC-32 of some bytes, as stored in a zip entry's headers.
 *
 * @example
 * ```ts
 * crc32(new TextEncoder().encode('123456789')); // 0xcbf43926
 * ```
 */
export function crc32(bytes: Uint8Array): number {
  const t = (table ??= makeTable());
  let crc = 0xffffffff;
  for (let index = 0; index < bytes.length; index++) crc = t[(crc ^ bytes[index]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
