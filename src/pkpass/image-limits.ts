// How large an image passmint signs, reads as valid and serves: a bound on
// the pixels a PNG declares, checked before anything decodes it. A 400 KB PNG
// can declare 65535×65535 pixels (16 GiB once drawn); the phone, Google's
// image fetcher and any preview that decodes it pay for that, not the file.

import type { Issue } from '../issues.js';
import { filePointer, preview } from './paths.js';
import type { PngHeader } from './png.js';

/**
 * The widest and tallest image, in pixels. The largest image Apple documents
 * is the poster artwork (358×448 points): 1074×1344 pixels at @3x; 4096 is
 * three times that with room to spare, and far past anything Wallet draws.
 *
 * @example
 * ```ts
 * MAX_IMAGE_SIDE; // 4096
 * ```
 */
export const MAX_IMAGE_SIDE = 4096;

/**
 * The most bytes an image may take once decoded for drawing (width × height ×
 * bytes a pixel: 4 for 8-bit RGBA, 8 for 16-bit samples): 20 MiB, the largest
 * file `readPass` and `verifyPass` take from a package (`maxEntrySize`), so a
 * picture never costs more to draw than the largest file costs to read. A
 * 2048×2048 RGBA image (16 MiB) fits; the largest Apple documents needs 5.5 MiB.
 *
 * @example
 * ```ts
 * MAX_DECODED_IMAGE_BYTES; // 20971520
 * ```
 */
export const MAX_DECODED_IMAGE_BYTES: number = 20 * 1024 * 1024;

/** Bytes a pixel takes once decoded: 8-bit RGBA, or 16-bit RGBA for 16-bit samples. */
function drawnBytesPerPixel(header: PngHeader): number {
  return header.bitDepth === 16 ? 8 : 4;
}

/**
 * The `image-too-large` error of a PNG whose declared size is past
 * {@link MAX_IMAGE_SIDE} or {@link MAX_DECODED_IMAGE_BYTES}, naming the file
 * and the limit; `undefined` when it is within both.
 *
 * @example
 * ```ts
 * imageTooLarge('icon.png', { width: 65535, height: 65535, bitDepth: 8, colorType: 6 })?.code; // 'image-too-large'
 * ```
 */
export function imageTooLarge(path: string, header: PngHeader): Issue | undefined {
  const { width, height } = header;
  const where = filePointer(path);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    return {
      severity: 'error',
      code: 'image-too-large',
      message: `${preview(path)} declares ${width}×${height} pixels; images are limited to ${MAX_IMAGE_SIDE} pixels a side (the largest Wallet draws is 1344)`,
      path: where,
    };
  }
  const bytes = width * height * drawnBytesPerPixel(header);
  if (bytes > MAX_DECODED_IMAGE_BYTES) {
    return {
      severity: 'error',
      code: 'image-too-large',
      message: `${preview(path)} declares ${width}×${height} pixels, ${mebibytes(bytes)} once decoded; images are limited to ${mebibytes(MAX_DECODED_IMAGE_BYTES)} decoded`,
      path: where,
    };
  }
  return undefined;
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`;
}
