import { barcodeCapacityProblem, knownEncoding } from './barcode-capacity.js';
import { LINEAR_FORMATS, linearBarcodeProblem, linearFormatName } from './barcode-linear.js';
import { type Context, describe, expectKind, isDict, isDynamic, type Key, nameOf, report, mayInherit } from './context.js';
import type { Sites } from './sites.js';
import { reportUnknownKey } from './unknown-key.js';
import type { Check } from './values.js';

const BARCODE_KEYS = ['message', 'format', 'messageEncoding', 'altText'] as const;
/** The formats every iOS since 9 draws (Code 128 not on watchOS). */
export const CLASSIC_FORMATS: ReadonlySet<string> = new Set(['PKBarcodeFormatQR', 'PKBarcodeFormatPDF417', 'PKBarcodeFormatAztec', 'PKBarcodeFormatCode128']);
// iOS 27 adds four linear formats (WWDC26 "What's new in Wallet"; Pass.Barcodes).
const FORMATS: ReadonlySet<string> = new Set([...CLASSIC_FORMATS, ...LINEAR_FORMATS]);
const CODE128 = 'PKBarcodeFormatCode128';

/** What a placeholder may render to in a barcode for checkBarcode to find no error (see sites.ts). */
// The format and the encoding decide what the message may hold: no cheap
// test of them alone is exact ('none'); a message that is short ASCII fits
// every encoding and the two-dimensional formats and Code 128
// ('barcode-text'), not the linear formats of iOS 27, which each hold their
// own characters ('none').
export const BARCODE_SITES: Sites = (_keys, constant) => {
  const format = constant('format');
  const message = typeof format === 'string' && CLASSIC_FORMATS.has(format) ? 'barcode-text' : 'none';
  return (key) =>
    key === 'format' || key === 'messageEncoding' ? 'none' : key === 'message' ? message : (BARCODE_KEYS as readonly string[]).includes(key) ? 'string' : 'any';
};

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
  if (isText(context, message) && isText(context, format) && LINEAR_FORMATS.has(format)) {
    // Their characters are ASCII in every charset: the encoding does not matter.
    checkLinear(context, message, format);
  }
  if (isText(context, encoding)) {
    if (!knownEncoding(encoding)) {
      report(
        context,
        'warning',
        'unknown-message-encoding',
        'messageEncoding',
        `\`messageEncoding\` ${describe(encoding)} is not an IANA charset name Wallet is known to read (e.g. iso-8859-1, utf-8)`,
      );
    } else if (isText(context, message) && isText(context, format) && CLASSIC_FORMATS.has(format)) {
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

function checkLinear(context: Context, message: string, format: string): void {
  const problem = linearBarcodeProblem(message, format);
  if (problem === undefined) return;
  const name = linearFormatName(format);
  if (problem.kind === 'too-long') {
    report(
      context,
      'warning',
      'barcode-message-too-long',
      'message',
      `The barcode \`message\` is ${problem.size} characters; ${name} this long does not fit Wallet's barcode area readably (keep it under ${problem.max})`,
    );
    return;
  }
  const message_ =
    problem.severity === 'error'
      ? `The barcode \`message\` cannot be drawn as ${name}: ${problem.reason}; Wallet shows no barcode`
      : `The barcode \`message\` may not scan as ${name} as meant: ${problem.reason}`;
  report(context, problem.severity, 'barcode-message-unencodable', 'message', message_, problem.offset);
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

/**
 * After the walk of a body: when the barcode Wallet shows first is one of
 * iOS 27's formats, one of the classic formats must follow it in `barcodes`,
 * or iOS 26 and earlier show no barcode (`missing-barcode-fallback`, a
 * warning: the pass still opens). Placeholders defer the check.
 */
export function checkBarcodeFallback(context: Context, barcodes: unknown, barcode: unknown): void {
  let key: 'barcode' | 'barcodes' = 'barcodes';
  let entries: readonly unknown[];
  if (Array.isArray(barcodes)) entries = barcodes;
  else if (barcodes === undefined && barcode !== undefined) {
    key = 'barcode';
    entries = [barcode];
  } else return;
  let first = -1;
  for (let index = 0; index < entries.length; index++) {
    const format = formatOf(entries[index]);
    if (format === undefined || context.isDynamic(format)) return;
    if (first === -1 && LINEAR_FORMATS.has(format)) first = index;
    else if (first === -1 && CLASSIC_FORMATS.has(format)) return;
    else if (first !== -1 && CLASSIC_FORMATS.has(format)) return;
  }
  if (first === -1) return;
  const format = formatOf(entries[first]) as string;
  context.stack.push(key);
  if (key === 'barcodes') context.stack.push(first);
  report(
    context,
    'warning',
    'missing-barcode-fallback',
    'format',
    `${format} needs iOS 27: add a barcode of a format earlier systems draw (QR, PDF417, Aztec, Code 128) after it in \`barcodes\`, or iOS 26 and earlier show no barcode`,
  );
  if (key === 'barcodes') context.stack.pop();
  context.stack.pop();
}

function formatOf(entry: unknown): string | undefined {
  if (!isDict(entry)) return typeof entry === 'string' ? entry : undefined;
  const format = entry['format'];
  return typeof format === 'string' ? format : undefined;
}
