import { barcodeCapacityProblem, knownEncoding } from './barcode-capacity.js';
import { type Context, describe, expectKind, isDict, isDynamic, type Key, nameOf, report, mayInherit } from './context.js';
import type { Sites } from './sites.js';
import { reportUnknownKey } from './unknown-key.js';
import type { Check } from './values.js';

const BARCODE_KEYS = ['message', 'format', 'messageEncoding', 'altText'] as const;
const FORMATS = new Set(['PKBarcodeFormatQR', 'PKBarcodeFormatPDF417', 'PKBarcodeFormatAztec', 'PKBarcodeFormatCode128']);
const CODE128 = 'PKBarcodeFormatCode128';

/** What a placeholder may render to in a barcode for checkBarcode to find no error (see sites.ts). */
// The format and the encoding decide what the message may hold: no cheap
// test of them alone is exact ('none'); a message that is short ASCII fits
// every format and encoding ('barcode-text').
export const BARCODE_SITES: Sites = () => (key) =>
  key === 'format' || key === 'messageEncoding' ? 'none' : key === 'message' ? 'barcode-text' : (BARCODE_KEYS as readonly string[]).includes(key) ? 'string' : 'any';

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
  let message: unknown;
  let format: unknown;
  let encoding: unknown;
  const inherited = mayInherit(context, value);
  for (const member in value) {
    if (inherited && !Object.hasOwn(value, member)) continue;
    const child = value[member];
    if (child === undefined) continue;
    switch (member) {
      case 'message':
        message = child;
        expectKind(context, child, 'string', member);
        break;
      case 'format':
        format = child;
        checkFormat(context, child, listed);
        break;
      case 'messageEncoding':
        encoding = child;
        expectKind(context, child, 'string', member);
        break;
      case 'altText':
        expectKind(context, child, 'string', member);
        break;
      default:
        reportUnknownKey(context, member, BARCODE_KEYS, 'a barcode');
    }
  }
  if (message === undefined) report(context, 'error', 'missing-key', 'message', 'A barcode needs a `message`');
  if (format === undefined) report(context, 'error', 'missing-key', 'format', 'A barcode needs a `format` (e.g. PKBarcodeFormatQR)');
  if (encoding === undefined) report(context, 'error', 'missing-key', 'messageEncoding', 'A barcode needs a `messageEncoding` (e.g. iso-8859-1)');
  if (isText(context, encoding)) {
    if (!knownEncoding(encoding)) {
      report(context, 'warning', 'unknown-message-encoding', 'messageEncoding', `\`messageEncoding\` ${describe(encoding)} is not an IANA charset name Wallet is known to read (e.g. iso-8859-1, utf-8)`);
    } else if (isText(context, message) && isText(context, format) && FORMATS.has(format)) {
      checkCapacity(context, message, format, encoding);
    }
  }
  context.stack.pop();
}

/** A string whose final value is known (no placeholder in it). */
function isText(context: Context, value: unknown): value is string {
  return typeof value === 'string' && !context.isDynamic(value);
}

function checkCapacity(context: Context, message: string, format: string, encoding: string): void {
  const problem = barcodeCapacityProblem(message, format, encoding);
  if (problem === undefined) return;
  const name = format.replace('PKBarcodeFormat', '');
  if (problem.kind === 'unencodable') {
    report(
      context,
      'error',
      'barcode-message-unencodable',
      'message',
      `The barcode \`message\` holds ${describe(problem.character)}, which ${problem.encoding} cannot encode: Wallet shows no barcode (use utf-8, or leave the character out)`,
      problem.offset,
    );
    return;
  }
  report(
    context,
    problem.severity,
    'barcode-message-too-long',
    'message',
    problem.severity === 'error'
      ? `The barcode \`message\` is ${problem.size} ${problem.unit}; a ${name} symbol holds at most ${problem.max}: Wallet shows no barcode`
      : `The barcode \`message\` is ${problem.size} characters; Code 128 this long does not fit Wallet's barcode area readably (keep it under ${problem.max})`,
  );
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
