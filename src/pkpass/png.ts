// PNG: the signature and the IHDR chunk are all Wallet's checks need.

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG's pixel size, from its IHDR chunk. */
export interface PngSize {
  readonly width: number;
  readonly height: number;
}

/** A PNG's IHDR as declared: pixel size, bits per sample and color type (0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA). */
export interface PngHeader extends PngSize {
  readonly bitDepth: number;
  readonly colorType: number;
}

/**
 * The IHDR of a PNG image, or `undefined` when `bytes` are not a PNG (no
 * signature, or no IHDR chunk right after it, as the PNG specification
 * requires). Sizes are as declared: nothing is decompressed.
 *
 * @example
 * ```ts
 * pngHeader(iconBytes); // { width: 58, height: 58, bitDepth: 8, colorType: 6 }
 * ```
 */
export function pngHeader(bytes: Uint8Array): PngHeader | undefined {
  if (bytes.length < 33) return undefined;
  for (let index = 0; index < 8; index++) if (bytes[index] !== SIGNATURE[index]) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Chunk length 13, type "IHDR".
  if (view.getUint32(8) !== 13 || view.getUint32(12) !== 0x49484452) return undefined;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width === 0 || height === 0) return undefined;
  return { width, height, bitDepth: view.getUint8(24), colorType: view.getUint8(25) };
}

/**
 * The size of a PNG image, or `undefined` when `bytes` are not a PNG (see {@link pngHeader}).
 *
 * @example
 * ```ts
 * pngSize(iconBytes); // { width: 58, height: 58 }
 * ```
 */
export function pngSize(bytes: Uint8Array): PngSize | undefined {
  const header = pngHeader(bytes);
  return header === undefined ? undefined : { width: header.width, height: header.height };
}
