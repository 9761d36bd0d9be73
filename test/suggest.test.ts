import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { closestName, MAX_EDITS } from '../src/suggest.js';
import { RUNS } from './arbitraries.js';

// The full table, as the function computed it before it kept only a band: the reference.
function fullDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const x = a[i - 1] as string;
      const y = b[j - 1] as string;
      const change = x === y ? 0 : x.toLowerCase() === y.toLowerCase() ? 0.5 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + change);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}

describe('closestName (the "did you mean" of undeclared-placeholder)', () => {
  test.each([
    ['evntName', ['eventName', 'venue'], 'eventName'],
    ['levle', ['level', 'gym'], 'level'],
    ['Name', ['name', 'game'], 'name'],
    ['seat', ['seats', 'date'], 'seats'],
    ['zzzzzzzz', ['eventName'], undefined],
    ['ab', ['xy'], undefined],
    ['x', [], undefined],
  ])('%j among %j → %j', (name, candidates, expected) => {
    expect(closestName(name, candidates)).toBe(expected);
  });

  test('ignoreCase and limit, as unknown-key uses them', () => {
    expect(closestName('LOGOTEXT', ['logoText'], { ignoreCase: true, limit: 2 })).toBe('logoText');
    expect(closestName('LOGOTEXT', ['logoText'])).toBeUndefined();
    expect(closestName('lbl', ['label'], { ignoreCase: true, limit: 1 })).toBeUndefined();
    expect(closestName('Key', ['key'], { ignoreCase: true, limit: 0 })).toBe('key');
  });

  test('suggests exactly the candidates within the limit of the full edit table (banded computation agrees)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'c'), maxLength: 12 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: MAX_EDITS }), (name, candidate, limit) => {
        // Within the limit: less than one edit more than it (a change of case costs ½).
        const expected = fullDistance(name, candidate) < limit + 1 ? candidate : undefined;
        expect(closestName(name, [candidate], { limit })).toBe(expected);
      }),
      { numRuns: RUNS * 5 },
    );
  });

  test('the limit never exceeds MAX_EDITS, whatever is asked', () => {
    expect(closestName('abcdefghijklmnop', ['abcdefghijk'], { limit: 100 })).toBeUndefined();
    expect(closestName('abcdefghijklmnop', ['abcdefghijkl'], { limit: 100 })).toBe('abcdefghijkl');
  });

  test('long names: a typo is still found, far names are not', () => {
    const long = 'x'.repeat(5000);
    expect(closestName(`${long}ab`, [`${long}ba`, 'y'.repeat(5002)])).toBe(`${long}ba`);
    expect(closestName(long, ['y'.repeat(5000)])).toBeUndefined();
  });
});
