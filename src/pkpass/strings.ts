// pass.strings: Apple's "strings file" (an old-style property list of string
// pairs). Written as Apple's tools write it (UTF-16LE with a BOM); read in any
// of the encodings Wallet reads. One pass over the text, no backtracking, so
// hostile input costs linear time.

import type { Issue } from '../issues.js';
import { PackError } from './pack-error.js';

/**
 * Writes entries as a `pass.strings` file: `"key" = "value";` lines in the
 * given order, UTF-16LE with a byte order mark, as Apple's tools do.
 * Quotes, backslashes, line breaks, tabs and other control characters are escaped.
 *
 * @example
 * ```ts
 * const files = { 'de.lproj/pass.strings': encodePassStrings({ 'Seat': 'Sitzplatz', 'Gate': 'Flugsteig' }) };
 * ```
 */
export function encodePassStrings(entries: Readonly<Record<string, string>> | Iterable<readonly [string, string]>): Uint8Array<ArrayBuffer> {
  const pairs = Symbol.iterator in entries ? [...(entries as Iterable<readonly [string, string]>)] : Object.entries(entries);
  let text = '';
  pairs.forEach(([key, value], index) => {
    if (typeof key !== 'string' || typeof value !== 'string') {
      throw new PackError('Invalid pass.strings entries', [
        { severity: 'error', code: 'invalid-strings', message: `Entry ${index} is not a pair of strings`, path: `/${index}` },
      ]);
    }
    text += `"${escape(key)}" = "${escape(value)}";\n`;
  });
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    out[2 + index * 2] = unit & 0xff;
    out[3 + index * 2] = unit >> 8;
  }
  return out;
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(text: string): string {
  return text.replace(/["\\\u0000-\u001f\u007f]/g, (char) => ESCAPES[char] ?? `\\U${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Reads a `pass.strings` file: UTF-16 (LE or BE) with a byte order mark, or
 * UTF-8 with or without one. `"key" = "value";` pairs, `/* … *\/` and `//`
 * comments, the escapes Apple's parser knows (`\"`, `\\`, `\n`, `\t`, `\r`,
 * `\a`, `\b`, `\f`, `\v`, octal `\101`, `\U00e9` / `\u00e9`; any other escaped
 * character stands for itself), unquoted keys of letters, digits and `_$+/:.-`,
 * and `"key";` as short for `"key" = "key";`. A key given twice keeps its last value.
 *
 * Throws a {@link PackError} with one `invalid-strings` issue whose `offset` is
 * the UTF-16 index in the decoded text where reading failed.
 *
 * @example
 * ```ts
 * decodePassStrings(encodePassStrings({ Seat: 'Sitzplatz' })).get('Seat'); // 'Sitzplatz'
 * ```
 */
export function decodePassStrings(bytes: Uint8Array): Map<string, string> {
  const result = parsePassStrings(bytes);
  if (result instanceof Map) return result;
  throw new PackError('Invalid pass.strings', [result]);
}

/** {@link decodePassStrings} without the throw: the entries, or the issue (path `''`). */
export function parsePassStrings(bytes: Uint8Array): Map<string, string> | Issue {
  const text = decodeText(bytes);
  if (typeof text !== 'string') return text;
  return new Parser(text).parse();
}

const invalid = (message: string, offset: number): Issue => ({ severity: 'error', code: 'invalid-strings', message, path: '', offset });

function decodeText(bytes: Uint8Array): string | Issue {
  if (!(bytes instanceof Uint8Array)) return invalid('pass.strings must be bytes (a Uint8Array)', 0);
  const [a, b] = [bytes[0], bytes[1]];
  if ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)) {
    if (bytes.length % 2 !== 0) return invalid('UTF-16 text with an odd number of bytes', 0);
    return utf16(bytes, a === 0xff);
  }
  try {
    // fatal: a byte that is not UTF-8 is an error, not a replacement character. The decoder drops a BOM.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return invalid('Text without a UTF-16 byte order mark must be UTF-8', 0);
  }
}

