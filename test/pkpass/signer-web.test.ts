// The whole signer and checker on the Web Crypto implementation of #pkcrypto,
// as browsers, Deno, Bun and edge workers run them (Vitest runs Node, where
// #pkcrypto resolves to node:crypto; here it is swapped for web.ts).
import { sign as nodeSign } from 'node:crypto';
import { describe, expect, test, vi } from 'vitest';

vi.mock('../../src/pkpass/crypto/index.js', async () => import('../../src/pkpass/crypto/web.js'));

const { importRsaSigningKey } = await import('../../src/pkpass/crypto/index.js');
const web = await import('../../src/pkpass/crypto/web.js');
const { parseDer } = await import('../../src/pkpass/asn1/der-reader.js');
const { checkSignature } = await import('../../src/pkpass/signature-check.js');
const { makePki, opensslVerify, signer } = await import('./pki.js');

const manifest = new TextEncoder().encode('{"pass.json":"5f1e8b7a4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f"}');
const signingTime = new Date('2026-03-04T05:06:07Z');

describe('the signer on Web Crypto', () => {
  test('#pkcrypto is the Web Crypto implementation in this file', () => {
    expect(importRsaSigningKey).toBe(web.importRsaSigningKey);
  });

  test.each(['sha256', 'sha1'] as const)(
    '%s: openssl verifies it, checkSignature accepts it, and the RSA value is node:crypto’s to the byte',
    async (digest) => {
      const pki = await makePki();
      const signature = await (await signer()).sign(manifest, { signingTime, digest });
      expect(await opensslVerify(signature, manifest)).toEqual({ code: 0, stderr: '' });
      expect((await checkSignature(signature, manifest, { roots: [pki.rootPem] })).issues).toEqual([]);
      const signerInfo = parseDer(signature).children[1]?.children[0]?.children.at(-1)?.children[0];
      const attributes = signerInfo?.children[3]?.raw ?? new Uint8Array();
      const signed = Uint8Array.from([0x31, ...attributes.subarray(1)]);
      expect(Buffer.from(signerInfo?.children[5]?.content ?? []).equals(nodeSign(digest, signed, pki.keyPem))).toBe(true);
      const changed = new Uint8Array(manifest);
      changed[2] = 0x41;
      expect((await checkSignature(signature, changed)).issues.map((issue) => issue.code)).toEqual(['digest-mismatch']);
    },
  );
});
