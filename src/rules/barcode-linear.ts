// What iOS 27's four linear barcodes can hold. Unlike QR, PDF417 and Aztec,
// which encode any bytes, each of these has its own character set (and
// EAN-13 a fixed length and a check digit): a message outside it cannot be
// drawn as that symbology, whatever the `messageEncoding`. Where no reading of
// the symbology can draw a message it is an error (as for the other formats:
// no barcode is shown); where only a variant or an encoder's choice could
// (Full ASCII Code 39, a padded ITF, a computed EAN-13 check digit), a
// warning. See SOURCES.md.

/** The iOS 27 formats this file checks. */
export const LINEAR_FORMATS: ReadonlySet<string> = new Set(['PKBarcodeFormatCode39', 'PKBarcodeFormatCodabar', 'PKBarcodeFormatEAN13', 'PKBarcodeFormatI2of5']);

/** Why a linear barcode cannot be drawn (error), or may not be drawn as meant (warning). */
export type LinearProblem =
  | { readonly kind: 'unencodable'; readonly severity: 'error' | 'warning'; readonly offset: number; readonly reason: string }
  | { readonly kind: 'too-long'; readonly size: number; readonly max: number };

// Wallet's barcode area is sized for Code 128, whose readable limit the rules
// set at 80 characters (barcode-capacity.ts): 80 × 11 modules plus start,
// check and stop. The other linear symbologies get the same width in modules.
const MODULE_BUDGET = 80 * 11 + 11 + 11 + 13;

// Code 39: 43 characters, each 3 wide and 6 narrow elements (wide = 3 narrow) and a gap.
const CODE39 = /^[0-9A-Z \-.$/+%]$/;
const CODE39_MODULES = 16;
// Codabar: 0-9 - $ are 2 wide + 5 narrow, : / . + are 3 wide + 4 narrow, each with a gap.
const CODABAR_NARROW = /^[0-9\-$]$/;
const CODABAR_WIDE = /^[:/.+]$/;
const CODABAR_START_STOP = /^[ABCDabcd]$/;
// Interleaved 2 of 5: a pair of digits in 18 modules, start 4, stop 5.
const DIGITS = /^[0-9]*$/;

const NAMES: { readonly [format: string]: string } = {
  PKBarcodeFormatCode39: 'Code 39',
  PKBarcodeFormatCodabar: 'Codabar',
  PKBarcodeFormatEAN13: 'EAN-13',
  PKBarcodeFormatI2of5: 'Interleaved 2 of 5',
};

/** How messages name a format: `Code 39`. */
export function linearFormatName(format: string): string {
  return NAMES[format] ?? format;
}

/**
 * Whether `message` can be drawn as `format` (one of {@link LINEAR_FORMATS});
 * `undefined` when it can. Linear in the message's length.
 *
 * @example
 * ```ts
 * linearBarcodeProblem('4006381333932', 'PKBarcodeFormatEAN13'); // { kind: 'unencodable', severity: 'error', reason: 'its check digit …' }
 * ```
 */
export function linearBarcodeProblem(message: string, format: string): LinearProblem | undefined {
  switch (format) {
    case 'PKBarcodeFormatCode39':
      return code39(message);
    case 'PKBarcodeFormatCodabar':
      return codabar(message);
    case 'PKBarcodeFormatEAN13':
      return ean13(message);
    case 'PKBarcodeFormatI2of5':
      return interleaved(message);
    default:
      return undefined;
  }
}

function code39(message: string): LinearProblem | undefined {
  let symbols = 0;
  let fullAscii: number | undefined;
  for (let index = 0; index < message.length; index++) {
    const character = message[index] as string;
    const code = message.charCodeAt(index);
    if (character === '*') return { kind: 'unencodable', severity: 'error', offset: index, reason: 'Code 39 reserves "*" as its start and stop character' };
    if (code >= 0x80) return { kind: 'unencodable', severity: 'error', offset: index, reason: 'Code 39 holds ASCII only' };
    if (CODE39.test(character)) symbols += 1;
    else {
      // Full ASCII Code 39 writes it as two symbols; a scanner must be set up to read that.
      fullAscii ??= index;
      symbols += 2;
    }
  }
  if (fullAscii !== undefined) {
    return {
      kind: 'unencodable',
      severity: 'warning',
      offset: fullAscii,
      reason:
        'Code 39 holds upper-case letters, digits, space and - . $ / + % only; other ASCII needs Full ASCII Code 39, which Apple does not document and scanners read only when set up for it',
    };
  }
  const max = Math.floor((MODULE_BUDGET - 2 * CODE39_MODULES) / CODE39_MODULES);
  return symbols > max ? { kind: 'too-long', size: symbols, max } : undefined;
}

