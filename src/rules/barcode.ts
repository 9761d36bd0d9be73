import { type Context, describe, expectKind, isDict, isDynamic, type Key, nameOf, report, mayInherit } from './context.js';
import type { Sites } from './sites.js';
import { reportUnknownKey } from './unknown-key.js';
import type { Check } from './values.js';

const BARCODE_KEYS = ['message', 'format', 'messageEncoding', 'altText'] as const;
const FORMATS = new Set(['PKBarcodeFormatQR', 'PKBarcodeFormatPDF417', 'PKBarcodeFormatAztec', 'PKBarcodeFormatCode128']);
const CODE128 = 'PKBarcodeFormatCode128';

/** What a placeholder may render to in a barcode for checkBarcode to find no error (see sites.ts). */
export const BARCODE_SITES: Sites = () => (key) => (key === 'format' ? 'none' : (BARCODE_KEYS as readonly string[]).includes(key) ? 'string' : 'any');

/** `barcode`: one barcode, where Code 128 is not allowed. */
export const checkSingleBarcode: Check = (context, value, key) => {
  checkBarcode(context, value, key, false);
};

/** An element of `barcodes`, where Code 128 is allowed. */
export const checkListedBarcode: Check = (context, value, key) => {
  checkBarcode(context, value, key, true);
};

function checkBarcode(context: Context, value: unknown, key: Key, listed: boolean): void {
  if (isDynamic(context, value)) return;
  if (!isDict(value)) {
    report(context, 'error', 'invalid-type', key, `${nameOf(context, key)} must be a barcode object, not ${describe(value)}`);
    return;
  }
  context.stack.push(key);
  let message = false;
  let format = false;
  let encoding = false;
  const inherited = mayInherit(context, value);
  for (const member in value) {
    if (inherited && !Object.hasOwn(value, member)) continue;
    const child = value[member];
    if (child === undefined) continue;
    switch (member) {
      case 'message':
        message = true;
        expectKind(context, child, 'string', member);
        break;
      case 'format':
        format = true;
        checkFormat(context, child, listed);
        break;
      case 'messageEncoding':
        encoding = true;
        expectKind(context, child, 'string', member);
        break;
      case 'altText':
        expectKind(context, child, 'string', member);
        break;
      default:
        reportUnknownKey(context, member, BARCODE_KEYS, 'a barcode');
    }
  }
  if (!message) report(context, 'error', 'missing-key', 'message', 'A barcode needs a `message`');
  if (!format) report(context, 'error', 'missing-key', 'format', 'A barcode needs a `format` (e.g. PKBarcodeFormatQR)');
  if (!encoding) report(context, 'error', 'missing-key', 'messageEncoding', 'A barcode needs a `messageEncoding` (e.g. iso-8859-1)');
  context.stack.pop();
}

function checkFormat(context: Context, value: unknown, listed: boolean): void {
  if (typeof value === 'string' && FORMATS.has(value)) {
    if (value === CODE128 && !listed) {
      report(context, 'error', 'code128-in-barcode', 'format', 'PKBarcodeFormatCode128 is allowed only inside `barcodes`, not in the single `barcode`');
    }
    return;
  }
  if (isDynamic(context, value)) return;
  report(context, 'error', 'invalid-barcode-format', 'format', `\`format\` must be one of ${[...FORMATS].join(', ')}; not ${describe(value)}`);
}
