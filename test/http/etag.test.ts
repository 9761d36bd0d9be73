import { describe, expect, test } from 'vitest';
import { entityTag, ifNoneMatchMatches } from '../../src/http/etag.js';

describe('entityTag', () => {
  test('is the quoted base64url SHA-256 of the bytes', async () => {
    expect(await entityTag(new TextEncoder().encode('{}'))).toBe('"RBNvo1WzZ4oRRq0W9-hknpT7T8If536DEMBg9hyq_4o"');
    expect(await entityTag(new Uint8Array(0))).toBe('"47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"');
  });
});

describe('ifNoneMatchMatches', () => {
  const etag = '"abc"';
  test.each(['"abc"', 'W/"abc"', '"x", "abc"', '"x","abc"', 'W/"x" , W/"abc"', '*', ' "abc"', '"x", *'])('%j matches', (header) => {
    expect(ifNoneMatchMatches(header, etag)).toBe(true);
  });

  test.each(['', '"ab"', '"abcd"', 'abc', '"ABC"', 'w/"abc"', '"x" junk "abc"', '"x', 'W/', '"x"y"abc"'])('%j does not match', (header) => {
    expect(ifNoneMatchMatches(header, etag)).toBe(false);
  });
});