/** UTF-16 code units as they are: a lone surrogate round-trips, as it does through Apple's parser. */
function utf16(bytes: Uint8Array, littleEndian: boolean): string {
  const units = new Uint16Array((bytes.length - 2) / 2);
  for (let index = 0; index < units.length; index++) {
    const low = bytes[2 + index * 2]!;
    const high = bytes[3 + index * 2]!;
    units[index] = littleEndian ? low | (high << 8) : (low << 8) | high;
  }
  let text = '';
  for (let index = 0; index < units.length; index += 8192) text += String.fromCharCode(...units.subarray(index, index + 8192));
  return text;
}

const UNQUOTED = /[A-Za-z0-9_$+/:.-]/y;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', f: '\f', v: '\v' };

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): Map<string, string> | Issue {
    const entries = new Map<string, string>();
    try {
      for (;;) {
        this.skip();
        if (this.at >= this.text.length) return entries;
        const key = this.string('a key');
        this.skip();
        let value = key;
        if (this.text[this.at] === '=') {
          this.at++;
          this.skip();
          value = this.string('a value');
          this.skip();
        }
        if (this.text[this.at] !== ';') throw invalid(`Expected ";" after ${JSON.stringify(key.slice(0, 40))}`, this.at);
        this.at++;
        entries.set(key, value);
      }
    } catch (issue) {
      return issue as Issue;
    }
  }

  /** Skips white space and comments. */
  private skip(): void {
    const text = this.text;
    while (this.at < text.length) {
      const char = text.charCodeAt(this.at);
      if (char === 0x20 || (char >= 0x09 && char <= 0x0d) || char === 0x2028 || char === 0x2029 || char === 0xfeff) {
        this.at++;
      } else if (char === 0x2f && text[this.at + 1] === '*') {
        const end = text.indexOf('*/', this.at + 2);
        if (end < 0) throw invalid('Unterminated /* comment', this.at);
        this.at = end + 2;
      } else if (char === 0x2f && text[this.at + 1] === '/') {
        const end = text.indexOf('\n', this.at + 2);
        this.at = end < 0 ? text.length : end + 1;
      } else {
        return;
      }
    }
  }

  private string(what: string): string {
    const text = this.text;
    if (text[this.at] !== '"') {
      const start = this.at;
      UNQUOTED.lastIndex = start;
      while (UNQUOTED.test(text)) this.at = UNQUOTED.lastIndex;
      if (this.at === start) throw invalid(`Expected ${what} (a quoted string)`, start);
      return text.slice(start, this.at);
    }
    const start = this.at;
    this.at++;
    const parts: string[] = [];
    let from = this.at;
    for (;;) {
      if (this.at >= text.length) throw invalid('Unterminated string', start);
      const char = text[this.at];
      if (char === '"') {
        parts.push(text.slice(from, this.at));
        this.at++;
        return parts.join('');
      }
      if (char !== '\\') {
        this.at++;
        continue;
      }
      parts.push(text.slice(from, this.at));
      this.at++;
      parts.push(this.escape(start));
      from = this.at;
    }
  }

  /** Reads the escape after a backslash. */
  private escape(stringStart: number): string {
    const text = this.text;
    const char = text[this.at];
    if (char === undefined) throw invalid('Unterminated string', stringStart);
    this.at++;
    const simple = SIMPLE_ESCAPES[char];
    if (simple !== undefined) return simple;
    if (char === 'U' || char === 'u') {
      let digits = 0;
      let code = 0;
      while (digits < 4 && /[0-9A-Fa-f]/.test(text[this.at] ?? '')) {
        code = code * 16 + Number.parseInt(text[this.at]!, 16);
        this.at++;
        digits++;
      }
      if (digits === 0) throw invalid(`Expected hexadecimal digits after \\${char}`, this.at - 2);
      return String.fromCharCode(code);
    }
    if (char >= '0' && char <= '7') {
      let code = Number(char);
      for (let digits = 1; digits < 3 && text[this.at]! >= '0' && text[this.at]! <= '7'; digits++) code = code * 8 + Number(text[this.at++]);
      return String.fromCharCode(code);
    }
    return char;
  }
}
