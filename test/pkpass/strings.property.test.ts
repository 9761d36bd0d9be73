import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodePassStrings, encodePassStrings, parsePassStrings } from '../../src/pkpass/strings.js';
import { RUNS } from '../arbitraries.js';

// Text rich in what the format escapes, plus any UTF-16 code unit (lone surrogates included).
const tricky = fc.string({
  maxLength: 20,
  unit: fc.oneof(
    fc.constantFrom('"', '\\', '\n', '\r', '\t', '\u0000', '/*', '*/', '//', ';', '=', ' ', 'é', '😀', '\\U'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  ),
});
const entries = fc.uniqueArray(fc.tuple(tricky, tricky), { maxLength: 8, selector: ([key]) => key });

describe('pass.strings round trip', () => {
  test('decode(encode(entries)) gives back the entries, in order', () => {
    fc.assert(
      fc.property(entries, (pairs) => {
        expect([...decodePassStrings(encodePassStrings(pairs))]).toEqual(pairs);
      }),
      { numRuns: RUNS },
    );
  });

  test('the encoded text read as UTF-8 (well-formed strings) gives the same entries', () => {
    const isWellFormed = (text: string): boolean => !/\p{Cs}/u.test(text);
    const wellFormed = entries.filter((pairs) => pairs.every(([key, value]) => isWellFormed(key) && isWellFormed(value)));
    fc.assert(
      fc.property(wellFormed, (pairs) => {
        const text = new TextDecoder('utf-16le').decode(encodePassStrings(pairs));
        expect([...decodePassStrings(new TextEncoder().encode(text))]).toEqual(pairs);
      }),
      { numRuns: RUNS },
    );
  });

  test('any bytes: a map or one invalid-strings issue with an offset inside the text, never a throw', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }),
          tricky.map((text) => new TextEncoder().encode(text)),
        ),
        (bytes) => {
          const result = parsePassStrings(bytes);
          if (result instanceof Map) return;
          expect(result.code).toBe('invalid-strings');
          expect(result.offset).toBeGreaterThanOrEqual(0);
          expect(result.offset).toBeLessThanOrEqual(bytes.length);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
