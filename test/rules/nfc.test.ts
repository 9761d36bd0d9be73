import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { validatePass } from '../../src/pass/validate.js';
import { nfcKeyProblem } from '../../src/rules/nfc-key.js';
import { validateTemplate } from '../../src/template/validate.js';
import { draft } from '../fixtures.js';
import { genericPass } from '../pass/passes.js';

// Issue 31: Apple's `nfc` dictionary — message (required, ≤ 64 bytes of UTF-8),
// encryptionPublicKey (base64 DER SubjectPublicKeyInfo of an ECDH P-256 key),
// requiresAuthentication (boolean, best with sharingProhibited).

function spki(type: 'ec' | 'rsa' | 'ed25519', curve?: string): string {
  const { publicKey } =
    type === 'ec'
      ? generateKeyPairSync('ec', { namedCurve: curve ?? 'prime256v1' })
      : type === 'rsa'
        ? generateKeyPairSync('rsa', { modulusLength: 1024 })
        : generateKeyPairSync('ed25519');
  return publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
}

const P256 = spki('ec');

/** `severity code path` of every issue of the generic pass with `nfc` (and more) set. */
function found(extra: Record<string, unknown>): string[] {
  return validatePass({ ...draft(genericPass), ...extra }).issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);
}

describe('nfc', () => {
  test('a message, a P-256 key and authentication with sharingProhibited: no issue', () => {
    expect(found({ nfc: { message: 'member:42', encryptionPublicKey: P256, requiresAuthentication: true }, sharingProhibited: true })).toEqual([]);
  });

  test('message is required, a string, at most 64 bytes of UTF-8 (errors)', () => {
    expect(found({ nfc: { encryptionPublicKey: P256 } })).toEqual(['error missing-key /nfc/message']);
    expect(found({ nfc: { message: 42 } })).toEqual(['error invalid-type /nfc/message']);
    expect(found({ nfc: { message: 'x'.repeat(64) } })).toEqual([]);
    // 22 × "é€" = 22 × 5 bytes: 110 bytes in 44 characters.
    const report = validatePass({ ...draft(genericPass), nfc: { message: 'é€'.repeat(22) } });
    expect(report.issues).toMatchObject([
      { severity: 'error', code: 'nfc-message-too-long', path: '/nfc/message', message: expect.stringContaining('110 bytes') },
    ]);
  });

  test('requiresAuthentication is a boolean (error otherwise)', () => {
    expect(found({ nfc: { message: 'm', requiresAuthentication: 'yes' } })).toEqual(['error invalid-type /nfc/requiresAuthentication']);
  });

  test('requiresAuthentication without sharingProhibited: nfc-sharing-allowed at /sharingProhibited (warning)', () => {
    expect(found({ nfc: { message: 'm', requiresAuthentication: true } })).toEqual(['warning nfc-sharing-allowed /sharingProhibited']);
    expect(found({ nfc: { message: 'm', requiresAuthentication: true }, sharingProhibited: false })).toEqual([
      'warning nfc-sharing-allowed /sharingProhibited',
    ]);
    expect(found({ nfc: { message: 'm', requiresAuthentication: false } })).toEqual([]);
  });

  test('an encryptionPublicKey that is not a P-256 SubjectPublicKeyInfo: invalid-nfc-public-key (warning), saying why', () => {
    const problem = (key: string): string | undefined =>
      validatePass({ ...draft(genericPass), nfc: { message: 'm', encryptionPublicKey: key } }).issues.find((issue) => issue.code === 'invalid-nfc-public-key')
        ?.message;
    expect(found({ nfc: { message: 'm', encryptionPublicKey: 'not base64!' } })).toEqual(['warning invalid-nfc-public-key /nfc/encryptionPublicKey']);
    expect(problem('not base64!')).toContain('is not base64');
    expect(problem(btoa('hello world'))).toContain('is not an X.509 SubjectPublicKeyInfo');
    expect(problem(spki('rsa'))).toContain('holds an RSA key');
    expect(problem(spki('ed25519'))).toContain('holds an Ed25519 key');
    expect(problem(spki('ec', 'secp384r1'))).toContain('P-384 (secp384r1)');
    expect(problem(spki('ec', 'secp256k1'))).toContain('secp256k1');
    expect(problem(`-----BEGIN PUBLIC KEY-----\n${P256}\n-----END PUBLIC KEY-----`)).toContain('is PEM');
  });

  test('nfcKeyProblem reads the DER: OIDs ecPublicKey + prime256v1 and a 65-byte uncompressed point', () => {
    expect(nfcKeyProblem(P256)).toBeUndefined();
    const der = Buffer.from(P256, 'base64');
    expect(der.length).toBe(91);
    // The same key with its point compressed (02/03 ‖ x): 33 bytes.
    const compressed = Buffer.concat([
      Buffer.from([0x30, 0x39]),
      der.subarray(2, 2 + 21),
      Buffer.from([0x03, 0x22, 0x00, 0x02 + (der[90]! & 1)]),
      der.subarray(27, 59),
    ]);
    expect(nfcKeyProblem(compressed.toString('base64'))).toBe(
      'holds a 33-byte point (compressed); a P-256 public key is the 65-byte uncompressed point (04, x, y)',
    );
    // Trailing bytes after the SubjectPublicKeyInfo, and a cut one.
    expect(nfcKeyProblem(Buffer.concat([der, Buffer.from([0])]).toString('base64'))).toMatch(/^is not an X\.509/);
    expect(nfcKeyProblem(der.subarray(0, 60).toString('base64'))).toMatch(/^is not an X\.509/);
    expect(nfcKeyProblem('')).toMatch(/^is not base64/);
  });

  test('in a template, a placeholder key or message is checked after rendering, a static bad key now', () => {
    const template = (nfc: unknown) => ({
      id: 1,
      name: 'Card',
      formatVersion: 1,
      passType: 'pass.com.example.member',
      description: { generic: {}, nfc },
      placeholder: ['key', 'message'],
    });
    expect(validateTemplate(template({ message: '${message}', encryptionPublicKey: '${key}' })).issues).toEqual([]);
    expect(
      validateTemplate(template({ message: '${message}', encryptionPublicKey: 'AAAA', x: '${key}' })).issues.map(
        (issue) => `${issue.severity} ${issue.code} ${issue.path}`,
      ),
    ).toEqual(['warning invalid-nfc-public-key /description/nfc/encryptionPublicKey', 'warning unknown-key /description/nfc/x']);
  });
});
