import { type Context, describe, expectKind, isDict, isDynamic, quote, report } from './context.js';
import { reportUnknownKey } from './unknown-key.js';
import type { Check } from './values.js';

const BARCODE_KEYS = ['message', 'format', 'messageEncoding', 'altText'] as const;
const FORMATS = new Set(['PKBarcodeFormatQR', 'PKBarcodeFormatPDF417', 'PKBarcodeFormatAztec', 'PKBarcodeFormatCode128']);
const CODE128 = 'PKBarcodeFormatCode128';

/** `barcode`: one barcode, where Code 128 is not allowed. */
export const checkSingleBarcode: Check = (context, value, path, name) => {
  checkBarcode(context, value, path, name, false);
};

/** An element of `barcodes`, where Code 128 is allowed. */
export const checkListedBarcode: Check = (context, value, path, name) => {
  checkBarcode(context, value, path, name, true);
};

function checkBarcode(context: Context, value: unknown, path: string, name: string, listed: boolean): void {
  if (isDynamic(context, value)) return;
  if (!isDict(value)) {
    report(context, 'error', 'invalid-type', path, `${quote(name)} must be a barcode object, not ${describe(value)}`);
    return;
  }
  let message = false;
  let format = false;
  let encoding = false;
  for (const member of Object.keys(value)) {
    const child = value[member];
    if (child === undefined) continue;
    const at = `${path}/${member}`;
    switch (member) {
      case 'message':
        message = true;
        expectKind(context, child, 'string', at, '`message`');
        break;
      case 'format':
        format = true;
        checkFormat(context, child, at, listed);
        break;
      case 'messageEncoding':
        encoding = true;
        expectKind(context, child, 'string', at, '`messageEncoding`');
        break;
      case 'altText':
        expectKind(context, child, 'string', at, '`altText`');
        break;
      default:
        reportUnknownKey(context, member, path, BARCODE_KEYS, 'a barcode');
    }
  }
  if (!message) report(context, 'error', 'missing-key', `${path}/message`, 'A barcode needs a `message`');
  if (!format) report(context, 'error', 'missing-key', `${path}/format`, 'A barcode needs a `format` (e.g. PKBarcodeFormatQR)');
  if (!encoding) report(context, 'error', 'missing-key', `${path}/messageEncoding`, 'A barcode needs a `messageEncoding` (e.g. iso-8859-1)');
}

function checkFormat(context: Context, value: unknown, path: string, listed: boolean): void {
  if (isDynamic(context, value)) return;
  if (typeof value === 'string' && FORMATS.has(value)) {
    if (value === CODE128 && !listed) {
      report(context, 'error', 'code128-in-barcode', path, 'PKBarcodeFormatCode128 is allowed only inside `barcodes`, not in the single `barcode`');
    }
    return;
  }
  report(context, 'error', 'invalid-barcode-format', path, `\`format\` must be one of ${[...FORMATS].join(', ')}; not ${describe(value)}`);
}
