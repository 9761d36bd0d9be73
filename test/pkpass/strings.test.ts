import { describe, expect, test } from 'vitest';
import { PassmintError } from '../../src/errors.js';
import { PackError } from '../../src/pkpass/pack-error.js';
import { decodePassStrings, encodePassStrings, parsePassStrings } from '../../src/pkpass/strings.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const utf16 = (text: string, littleEndian: boolean): Uint8Array => {
  const out = new Uint8Array(2 + text.length * 2);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0xfeff, littleEndian);
  for (let index = 0; index < text.length; index++) view.setUint16(2 + index * 2, text.charCodeAt(index), littleEndian);
  return out;
};
const issueOf = (bytes: Uint8Array) => {
  const result = parsePassStrings(bytes);
  if (result instanceof Map) throw new Error('expected an issue');
  return result;
};

describe('encodePassStrings', () => {
  test('writes UTF-16LE with a BOM, one "key" = "value"; line per entry', () => {
    const bytes = encodePassStrings({ Seat: 'Sitzplatz', Gate: 'Flugsteig' });
    expect([...bytes.subarray(0, 4)]).toEqual([0xff, 0xfe, 0x22, 0x00]);
    expect(new TextDecoder('utf-16le').decode(bytes)).toBe('"Seat" = "Sitzplatz";\n"Gate" = "Flugsteig";\n');
  });

  test('escapes quotes, backslashes, line breaks, tabs and other control characters', () => {
    const bytes = encodePassStrings([['a"b', 'x\\y\n\r\tz\u0001\u007f']]);
    expect(new TextDecoder('utf-16le').decode(bytes)).toBe('"a\\"b" = "x\\\\y\\n\\r\\tz\\U0001\\U007f";\n');
  });

  test('accepts a Map and keeps its order', () => {
    const text = new TextDecoder('utf-16le').decode(
      encodePassStrings(
        new Map([
          ['b', '1'],
          ['a', '2'],
        ]),
      ),
    );
    expect(text).toBe('"b" = "1";\n"a" = "2";\n');
  });

  test('refuses entries that are not strings with a PackError', () => {
    expect(() => encodePassStrings({ a: 1 as unknown as string })).toThrow(PackError);
  });
});

describe('decodePassStrings', () => {
  const text = '/* Seats */\n"Seat" = "Sitzplatz";\n// gates\n"Gate"="Flugsteig" ;\n';
  const expected = new Map([
    ['Seat', 'Sitzplatz'],
    ['Gate', 'Flugsteig'],
  ]);

  test('reads UTF-16LE and UTF-16BE with a BOM, UTF-8 with and without one', () => {
    expect(decodePassStrings(utf16(text, true))).toEqual(expected);
    expect(decodePassStrings(utf16(text, false))).toEqual(expected);
    expect(decodePassStrings(utf8(text))).toEqual(expected);
    expect(decodePassStrings(utf8(`\ufeff${text}`))).toEqual(expected);
  });

  test('Apple\'s escapes: \\" \\\\ \\n \\t \\r \\a \\b \\f \\v, octal, \\U and \\u with up to four hex digits, others stand for themselves', () => {
    const strings = decodePassStrings(utf8('"k" = "\\"\\\\\\n\\t\\r\\a\\b\\f\\v\\101\\U00e9\\u20AC\\UD83D\\UDE00\\q\\\'";'));
    expect(strings.get('k')).toBe('"\\\n\t\r\u0007\b\f\vAé€😀q\'');
  });

  test('unquoted keys and values, "key"; shorthand, the last of two equal keys wins', () => {
    expect(decodePassStrings(utf8('Seat_1 = seat.one; "only"; "a" = "1"; "a" = "2";'))).toEqual(
      new Map([
        ['Seat_1', 'seat.one'],
        ['only', 'only'],
        ['a', '2'],
      ]),
    );
  });

  test('keys such as __proto__ are plain entries', () => {
    const strings = decodePassStrings(utf8('"__proto__" = "x"; "constructor" = "y";'));
    expect(strings.get('__proto__')).toBe('x');
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  test('an empty file, white space only, comments only: no entries', () => {
    expect(decodePassStrings(new Uint8Array())).toEqual(new Map());
    expect(decodePassStrings(utf8(' \n\t/* c */ // d'))).toEqual(new Map());
  });

  test.each([
    ['"a" = "b"', 'Expected ";"', 9],
    ['"a" = "b', 'Unterminated string', 6],
    ['"a" "b";', 'Expected ";"', 4],
    ['"a" = ;', 'Expected a value', 6],
    ['= "b";', 'Expected a key', 0],
    ['"a" = "b"; /* open', 'Unterminated /* comment', 11],
    ['"a" = "\\U";', 'hexadecimal', 7],
  ])('%j → invalid-strings (%s) at offset %i', (source, message, offset) => {
    const issue = issueOf(utf8(source));
    expect(issue).toMatchObject({ code: 'invalid-strings', severity: 'error', path: '', offset });
    expect(issue.message).toContain(message);
    expect(() => decodePassStrings(utf8(source))).toThrow(PassmintError);
  });

  test('bad encodings: invalid UTF-8, odd UTF-16 → invalid-strings', () => {
    expect(issueOf(new Uint8Array([0x22, 0xff, 0x22]))).toMatchObject({ code: 'invalid-strings', offset: 0 });
    expect(issueOf(new Uint8Array([0xff, 0xfe, 0x22]))).toMatchObject({ code: 'invalid-strings' });
    expect(issueOf('text' as unknown as Uint8Array)).toMatchObject({ code: 'invalid-strings' });
  });

  test('hostile text (a megabyte of quotes, backslashes, comment openers, semicolons) ends with one issue or a result', () => {
    const mb = 1024 * 1024;
    expect(issueOf(utf8('"'.repeat(mb))).code).toBe('invalid-strings');
    expect(issueOf(utf8(`"${'\\'.repeat(mb - 1)}`)).code).toBe('invalid-strings');
    expect(issueOf(utf8('/*'.repeat(mb / 2))).code).toBe('invalid-strings');
    expect(issueOf(utf8(';'.repeat(mb))).code).toBe('invalid-strings');
    expect(decodePassStrings(utf8('"a"="b";'.repeat(mb / 8))).size).toBe(1);
    expect(decodePassStrings(utf8(`"k" = "${'\\n'.repeat(mb / 2)}";`)).get('k')?.length).toBe(mb / 2);
  });
});
