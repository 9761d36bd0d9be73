import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseDer, type DerNode } from '../../src/pkpass/asn1/der-reader.js';
import { checkSignature, type SignatureCheck } from '../../src/pkpass/index.js';
import { RUNS } from '../arbitraries.js';
import { makePki, signer } from './pki.js';

const SIGNATURE_CODES = new Set([
  'missing-signature',
  'invalid-signature',
  'signature-mismatch',
  'digest-mismatch',
  'missing-signing-time',
  'missing-certificate',
  'missing-wwdr',
  'wrong-wwdr',
  'signed-content-mismatch',
  'untrusted-chain',
  'certificate-expired',
  'certificate-not-yet-valid',
]);

const manifest = new TextEncoder().encode('{"icon.png":"2a4a1d5e0d7d1b0c6bd4e5f7d0a1f0b6c3a2e1d9"}');
const signingTime = new Date('2026-03-04T05:06:07Z');
// RSA verifications make each run cost several times a pure one; a quarter of the project's run count covers the shapes.
const runs = Math.max(50, Math.floor(RUNS / 4));

function wellFormed(check: SignatureCheck): void {
  expect(Array.isArray(check.issues)).toBe(true);
  for (const issue of check.issues) {
    expect(issue.path).toBe('/signature');
    expect(SIGNATURE_CODES.has(issue.code)).toBe(true);
    expect(['error', 'warning']).toContain(issue.severity);
    expect(typeof issue.message).toBe('string');
    // Every failure is one the checks foresaw, never the last-resort catch.
    expect(issue.message).not.toMatch(/^The signature could not be checked/);
  }
}

describe('checkSignature never throws', () => {
  test('random bytes: only signature issues, at least one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        const check = await checkSignature(bytes, manifest);
        wellFormed(check);
        expect(check.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: runs },
    );
  });

  test('random TLV-looking bytes that start like a ContentInfo', async () => {
    const prefix = Uint8Array.of(0x30, 0x80, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02, 0xa0, 0x80, 0x30, 0x80);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(0x30, 0x31, 0xa0, 0x80, 0x00, 0x02, 0x01, 0x04, 0x06, 0x05, 0x82, 0xff), { maxLength: 120 }), async (tail) => {
        const check = await checkSignature(Uint8Array.from([...prefix, ...tail]), manifest);
        wellFormed(check);
        expect(check.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: runs },
    );
  });

  test('a valid signature with one byte changed, cut short, or grown: well-formed issues', async () => {
    const pki = await makePki();
    const signature = await (await signer()).sign(manifest, { signingTime });
    await fc.assert(
      fc.asyncProperty(fc.nat(signature.length - 1), fc.integer({ min: 1, max: 255 }), fc.constantFrom('flip', 'cut', 'insert'), async (index, delta, how) => {
        let changed: Uint8Array;
        if (how === 'cut') changed = signature.subarray(0, index);
        else if (how === 'insert') changed = Uint8Array.from([...signature.subarray(0, index), delta, ...signature.subarray(index)]);
        else {
          changed = new Uint8Array(signature);
          changed[index] = ((changed[index] as number) + delta) & 0xff;
        }
        const check = await checkSignature(changed, manifest, { roots: [pki.rootPem] });
        wellFormed(check);
        if (how !== 'flip') expect(check.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: runs },
    );
  });

  test('any byte changed in the signed attributes or the RSA signature: an error issue', async () => {
    const signature = await (await signer()).sign(manifest, { signingTime });
    const root = parseDer(signature);
    const signerInfo = root.children[1]?.children[0]?.children.at(-1)?.children[0] as DerNode;
    const attributes = signerInfo.children[3] as DerNode;
    const value = signerInfo.children[5] as DerNode;
    const covered = [
      ...Array.from({ length: attributes.raw.length - 1 }, (_, index) => attributes.offset + 1 + index),
      ...Array.from({ length: value.content.length }, (_, index) => value.offset + value.raw.length - value.content.length + index),
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...covered), fc.integer({ min: 1, max: 255 }), async (index, delta) => {
        const changed = new Uint8Array(signature);
        changed[index] = ((changed[index] as number) + delta) & 0xff;
        const check = await checkSignature(changed, manifest);
        wellFormed(check);
        expect(check.issues.some((issue) => issue.severity === 'error')).toBe(true);
      }),
      { numRuns: runs },
    );
  });

  test('any change of the content: digest-mismatch', async () => {
    const signature = await (await signer()).sign(manifest, { signingTime });
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (content) => {
        fc.pre(Buffer.compare(Buffer.from(content), Buffer.from(manifest)) !== 0);
        const check = await checkSignature(signature, content);
        expect(check.issues.map((issue) => issue.code)).toEqual(['digest-mismatch']);
      }),
      { numRuns: runs },
    );
  });
});
