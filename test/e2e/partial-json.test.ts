import { describe, expect, test } from 'vitest';
import { readPartialJson } from '../../playground/lib/partial-json.js';

describe('readPartialJson (what a cut share link still holds)', () => {
  test('a string cut short is closed where the text stops, and the cut is located', () => {
    expect(readPartialJson('{"a":"xy","b":"long te')).toEqual({ value: { a: 'xy', b: 'long te' }, complete: false, cut: ['b'] });
  });
  test('containers left open keep their finished members; a half literal is left out', () => {
    expect(readPartialJson('{"a":[1,2,{"c":tr')).toEqual({ value: { a: [1, 2, {}] }, complete: false, cut: ['a', '2', 'c'] });
    expect(readPartialJson('{"a":1,"b')).toEqual({ value: { a: 1 }, complete: false, cut: [] });
  });
  test('a half escape at the end is dropped', () => {
    expect(readPartialJson('{"a":"x\\u00')).toEqual({ value: { a: 'x' }, complete: false, cut: ['a'] });
  });
  test('a whole text is complete; text that is not JSON gives undefined', () => {
    expect(readPartialJson('{"a":1}')).toEqual({ value: { a: 1 }, complete: true, cut: [] });
    expect(readPartialJson('nope')).toBeUndefined();
    expect(readPartialJson('{"a":1} x')).toBeUndefined();
  });
  test('__proto__ stays an ordinary key', () => {
    const result = readPartialJson('{"__proto__":{"x":1},"b":"c');
    expect(Object.keys(result?.value as object)).toEqual(['__proto__', 'b']);
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });
});
