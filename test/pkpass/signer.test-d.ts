import { describe, expectTypeOf, test } from 'vitest';
import type { PassmintError } from '../../src/errors.js';
import type { Issue } from '../../src/issues.js';
import {
  checkSignature,
  createPassSigner,
  type SignerError,
  type DigestName,
  type PassSigner,
  type PassSignerOptions,
  type SignatureCheck,
  type SignOptions,
} from '../../src/pkpass/index.js';

describe('signer and signature check types', () => {
  test('createPassSigner takes PEM or DER and resolves to a PassSigner', () => {
    expectTypeOf(createPassSigner).parameter(0).toEqualTypeOf<PassSignerOptions>();
    expectTypeOf(createPassSigner).returns.resolves.toEqualTypeOf<PassSigner>();
    expectTypeOf<PassSignerOptions['certificate']>().toEqualTypeOf<string | Uint8Array>();
    expectTypeOf<PassSignerOptions['passphrase']>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error the certificate is required
    void createPassSigner({ privateKey: '', wwdr: '' });
    // @ts-expect-error exactOptionalPropertyTypes: passphrase is a string when present
    void createPassSigner({ certificate: '', privateKey: '', wwdr: '', passphrase: undefined });
  });

  test('sign takes bytes and SHA-1 or SHA-256 only', () => {
    expectTypeOf<PassSigner['sign']>().parameter(0).toEqualTypeOf<Uint8Array>();
    expectTypeOf<PassSigner['sign']>().parameter(1).toEqualTypeOf<SignOptions | undefined>();
    expectTypeOf<PassSigner['sign']>().returns.resolves.toEqualTypeOf<Uint8Array>();
    expectTypeOf<NonNullable<SignOptions['digest']>>().toEqualTypeOf<DigestName>();
    expectTypeOf<DigestName>().toEqualTypeOf<'sha1' | 'sha256'>();
    const options: SignOptions = { digest: 'sha1' };
    void options;
    // @ts-expect-error no MD5, no SHA-512
    const wrong: SignOptions = { digest: 'sha512' };
    void wrong;
  });

  test('the signer is read-only', () => {
    const signer = {} as PassSigner;
    // @ts-expect-error readonly
    signer.passTypeIdentifier = 'x';
    expectTypeOf(signer.notAfter).toEqualTypeOf<Date>();
  });

  test('checkSignature resolves to a SignatureCheck whose readings are optional', () => {
    expectTypeOf(checkSignature).returns.resolves.toEqualTypeOf<SignatureCheck>();
    expectTypeOf<SignatureCheck['issues']>().toEqualTypeOf<readonly Issue[]>();
    expectTypeOf<SignatureCheck['signer']>().toEqualTypeOf<
      | { readonly passTypeIdentifier?: string; readonly teamIdentifier?: string; readonly subject: string; readonly notBefore: Date; readonly notAfter: Date }
      | undefined
    >();
    expectTypeOf<SignatureCheck['digest']>().toEqualTypeOf<DigestName | undefined>();
  });

  test('SignerError is a PassmintError carrying issues', () => {
    expectTypeOf<SignerError>().toExtend<PassmintError>();
    expectTypeOf<SignerError['issues']>().toEqualTypeOf<readonly Issue[]>();
  });
});
