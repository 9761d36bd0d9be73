import { describe, expect, test } from 'vitest';
import { scanPlaceholders } from '../../src/placeholder/scan.js';

describe('scanPlaceholders', () => {
  test('splits text and placeholders with offsets', () => {
    expect(scanPlaceholders('Row ${seat}, gate ${gate}!')).toEqual({
      segments: [
        { type: 'text', value: 'Row ', offset: 0 },
        { type: 'placeholder', name: 'seat', offset: 4 },
        { type: 'text', value: ', gate ', offset: 11 },
        { type: 'placeholder', name: 'gate', offset: 18 },
        { type: 'text', value: '!', offset: 25 },
      ],
      issues: [],
    });
  });

  test('a string without notation is one text segment; the empty string has none', () => {
    expect(scanPlaceholders('Venue').segments).toEqual([{ type: 'text', value: 'Venue', offset: 0 }]);
    expect(scanPlaceholders('')).toEqual({ segments: [], issues: [] });
  });

  test('adjacent placeholders', () => {
    expect(scanPlaceholders('${a}${b}').segments).toEqual([
      { type: 'placeholder', name: 'a', offset: 0 },
      { type: 'placeholder', name: 'b', offset: 4 },
    ]);
  });

  test('$ without {, and } alone, are literal text', () => {
    expect(scanPlaceholders('$5 } {x} $ {y}')).toEqual({
      segments: [{ type: 'text', value: '$5 } {x} $ {y}', offset: 0 }],
      issues: [],
    });
  });

  test('names may hold spaces, dots, dashes and any non-control unicode', () => {
    const names = scanPlaceholders('${first name}${a.b-c}${名前}${🎫}')
      .segments.filter((segment) => segment.type === 'placeholder')
      .map((segment) => (segment.type === 'placeholder' ? segment.name : ''));
    expect(names).toEqual(['first name', 'a.b-c', '名前', '🎫']);
  });

  test.each([
    ['${}', 0, ''],
    ['ab${ x}', 2, ' x'],
    ['${x }', 0, 'x '],
    ['${a$b}', 0, 'a$b'],
    ['${a${b}', 0, 'a${b'],
    ['x${a\nb}', 1, 'a\nb'],
    ['${a\u0000}', 0, 'a\u0000'],
    ['${a\u0085}', 0, 'a\u0085'],
  ])('invalid-placeholder in %j at offset %i', (text, offset, name) => {
    const { segments, issues } = scanPlaceholders(text);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'invalid-placeholder', severity: 'error', offset, placeholder: name, path: '' });
    // The malformed part stays literal text.
    expect(segments.every((segment) => segment.type === 'text')).toBe(true);
  });

  test('an invalid placeholder does not hide a valid one after it', () => {
    const { segments, issues } = scanPlaceholders('${ a} ${b}');
    expect(issues.map((issue) => [issue.code, issue.offset])).toEqual([['invalid-placeholder', 0]]);
    expect(segments).toEqual([
      { type: 'text', value: '${ a} ', offset: 0 },
      { type: 'placeholder', name: 'b', offset: 6 },
    ]);
  });

  test('unterminated-placeholder: one issue at the first unclosed ${, the rest is text', () => {
    const { segments, issues } = scanPlaceholders('Hi ${name} and ${oops ${more');
    expect(issues).toEqual([expect.objectContaining({ code: 'unterminated-placeholder', offset: 15, severity: 'error' })]);
    expect(segments.at(-1)).toEqual({ type: 'text', value: ' and ${oops ${more', offset: 10 });
  });

  test('1 MB of adversarial text is scanned, with one issue for the unclosed run', () => {
    const text = '${'.repeat(500_000);
    const { segments, issues } = scanPlaceholders(text);
    expect(issues).toEqual([expect.objectContaining({ code: 'unterminated-placeholder', offset: 0 })]);
    expect(segments).toEqual([{ type: 'text', value: text, offset: 0 }]);
  });

  test('a run of "${}" reports each empty name, located', () => {
    const { issues } = scanPlaceholders('${}'.repeat(1000));
    expect(issues).toHaveLength(1000);
    expect(issues[999]).toMatchObject({ code: 'invalid-placeholder', offset: 2997 });
  });
});

describe('name rules, character by character', () => {
  // The rules as regular expressions, the way they are written in the design notes.
  const expected = (name: string): string | undefined => {
    if (name.includes('$') || name.includes('{')) return 'a name may not contain "$" or "{"';
    if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'a name may not contain control characters';
    if (/^\s|\s$/.test(name)) return 'a name may not start or end with whitespace';
    return undefined;
  };
  const problemOf = (name: string): string | undefined => {
    const issue = scanPlaceholders(`\${${name}}`).issues[0];
    return issue === undefined ? undefined : issue.message.slice(issue.message.indexOf(': ') + 2);
  };

  test('every UTF-16 code unit, alone, first, last and inside, gets the problem the regular expressions give', () => {
    const mismatches: number[] = [];
    for (let code = 0; code < 0x10000; code++) {
      if (code === 0x7d) continue; // `}` ends the name
      const char = String.fromCharCode(code);
      for (const name of [char, `${char}a`, `a${char}`, `a${char}b`, `${char}$`]) {
        if (problemOf(name) !== expected(name)) mismatches.push(code);
      }
    }
    expect(mismatches).toStrictEqual([]);
  });
});
