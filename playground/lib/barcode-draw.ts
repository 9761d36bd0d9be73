import { azteccode, code128, pdf417, qrcode } from 'bwip-js/browser';

// Only the four symbologies Wallet uses are imported, so the bundler can leave the
// rest of bwip-js out. This module is only ever loaded with a dynamic import().
const ENCODERS = {
  PKBarcodeFormatQR: { draw: qrcode, options: { scale: 3, eclevel: 'M' } },
  PKBarcodeFormatPDF417: { draw: pdf417, options: { scale: 2, height: 2, columns: 4 } },
  PKBarcodeFormatAztec: { draw: azteccode, options: { scale: 3 } },
  PKBarcodeFormatCode128: { draw: code128, options: { scale: 2, height: 12 } },
} as const;

/** Barcode formats the preview can draw. */
export type DrawableFormat = keyof typeof ENCODERS;

/**
 * Draws a barcode message onto a canvas in one of Wallet's formats; throws
 * bwip-js's error when the message cannot be encoded in that format.
 *
 * @example
 * ```ts
 * const { drawBarcode } = await import('./barcode-draw.js');
 * drawBarcode(canvas, 'PKBarcodeFormatQR', 'ABC123');
 * ```
 */
export function drawBarcode(canvas: HTMLCanvasElement, format: DrawableFormat, message: string): void {
  const encoder = ENCODERS[format];
  encoder.draw(canvas, { bcid: '', text: message, ...encoder.options });
}

/** Whether the preview can draw a format. */
export function isDrawable(format: string): format is DrawableFormat {
  return Object.hasOwn(ENCODERS, format);
}
