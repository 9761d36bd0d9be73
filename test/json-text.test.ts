import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseJsonText } from '../src/json-text.js';
import { RUNS } from './arbitraries.js';

function jsonParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch {
    return { ok: false };
  }
}

describe('parseJsonText', () => {
  test('reads what JSON.parse reads, to the same value', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const parsed = parseJsonText(text);
        expect(parsed.issues.filter((issue) => issue.code === 'invalid-json')).toEqual([]);
        expect(parsed.value).toEqual(JSON.parse(text));
      }),
      { numRuns: RUNS },
    );
  });

  test('with trailingCommas: invalid, refuses exactly what JSON.parse refuses', () => {
    const pieces = ['{', '}', '[', ']', ',', ':', '"a"', '"\\u00e9"', '"\\x"', '1', '-0.5e+3', '01', '1.', 'true', 'nul', ' ', '\n', '"\u0001"'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const expected = jsonParse(text);
        const parsed = parseJsonText(text, { trailingCommas: 'invalid' });
        const invalid = parsed.issues.filter((issue) => issue.code === 'invalid-json');
        expect(invalid.length).toBe(expected.ok ? 0 : 1);
        if (expected.ok) expect(parsed.value).toEqual(expected.value);
        else expect('value' in parsed).toBe(false);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  test('by default, refuses what JSON.parse refuses once commas before a closing bracket are removed', () => {
    const pieces = ['{', '}', '[', ']', ',', ', ', ':', '"a"', '1', 'true', ' '];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        // One comma (not after another comma or an opening bracket) before a closing bracket.
        const expected = jsonParse(text.replace(/([^\s,[{])(\s*),(\s*[}\]])/g, '$1$2$3'));
        const parsed = parseJsonText(text);
        expect(parsed.issues.filter((issue) => issue.code === 'invalid-json').length).toBe(expected.ok ? 0 : 1);
        if (expected.ok) expect(parsed.value).toEqual(expected.value);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  test("a trailing comma is Apple's reading: a trailing-comma warning at the member it follows, the value kept", () => {
    const text = '{\n  "barcodes": [{"format": "PKBarcodeFormatQR",}, 2,\n  ],\n  "a": 1,\n}';
    const parsed = parseJsonText(text);
    expect(parsed.value).toEqual({ barcodes: [{ format: 'PKBarcodeFormatQR' }, 2], a: 1 });
    expect(parsed.issues.map(({ severity, code, path }) => ({ severity, code, path }))).toEqual([
      { severity: 'warning', code: 'trailing-comma', path: '/barcodes/0/format' },
      { severity: 'warning', code: 'trailing-comma', path: '/barcodes/1' },
      { severity: 'warning', code: 'trailing-comma', path: '/a' },
    ]);
    expect(parsed.issues[2]?.message).toContain('line 4, column 9');
    expect(parseJsonText('[,]').issues[0]?.code).toBe('invalid-json');
    expect(parseJsonText('[1,,]').issues[0]?.code).toBe('invalid-json');
    expect(parseJsonText('{,}').issues[0]?.code).toBe('invalid-json');
    expect(parseJsonText('[1,]', { trailingCommas: 'invalid' })).toMatchObject({ issues: [{ code: 'invalid-json', offset: 3 }] });
  });

  test('a key given twice is a duplicate-key warning at the repeated member, the last value kept', () => {
    const text = '{\n  "generic": {"primaryFields": []},\n  "serialNumber": "1",\n  "generic": {}\n}';
    const parsed = parseJsonText(text);
    expect(parsed.value).toEqual({ generic: {}, serialNumber: '1' });
    expect(parsed.issues).toHaveLength(1);
    expect(parsed.issues[0]).toMatchObject({ severity: 'warning', code: 'duplicate-key', path: '/generic' });
    expect(parsed.issues[0]?.message).toContain('line 2, column 3');
    expect(parseJsonText(text, { duplicateKeys: 'error' }).issues[0]?.severity).toBe('error');
  });

  test('duplicate keys deep inside arrays get their exact pointer, escaped', () => {
    const parsed = parseJsonText('{"a/b": [0, {"x": 1, "x": 2}]}');
    expect(parsed.issues.map((issue) => issue.path)).toEqual(['/a~1b/1/x']);
  });

  test('invalid JSON is one invalid-json error with the offset, line and column', () => {
    const parsed = parseJsonText('{\n  "a": 1,\n}', { trailingCommas: 'invalid' });
    expect(parsed.value).toBeUndefined();
    expect(parsed.issues).toEqual([
      {
        severity: 'error',
        code: 'invalid-json',
        path: '',
        offset: 12,
        message: 'Not valid JSON: "}" where a key in double quotes was expected (line 3, column 1)',
      },
    ]);
  });

  test('locate gives the member key, or the value of an element, 1-based', () => {
    const text = '{\n  "generic": {\n    "primaryFields": [\n      {"key": "a", "value": "x"}\n    ]\n  }\n}';
    const parsed = parseJsonText(text);
    expect(parsed.locate('')).toEqual({ offset: 0, line: 1, column: 1, exact: true });
    expect(parsed.locate('/generic')).toEqual({ offset: 4, line: 2, column: 3, exact: true });
    expect(parsed.locate('/generic/primaryFields/0')).toMatchObject({ line: 4, column: 7, exact: true });
    expect(parsed.locate('/generic/primaryFields/0/value')).toMatchObject({ line: 4, column: 20, exact: true });
    // Past the text: the deepest existing ancestor.
    expect(parsed.locate('/generic/primaryFields/0/label')).toMatchObject({ line: 4, column: 7, exact: false });
    expect(parsed.locate('/generic/transitType')).toMatchObject({ line: 2, column: 3, exact: false });
  });

  test('locate with an offset finds a character inside a string literal, escapes stepped over', () => {
    const text = '{"logoText": "a\\n\\u0041${x}"}';
    const parsed = parseJsonText(text);
    // Decoded "a\nA${x}": the `$` is character 3; in the literal it follows a, \n and \u0041.
    const at = parsed.locate('/logoText', 3);
    expect(at?.offset).toBe(text.indexOf('$'));
  });

  test('__proto__ is an ordinary own key, as with JSON.parse', () => {
    const parsed = parseJsonText('{"__proto__": {"polluted": true}}');
    const value = parsed.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(parsed.locate('/__proto__/polluted')?.exact).toBe(true);
  });

  test('any nesting depth is read without recursion', () => {
    const depth = 200_000;
    const parsed = parseJsonText(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect(parsed.issues).toEqual([]);
    let value = parsed.value;
    let levels = 0;
    while (Array.isArray(value)) {
      levels++;
      value = value[0];
    }
    expect(levels).toBe(depth);
    const unclosed = parseJsonText('['.repeat(depth));
    expect(unclosed.issues[0]).toMatchObject({ code: 'invalid-json', offset: depth });
  });

  test('a byte order mark is skipped; offsets still count it', () => {
    const parsed = parseJsonText('\uFEFF{"a": 1}');
    expect(parsed.value).toEqual({ a: 1 });
    expect(parsed.locate('/a')?.offset).toBe(2);
  });

  test('empty text and text after the value are invalid-json', () => {
    expect(parseJsonText('').issues[0]).toMatchObject({ code: 'invalid-json', offset: 0 });
    expect(parseJsonText('{} x').issues[0]).toMatchObject({ code: 'invalid-json', offset: 3 });
    expect(parseJsonText('  ').locate('')).toBeUndefined();
  });
});

// The README's "Reading JSON text" example, as a test: the same code, the lines it prints.
test('README: file:line:column for the issues of a template read from text', async () => {
  const { validateTemplate } = await import('../src/index.js');
  const file = 'typo.json';
  const text = [
    '{',
    '  "id": 1, "name": "Gym", "formatVersion": 1, "passType": "pass.com.example.gym",',
    '  "description": {',
    '    "generic": { "primaryFields": [{ "key": "level", "value": "Level ${levle}" }] },',
    '    "logoText": "Gym", "logoText": "Gym club"',
    '  },',
    '  "placeholder": ["level"]',
    '}',
  ].join('\n');
  const lines: string[] = [];
  const parsed = parseJsonText(text);
  const report = validateTemplate(parsed.value);
  for (const issue of [...parsed.issues, ...report.issues]) {
    const at = parsed.locate(issue.path, issue.offset);
    lines.push(`${file}:${at?.line}:${at?.column}: ${issue.severity} ${issue.code}`);
  }
  expect(lines).toEqual([
    'typo.json:5:24: warning duplicate-key',
    'typo.json:4:70: error undeclared-placeholder', // the `$` of `${levle}`
    'typo.json:7:19: warning unused-placeholder', // the element "level"
  ]);
});
