// CRC-32 (IEEE 802.3, as zip uses it). fflate computes one internally but does
// not export it; the writer needs it for entries it lays out itself. Eight
// tables, eight bytes a step ("slicing by 8"): images are most of a pass's
// bytes, and a template's files are summed once per prepareFiles.

let tables: Uint32Array | undefined;

function makeTables(): Uint32Array {
  const out = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    out[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    for (let slice = 1; slice < 8; slice++) {
      const previous = out[(slice - 1) * 256 + n]!;
      out[slice * 256 + n] = (previous >>> 8) ^ out[previous & 0xff]!;
    }
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
  const t = (tables ??= makeTables());
  let crc = 0xffffffff;
  let at = 0;
  const end8 = bytes.length - (bytes.length % 8);
  for (; at < end8; at += 8) {
    const low = (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) ^ crc;
    const high = bytes[at + 4]! | (bytes[at + 5]! << 8) | (bytes[at + 6]! << 16) | (bytes[at + 7]! << 24);
    crc =
      t[7 * 256 + (low & 0xff)]! ^
      t[6 * 256 + ((low >>> 8) & 0xff)]! ^
      t[5 * 256 + ((low >>> 16) & 0xff)]! ^
      t[4 * 256 + (low >>> 24)]! ^
      t[3 * 256 + (high & 0xff)]! ^
      t[2 * 256 + ((high >>> 8) & 0xff)]! ^
      t[256 + ((high >>> 16) & 0xff)]! ^
      t[high >>> 24]!;
  }
  for (; at < bytes.length; at++) crc = t[(crc ^ bytes[at]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
