import { describe, expect, test } from 'vitest';
import { readManifest, toHex, writeManifest } from '../../src/pkpass/manifest.js';
import { pngSize } from '../../src/pkpass/png.js';
import { png, sha1Hex } from './helpers.js';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

describe('manifest.json', () => {
  test('written in the given order, even for names JSON.stringify would move first', () => {
    const hash = sha1Hex(new Uint8Array());
    const bytes = writeManifest([
      ['pass.json', hash],
      ['2', hash],
      ['de.lproj/pass.strings', hash],
    ]);
    const textOf = new TextDecoder().decode(bytes);
    expect(textOf.indexOf('"pass.json"')).toBeLessThan(textOf.indexOf('"2"'));
    expect(JSON.parse(textOf)).toEqual({ 'pass.json': hash, '2': hash, 'de.lproj/pass.strings': hash });
  });

  test('read back: lowercase hashes; upper-case hex accepted and lowered', () => {
    const { entries, issues } = readManifest(text(`{"a.png":"${'AB'.repeat(20)}","b":"${'0'.repeat(40)}"}`));
    expect(issues).toEqual([]);
    expect(entries.get('a.png')).toBe('ab'.repeat(20));
  });

  test.each([
    ['[]', '/manifest.json'],
    ['"x"', '/manifest.json'],
    ['{', '/manifest.json'],
    ['{"a/b": "123"}', '/manifest.json/a~1b'],
    ['{"a": 1}', '/manifest.json/a'],
  ])('%s → invalid-manifest at %s', (source, path) => {
    expect(readManifest(text(source)).issues).toMatchObject([{ code: 'invalid-manifest', path }]);
  });

  test('read as Apple reads pass.json: a trailing comma is a trailing-comma warning, a path given twice a duplicate-key warning (the last hash counts)', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const trailing = readManifest(text(`{"icon.png": "${a}",\n "pass.json": "${b}",\n}`));
    expect(trailing.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual(['warning trailing-comma /manifest.json/pass.json']);
    expect([...trailing.entries]).toEqual([
      ['icon.png', a],
      ['pass.json', b],
    ]);
    const twice = readManifest(text(`{"icon.png": "${a}", "icon.png": "${b}"}`));
    expect(twice.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual(['warning duplicate-key /manifest.json/icon.png']);
    expect(twice.entries.get('icon.png')).toBe(b);
    // Two commas stay invalid, as in pass.json.
    expect(readManifest(text(`{"icon.png": "${a}",,}`)).issues).toMatchObject([{ severity: 'error', code: 'invalid-manifest', path: '/manifest.json' }]);
  });

  test('toHex is lowercase, two digits a byte', () => {
    expect(toHex(new Uint8Array([0, 1, 171, 255]))).toBe('0001abff');
  });
});

describe('pngSize', () => {
  test('reads width and height from IHDR', () => {
    expect(pngSize(png(58, 29))).toEqual({ width: 58, height: 29 });
  });

  test('not a PNG, truncated, or an IHDR that is not first: undefined', () => {
    expect(pngSize(text('GIF89a........................................'))).toBeUndefined();
    expect(pngSize(png(10, 10).subarray(0, 20))).toBeUndefined();
    const broken = png(10, 10);
    broken[12] = 0x78; // chunk type "xHDR"
    expect(pngSize(broken)).toBeUndefined();
    const empty = png(10, 10);
    empty.fill(0, 16, 20); // width 0
    expect(pngSize(empty)).toBeUndefined();
  });
});
