import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sha256 } from '../../src/http/sha256.js';
import { RUNS } from '../arbitraries.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('sha256', () => {
  test('the FIPS 180-4 examples', () => {
    const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
    expect(hex(sha256(encode('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(encode('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(hex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  test('every length around the block boundaries', async () => {
    for (let length = 0; length <= 200; length++) {
      const bytes = new Uint8Array(length).map((_, index) => (index * 31 + length) & 0xff);
      expect(hex(sha256(bytes))).toBe(hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))));
    }
  });

  test('is byte for byte what crypto.subtle gives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), async (bytes) => {
        const expected = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
        expect(hex(sha256(bytes))).toBe(hex(expected));
      }),
      { numRuns: RUNS },
    );
  });
});
