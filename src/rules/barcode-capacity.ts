// What a barcode can hold. Wallet encodes `message` into bytes with
// `messageEncoding` and draws the symbol; a message the encoding cannot
// represent, or more data than the symbology holds at all, gives no barcode.
// The limits are each format's absolute maximum — its densest mode (digits,
// then text, then bytes) at its lowest error correction — so a message over
// them cannot be drawn by any encoder: an error, never a guess.

/** How a `messageEncoding` turns text into bytes, for the encodings passmint can check. */
type Charset = 'ascii' | 'latin1' | 'utf8' | 'utf16';

// IANA names and aliases (case-insensitive), as CFStringConvertIANACharSetNameToEncoding reads them.
const CHARSETS: ReadonlyMap<string, Charset> = new Map<string, Charset>([
  ['us-ascii', 'ascii'],
  ['ascii', 'ascii'],
  ['iso646-us', 'ascii'],
  ['ansi_x3.4-1968', 'ascii'],
  ['iso-8859-1', 'latin1'],
  ['iso_8859-1', 'latin1'],
  ['iso8859-1', 'latin1'],
  ['latin1', 'latin1'],
  ['l1', 'latin1'],
  ['cp819', 'latin1'],
  ['ibm819', 'latin1'],
  ['iso-ir-100', 'latin1'],
  ['utf-8', 'utf8'],
  ['utf8', 'utf8'],
  ['utf-16', 'utf16'],
  ['utf-16be', 'utf16'],
  ['utf-16le', 'utf16'],
]);

// Other IANA charsets Wallet reads; passmint does not model their bytes, so it does not check messages in them.
const OTHER_CHARSETS: ReadonlySet<string> = new Set([
  'windows-1250',
  'windows-1251',
  'windows-1252',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-1258',
  'iso-8859-2',
  'iso-8859-3',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-6',
  'iso-8859-7',
  'iso-8859-8',
  'iso-8859-9',
  'iso-8859-10',
  'iso-8859-13',
  'iso-8859-14',
  'iso-8859-15',
  'iso-8859-16',
  'koi8-r',
  'koi8-u',
  'shift_jis',
  'euc-jp',
  'iso-2022-jp',
  'gb2312',
  'gbk',
  'gb18030',
  'big5',
  'euc-kr',
  'utf-32',
  'utf-32be',
  'utf-32le',
]);

/** Whether `name` is an IANA charset passmint knows Wallet to read. */
export function knownEncoding(name: string): boolean {
  const lower = name.toLowerCase();
  return CHARSETS.has(lower) || OTHER_CHARSETS.has(lower);
}

/** Most data each format holds: [digits only, its text subset, any bytes]. */
const CAPACITY: { readonly [format: string]: readonly [number, number, number] } = {
  // ISO/IEC 18004: version 40-L.
  PKBarcodeFormatQR: [7089, 4296, 2953],
  // ISO/IEC 15438: numeric, text and byte compaction, 928 codewords at the least error correction.
  PKBarcodeFormatPDF417: [2710, 1850, 1108],
  // ISO/IEC 24778: the 32-layer full-range symbol, 5 % error correction.
  PKBarcodeFormatAztec: [3832, 3067, 1914],
};

// The text each format packs densest after digits: QR's alphanumeric set,
// PDF417's text compaction (printable ASCII), Aztec's upper-case mode.
const TEXT_SUBSET: { readonly [format: string]: RegExp } = {
  PKBarcodeFormatQR: /^[0-9A-Z $%*+\-./:]*$/,
  PKBarcodeFormatPDF417: /^[\t\n\r -~]*$/,
  PKBarcodeFormatAztec: /^[A-Z ]*$/,
};
const DIGITS = /^[0-9]*$/;

/** Code 128 has no size limit of its own; past this many characters Wallet's narrow barcode area makes it unreadable. */
export const CODE128_READABLE = 80;

/** A reason a barcode cannot be drawn, or a doubt about it. */
export type CapacityProblem =
  | { readonly kind: 'unencodable'; readonly offset: number; readonly character: string; readonly encoding: string }
  | { readonly kind: 'too-long'; readonly size: number; readonly unit: 'bytes' | 'characters'; readonly max: number; readonly severity: 'error' | 'warning' }
  | undefined;

/**
 * Whether `message` fits `format` when encoded with `encoding`; `undefined`
 * when it does (or when passmint does not model the encoding). Linear in the
 * message's length.
 */
export function barcodeCapacityProblem(message: string, format: string, encoding: string): CapacityProblem {
  // Core Image's Code 128 generator takes ASCII only, whatever the encoding.
  const charset = format === 'PKBarcodeFormatCode128' ? 'ascii' : CHARSETS.get(encoding.toLowerCase());
  if (charset === undefined) return undefined;
  const bad = firstUnencodable(message, charset);
  if (bad !== -1) {
    const code = message.codePointAt(bad) ?? 0;
    return {
      kind: 'unencodable',
      offset: bad,
      character: String.fromCodePoint(code),
      encoding: format === 'PKBarcodeFormatCode128' ? 'Code 128 (ASCII)' : encoding,
    };
  }
  if (format === 'PKBarcodeFormatCode128') {
    return message.length > CODE128_READABLE
      ? { kind: 'too-long', size: message.length, unit: 'characters', max: CODE128_READABLE, severity: 'warning' }
      : undefined;
  }
  const capacity = CAPACITY[format];
  const subset = TEXT_SUBSET[format];
  if (capacity === undefined || subset === undefined) return undefined;
  // Fits even as plain bytes: fits in every mode.
  const bytes = byteLength(message, charset);
  if (bytes <= capacity[2]) return undefined;
  // Digits and each format's text subset pack denser, when their characters
  // reach the encoder as single bytes (not in UTF-16).
  if (charset !== 'utf16') {
    if (DIGITS.test(message)) return message.length > capacity[0] ? tooLong(message.length, 'characters', capacity[0]) : undefined;
    if (subset.test(message)) return message.length > capacity[1] ? tooLong(message.length, 'characters', capacity[1]) : undefined;
  }
  return tooLong(bytes, 'bytes', capacity[2]);
}

function tooLong(size: number, unit: 'bytes' | 'characters', max: number): CapacityProblem {
  return { kind: 'too-long', size, unit, max, severity: 'error' };
}

/** Index of the first character `charset` cannot hold (a lone surrogate for the Unicode ones), or -1. */
function firstUnencodable(text: string, charset: Charset): number {
  const limit = charset === 'ascii' ? 0x80 : charset === 'latin1' ? 0x100 : Infinity;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= limit) return index;
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const next = text.charCodeAt(index + 1);
      if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) index++;
      else return index;
    }
  }
  return -1;
}

function byteLength(text: string, charset: Charset): number {
  switch (charset) {
    case 'ascii':
    case 'latin1':
      return text.length;
    case 'utf16':
      return text.length * 2;
    case 'utf8': {
      let bytes = 0;
      for (let index = 0; index < text.length; index++) {
        const unit = text.charCodeAt(index);
        if (unit < 0x80) bytes += 1;
        else if (unit < 0x800) bytes += 2;
        else if (unit >= 0xd800 && unit <= 0xdbff) {
          bytes += 4;
          index++;
        } else bytes += 3;
      }
      return bytes;
    }
  }
}

/**
 * Whether a rendered barcode message certainly fits every format and
 * encoding the rules check: short printable ASCII. buildPass's fast path
 * tests this; anything else goes through the full rules, which are exact.
 */
export function isPlainBarcodeText(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 256) return false;
  for (let index = 0; index < value.length; index++) if (value.charCodeAt(index) >= 0x80) return false;
  return true;
}
