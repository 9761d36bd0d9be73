import type { Pass } from '../types.js';
import { loss } from './loss.js';
import type { GoogleLoss } from './types.js';

// Apple's formats (iOS 27's linear ones too) as Google's BarcodeType.
const TYPES: Readonly<Record<string, string>> = {
  PKBarcodeFormatQR: 'QR_CODE',
  PKBarcodeFormatPDF417: 'PDF_417',
  PKBarcodeFormatAztec: 'AZTEC',
  PKBarcodeFormatCode128: 'CODE_128',
  PKBarcodeFormatCode39: 'CODE_39',
  PKBarcodeFormatCodabar: 'CODABAR',
  PKBarcodeFormatEAN13: 'EAN_13',
  PKBarcodeFormatI2of5: 'ITF_14',
};

/** Google's type for one Apple barcode, or why Google cannot show it. */
function googleType(format: unknown, message: unknown): string | { why: string; at: 'format' | 'message' } {
  if (typeof format !== 'string' || !Object.hasOwn(TYPES, format)) {
    return { why: `Google Wallet has no barcode format ${typeof format === 'string' ? format.slice(0, 60) : typeof format}`, at: 'format' };
  }
  if (typeof message !== 'string') return { why: 'The barcode message is not a string', at: 'message' };
  // Google's only Interleaved 2 of 5 is ITF-14: fourteen digits.
  if (format === 'PKBarcodeFormatI2of5' && !/^\d{14}$/.test(message))
    return { why: 'Google Wallet draws Interleaved 2 of 5 only as ITF-14 (14 digits)', at: 'format' };
  return TYPES[format] as string;
}

/**
 * The barcode Google shows: the first of `barcodes` (else `barcode`) that
 * Google can draw — Apple's first one when it can, a later fallback when the
 * first is a format Google lacks. When Google can draw none, the first
 * barcode's message is shown as text (`TEXT_ONLY`), so the holder can still
 * read it out. Every barcode left out is a located loss.
 */
export function mapBarcode(pass: Pass): { barcode?: Record<string, unknown>; losses: GoogleLoss[] } {
  // As Wallet reads them: `barcodes` when it holds any, else the old `barcode`.
  const useList = Array.isArray(pass.barcodes) && pass.barcodes.length > 0;
  const list: readonly (readonly [unknown, string])[] = useList
    ? (pass.barcodes as readonly unknown[]).map((entry, index) => [entry, `/barcodes/${index}`] as const)
    : pass.barcode !== undefined
      ? [[pass.barcode, '/barcode']]
      : [];
  const losses: GoogleLoss[] = [];
  if (useList && pass.barcode !== undefined)
    losses.push(
      loss('google-barcode-dropped', '/barcode', 'Wallet shows `barcodes` and so does Google Wallet: `barcode` (for iOS 8 and earlier) is left out.'),
    );
  let barcode: Record<string, unknown> | undefined;
  // The first barcode Google cannot draw, while none is drawn: its message may still be shown as text.
  let undrawn: { path: string; message: string; altText: unknown; why: string; loss: number } | undefined;
  for (const [entry, path] of list) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      losses.push(loss('google-barcode-dropped', path, 'This barcode is not an object: it is left out.'));
      continue;
    }
    if (barcode !== undefined) {
      losses.push(loss('google-barcode-dropped', path, 'Google Wallet shows one barcode: the one before is used, this one is left out.'));
      continue;
    }
    const { format, message, altText } = entry as { format?: unknown; message?: unknown; altText?: unknown };
    const type = googleType(format, message);
    if (typeof type !== 'string') {
      if (undrawn === undefined && typeof message === 'string' && type.at === 'format')
        undrawn = { path, message, altText, why: type.why, loss: losses.length };
      losses.push(loss('google-barcode-dropped', path, `${type.why}: this barcode is left out.`));
      continue;
    }
    barcode = { type, value: message };
    appendAltText(barcode, altText, path, losses);
  }
  if (barcode === undefined && undrawn !== undefined) {
    // Google's TEXT_ONLY barcode: the message shown as text where the code would be.
    barcode = { type: 'TEXT_ONLY', value: undrawn.message };
    losses[undrawn.loss] = loss(
      'google-barcode-dropped',
      `${undrawn.path}/format`,
      `${undrawn.why}: Google Wallet shows its message as text instead of a code.`,
    );
    appendAltText(barcode, undrawn.altText, undrawn.path, losses);
  }
  return barcode === undefined ? { losses } : { barcode, losses };
}

function appendAltText(barcode: Record<string, unknown>, altText: unknown, path: string, losses: GoogleLoss[]): void {
  if (typeof altText === 'string') barcode['alternateText'] = altText;
  else if (altText !== undefined) losses.push(loss('google-barcode-dropped', `${path}/altText`, "The barcode's altText is not a string: it is left out."));
}
