import { describe, expect, test } from 'vitest';
import { lineColumn, literalIndex, locatePointer, parseJson, parseJsonTree } from '../../playground/lib/json-locate.js';

// The editor's JSON-Pointer → text map and JSON error positions (pure helpers of the playground).
describe('locatePointer', () => {
  const text = '{\n  "d": {"g": {"p": [{"k": "x", "v": "a\\n${b}"}]}},\n  "a~b/c": [1, 2]\n}';
  const tree = parseJsonTree(text);

  test('finds a nested string value and its key', () => {
    const location = locatePointer(text, tree, '/d/g/p/0/v');
    expect(location && text.slice(location.from, location.to)).toBe('"a\\n${b}"');
    expect(location?.exact).toBe(true);
    expect(location?.isString).toBe(true);
    expect(location?.keyFrom).toBe(text.indexOf('"v"'));
  });

  test('decodes ~0 and ~1 and indexes arrays', () => {
    const location = locatePointer(text, tree, '/a~0b~1c/1');
    expect(location && text.slice(location.from, location.to)).toBe('2');
  });

  test('falls back to the deepest existing member', () => {
    const location = locatePointer(text, tree, '/d/g/p/0/missing');
    expect(location?.exact).toBe(false);
    expect(location && text.slice(location.from, location.from + 10)).toBe('{"k": "x",');
  });

  test('the last of duplicate keys wins, as in JSON.parse', () => {
    const dup = '{"a": 1, "a": 2}';
    const location = locatePointer(dup, parseJsonTree(dup), '/a');
    expect(location?.from).toBe(dup.lastIndexOf('2'));
  });

  test('the empty pointer is the whole document', () => {
    expect(locatePointer(text, tree, '')).toMatchObject({ from: 0, to: text.length, exact: true });
  });
});

describe('literalIndex', () => {
  test('steps over escapes', () => {
    const literal = String.raw`"a\n\u0041` + '${x}"';
    expect(literal.slice(literalIndex(literal, 3))).toBe('${x}"');
    expect(literalIndex(literal, 0)).toBe(1);
  });
});

describe('parseJson', () => {
  test('parses valid JSON', () => {
    expect(parseJson('{"a": [1]}')).toEqual({ ok: true, value: { a: [1] } });
  });

  test.each([
    ['{"a": 1', 1, 8],
    ['{\n  "a": 1,\n  "b": [1, 2,]\n}', 3, 14],
    ['{"a": 1 "b": 2}', 1, 9],
    ['{"a": }', 1, 7],
  ])('locates the error in %j at line %i column %i', (input, line, column) => {
    const result = parseJson(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect({ line: result.error.line, column: result.error.column }).toEqual({ line, column });
      expect(result.error.message).not.toContain('position');
      expect(result.error.message).not.toContain('is not valid JSON');
    }
  });

  test('lineColumn is 1-based', () => {
    expect(lineColumn('a\nbc', 3)).toEqual({ line: 2, column: 2 });
  });
});
