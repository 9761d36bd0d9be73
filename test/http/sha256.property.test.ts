import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sha256 as nodeSha256 } from '../../src/http/sha256/node.js';
import { sha256 as webSha256 } from '../../src/http/sha256/web.js';
import { sha256 } from '../../src/http/sha256/index.js';
import { RUNS } from '../arbitraries.js';

const hex = async (digest: Uint8Array | Promise<Uint8Array>): Promise<string> => Buffer.from(await digest).toString('hex');

describe('#sha256', () => {
  test('under Node (the tests), #sha256 is the node:crypto implementation', () => {
    expect(sha256).toBe(nodeSha256);
  });

  test('both implementations give the FIPS 180-4 examples', async () => {
    for (const implementation of [nodeSha256, webSha256]) {
      expect(await hex(implementation(new TextEncoder().encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      expect(await hex(implementation(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    }
  });

  test('node and web agree byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), async (bytes) => {
        expect(await hex(nodeSha256(bytes))).toBe(await hex(webSha256(bytes)));
      }),
      { numRuns: RUNS },
    );
  });
});