function codabar(message: string): LinearProblem | undefined {
  // A–D start and stop the symbol: both given, or neither (then the encoder adds them).
  let start = 0;
  let end = message.length;
  const first = message[0] ?? '';
  const last = message[message.length - 1] ?? '';
  const startGiven = CODABAR_START_STOP.test(first);
  const stopGiven = message.length > 1 && CODABAR_START_STOP.test(last);
  if (startGiven !== stopGiven) {
    const offset = startGiven ? 0 : message.length - 1;
    return {
      kind: 'unencodable',
      severity: 'error',
      offset,
      reason: 'a Codabar message starts and ends with one of A, B, C, D (its start and stop characters), or has neither',
    };
  }
  if (startGiven) {
    start = 1;
    end = message.length - 1;
  }
  let modules = 2 * 14;
  for (let index = start; index < end; index++) {
    const character = message[index] as string;
    if (CODABAR_NARROW.test(character)) modules += 12;
    else if (CODABAR_WIDE.test(character)) modules += 14;
    else {
      const reason = CODABAR_START_STOP.test(character)
        ? 'Codabar uses A, B, C and D only as its first and last character'
        : 'Codabar holds the digits and - $ : / . + only (with A–D to start and stop)';
      return { kind: 'unencodable', severity: 'error', offset: index, reason };
    }
  }
  const size = end - start;
  const max = Math.floor((MODULE_BUDGET - 2 * 14) / 12);
  return modules > MODULE_BUDGET ? { kind: 'too-long', size, max } : undefined;
}

function ean13(message: string): LinearProblem | undefined {
  const bad = firstNonDigit(message);
  if (bad !== -1) return { kind: 'unencodable', severity: 'error', offset: bad, reason: 'EAN-13 holds digits only' };
  if (message.length === 12) {
    return {
      kind: 'unencodable',
      severity: 'warning',
      offset: 12,
      reason: 'EAN-13 is 13 digits, the last a check digit; Apple does not document that Wallet adds a missing one, so give all 13',
    };
  }
  if (message.length !== 13) {
    return {
      kind: 'unencodable',
      severity: 'error',
      offset: Math.min(message.length, 13),
      reason: `EAN-13 holds exactly 13 digits (12 and a check digit), not ${message.length}`,
    };
  }
  const expected = ean13CheckDigit(message.slice(0, 12));
  if (message.charCodeAt(12) - 0x30 !== expected) {
    return {
      kind: 'unencodable',
      severity: 'error',
      offset: 12,
      reason: `its check digit is ${message[12]}, but the first 12 digits give ${expected}: scanners refuse the symbol`,
    };
  }
  return undefined;
}

/**
 * The GS1 check digit of 12 digits: weights 1 and 3 alternating from the
 * left, the digit that brings the sum to a multiple of 10.
 *
 * @example
 * ```ts
 * ean13CheckDigit('400638133393'); // 1
 * ```
 */
export function ean13CheckDigit(twelve: string): number {
  let sum = 0;
  for (let index = 0; index < 12; index++) sum += (twelve.charCodeAt(index) - 0x30) * (index % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

function interleaved(message: string): LinearProblem | undefined {
  const bad = firstNonDigit(message);
  if (bad !== -1) return { kind: 'unencodable', severity: 'error', offset: bad, reason: 'Interleaved 2 of 5 holds digits only' };
  if (message.length % 2 === 1) {
    return {
      kind: 'unencodable',
      severity: 'warning',
      offset: 0,
      reason:
        'Interleaved 2 of 5 encodes digits in pairs: an odd count is drawn, if at all, with a leading zero the scanner then reads too; give an even number of digits',
    };
  }
  const max = Math.floor((MODULE_BUDGET - 9) / 18) * 2;
  return message.length > max ? { kind: 'too-long', size: message.length, max } : undefined;
}

function firstNonDigit(text: string): number {
  if (DIGITS.test(text)) return -1;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return index;
  }
  return -1;
}
