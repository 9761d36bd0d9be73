import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkSignature, createPassSigner, SignerError, type PassSigner, type PassSignerOptions } from '../../src/pkpass/index.js';
import { RUNS } from '../arbitraries.js';
import { makePki } from './pki.js';

const PATHS = new Set(['/certificate', '/privateKey', '/wwdr']);
const CODES = new Set([
  'invalid-certificate',
  'invalid-key',
  'wrong-passphrase',
  'key-mismatch',
  'wrong-wwdr',
  'certificate-expired',
  'certificate-not-yet-valid',
  'not-pass-certificate',
]);

function expectSignerError(error: unknown): void {
  expect(error).toBeInstanceOf(SignerError);
  const { issues } = error as SignerError;
  expect(issues.length).toBeGreaterThan(0);
  for (const issue of issues) {
    expect(PATHS.has(issue.path)).toBe(true);
    expect(CODES.has(issue.code)).toBe(true);
  }
}

const manifest = new TextEncoder().encode('{}');

/** Something a caller might pass by mistake: text, PEM-looking text, bytes, a real input cut or with a byte changed. */
function input(real: readonly (string | Uint8Array)[]): fc.Arbitrary<string | Uint8Array> {
  const pem = fc
    .tuple(fc.constantFrom('CERTIFICATE', 'PRIVATE KEY', 'RSA PRIVATE KEY', 'ENCRYPTED PRIVATE KEY'), fc.base64String({ maxLength: 200 }), fc.boolean())
    .map(([label, body, headers]) => `-----BEGIN ${label}-----\n${headers ? 'Proc-Type: 4,ENCRYPTED\n\n' : ''}${body}\n-----END ${label}-----\n`);
  const damaged = fc.tuple(fc.constantFrom(...real), fc.nat(), fc.integer({ min: 1, max: 255 }), fc.boolean()).map(([value, at, delta, cut]) => {
    const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : new Uint8Array(value);
    const index = at % bytes.length;
    if (cut) return bytes.subarray(0, index);
    bytes[index] = ((bytes[index] as number) + delta) & 0xff;
    return bytes;
  });
  return fc.oneof(fc.string({ maxLength: 60 }), pem, fc.uint8Array({ maxLength: 120 }), damaged);
}

describe('createPassSigner on hostile input', () => {
  test('anything broken in any option: a SignerError with signer codes at the options’ paths, never another error', async () => {
    const pki = await makePki();
    const good = { certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem };
    const options = fc.record({
      which: fc.subarray(['certificate', 'privateKey', 'wwdr'] as const, { minLength: 1 }),
      certificate: input([pki.certPem, pki.certDer]),
      privateKey: input([pki.keyPem, pki.keyDer, pki.encryptedKeyPem]),
      wwdr: input([pki.wwdrPem, pki.wwdrDer]),
    });
    await fc.assert(
      fc.asyncProperty(options, async ({ which, ...broken }) => {
        const mixed: PassSignerOptions = { ...good, passphrase: 'secret' };
        for (const key of which) Object.assign(mixed, { [key]: broken[key] });
        let made: PassSigner;
        try {
          made = await createPassSigner(mixed);
        } catch (error) {
          expectSignerError(error);
          return;
        }
        // Accepted: the damage missed everything that matters (a byte in a part no check reads,
        // such as a WWDR extension). Then what it signs must still be a good signature.
        const check = await checkSignature(await made.sign(manifest), manifest);
        expect(check.issues).toEqual([]);
        expect(made.passTypeIdentifier).toBe('pass.com.example.test');
      }),
      { numRuns: Math.max(50, Math.floor(RUNS / 4)) },
    );
  });
});
