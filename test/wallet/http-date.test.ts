import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatHttpDate, parseHttpDate } from '../../src/wallet/http-date.js';
import { RUNS } from '../arbitraries.js';

describe('HTTP dates', () => {
  test('the three forms RFC 9110 names are read; anything else is undefined', () => {
    const time = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(formatHttpDate(time + 999)).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(time);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(time);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(time);
    for (const text of [
      '',
      'yesterday',
      'Sun, 06 Nov 1994 08:49:37 UTC',
      'Sun, 31 Feb 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 24:00:00 GMT',
      'Sun, 06 Xyz 1994 08:49:37 GMT',
      '784111777',
    ]) {
      expect([text, parseHttpDate(text)]).toEqual([text, undefined]);
    }
  });

  test('format then parse gives the time back, to the second', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_000_000_000_000, max: 253_000_000_000_000 }), (time) => {
        expect(parseHttpDate(formatHttpDate(time))).toBe(Math.floor(time / 1000) * 1000);
      }),
      { numRuns: RUNS },
    );
  });
});
