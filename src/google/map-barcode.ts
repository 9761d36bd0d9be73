import type { Pass } from '../types.js';
import { loss } from './loss.js';
import type { GoogleLoss } from './types.js';

const TYPES: Readonly<Record<string, string>> = {
  PKBarcodeFormatQR: 'QR_CODE',
  PKBarcodeFormatPDF417: 'PDF_417',
  PKBarcodeFormatAztec: 'AZTEC',
  PKBarcodeFormatCode128: 'CODE_128',
};

/** The pass's barcode (the first of `barcodes`, else `barcode`) as Google's, or a loss for a format Google lacks. */
export function mapBarcode(pass: Pass): { barcode?: Record<string, unknown>; losses: GoogleLoss[] } {
  const first = Array.isArray(pass.barcodes) && pass.barcodes.length > 0 ? pass.barcodes[0] : pass.barcode;
  if (first === undefined || first === null || typeof first !== 'object') return { losses: [] };
  const path = first === pass.barcode ? '/barcode' : '/barcodes/0';
  const type = TYPES[first.format];
  if (type === undefined) return { losses: [loss('google-barcode-dropped', `${path}/format`, `Google Wallet has no barcode format ${String(first.format)}: the barcode is left out.`)] };
  const barcode: Record<string, unknown> = { type, value: first.message };
  if (first.altText !== undefined) barcode['alternateText'] = first.altText;
  return { barcode, losses: [] };
}
