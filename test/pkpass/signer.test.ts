import { describe, expect, test } from 'vitest';
import { PassmintError } from '../../src/errors.js';
import { parseDer } from '../../src/pkpass/asn1/der-reader.js';
import { readOid, readTime } from '../../src/pkpass/asn1/der-values.js';
import { integer, sequence } from '../../src/pkpass/asn1/der-writer.js';
import { checkSignature, createPassSigner, SignerError, type PassSignerOptions } from '../../src/pkpass/index.js';
import { makePki, openssl, opensslPrint, opensslVerify, otherWwdr, PASSPHRASE, pemToDer, signer, type Pki } from './pki.js';

const manifest = new TextEncoder().encode('{"icon.png":"2a4a1d5e0d7d1b0c6bd4e5f7d0a1f0b6c3a2e1d9","pass.json":"5f1e8b7a4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f"}');
const signingTime = new Date('2026-03-04T05:06:07Z');
const DAY = 86_400_000;

async function base(pki?: Pki): Promise<PassSignerOptions> {
  const { certPem, keyPem, wwdrPem } = pki ?? (await makePki());
  return { certificate: certPem, privateKey: keyPem, wwdr: wwdrPem };
}

/** The issues createPassSigner throws, as `[code, path]` pairs; fails the test if it does not throw a SignerError. */
async function failure(options: PassSignerOptions): Promise<{ readonly pairs: [string, string][]; readonly messages: string[] }> {
  try {
    await createPassSigner(options);
  } catch (error) {
    expect(error).toBeInstanceOf(SignerError);
    expect(error).toBeInstanceOf(PassmintError);
    const { issues } = error as SignerError;
    return { pairs: issues.map((issue) => [issue.code, issue.path]), messages: issues.map((issue) => issue.message) };
  }
  throw new Error('createPassSigner did not throw');
}

const keyVariant = async (args: readonly string[]): Promise<string> => openssl([...args, '-in', (await makePki()).keyPath]);
const keyVariantDer = async (args: readonly string[]): Promise<Uint8Array> => {
  const pki = await makePki();
  const out = `${pki.keyPath}.${args.join('_').replace(/[^a-z0-9]/gi, '')}.der`;
  await openssl([...args, '-in', pki.keyPath, '-outform', 'DER', '-out', out]);
  const { readFileSync } = await import('node:fs');
  return new Uint8Array(readFileSync(out));
};

describe('createPassSigner reads what Apple issues', () => {
  test('identifiers, dates and certificates come from the certificate and WWDR', async () => {
    const pki = await makePki();
    const s = await signer();
    expect(s.passTypeIdentifier).toBe('pass.com.example.test');
    expect(s.teamIdentifier).toBe('A93A5CM278');
    expect(s.notBefore).toEqual(pki.certNotBefore);
    expect(s.notAfter).toEqual(pki.certNotAfter);
    expect(s.wwdrNotAfter).toEqual(pki.wwdrNotAfter);
    expect(s.certificate).toEqual(pki.certDer);
    expect(s.wwdr).toEqual(pki.wwdrDer);
    expect(Object.isFrozen(s)).toBe(true);
  });

  test('every key and certificate form gives the same signature bytes', async () => {
    const pki = await makePki();
    const expected = await (await signer()).sign(manifest, { signingTime });
    const forms: [string, PassSignerOptions][] = [
      ['PKCS#1 PEM', { ...(await base()), privateKey: pki.keyPkcs1Pem }],
      ['encrypted PKCS#8 PEM (AES-256, HMAC-SHA256)', { ...(await base()), privateKey: pki.encryptedKeyPem, passphrase: PASSPHRASE }],
      ['PKCS#8 DER', { ...(await base()), privateKey: pki.keyDer }],
      ['PKCS#1 DER', { ...(await base()), privateKey: await keyVariantDer(['rsa', '-traditional']) }],
      [
        'encrypted PKCS#8 DER (AES-128, HMAC-SHA1)',
        {
          ...(await base()),
          privateKey: await keyVariantDer(['pkcs8', '-topk8', '-v2', 'aes-128-cbc', '-v2prf', 'hmacWithSHA1', '-passout', `pass:${PASSPHRASE}`]),
          passphrase: PASSPHRASE,
        },
      ],
      [
        'encrypted PKCS#8 PEM (AES-192, HMAC-SHA512)',
        {
          ...(await base()),
          privateKey: await keyVariant(['pkcs8', '-topk8', '-v2', 'aes-192-cbc', '-v2prf', 'hmacWithSHA512', '-passout', `pass:${PASSPHRASE}`]),
          passphrase: PASSPHRASE,
        },
      ],
      ['DER certificates', { ...(await base()), certificate: pki.certDer, wwdr: pki.wwdrDer }],
      [
        'PEM as bytes (a .pem file read without an encoding)',
        { certificate: new TextEncoder().encode(pki.certPem), privateKey: new TextEncoder().encode(pki.keyPem), wwdr: new TextEncoder().encode(pki.wwdrPem) },
      ],
    ];
    for (const [form, options] of forms) {
      const signature = await (await createPassSigner(options)).sign(manifest, { signingTime });
      expect(Buffer.from(signature).equals(Buffer.from(expected)), form).toBe(true);
    }
  });

  test('the bytes given are copied: changing them later changes nothing', async () => {
    const pki = await makePki();
    const certificate = new Uint8Array(pki.certDer);
    const s = await createPassSigner({ ...(await base()), certificate });
    certificate.fill(0);
    expect(s.certificate).toEqual(pki.certDer);
  });
});

describe('sign() writes the CMS Wallet expects', () => {
  test.each(['sha256', 'sha1'] as const)('%s: openssl cms -verify accepts it against the root', async (digest) => {
    const signature = await (await signer()).sign(manifest, { signingTime, digest });
    expect(await opensslVerify(signature, manifest)).toEqual({ code: 0, stderr: '' });
    const changed = new Uint8Array(manifest);
    changed[3] = 0x41;
    expect((await opensslVerify(signature, changed)).code).not.toBe(0);
  });

  test.each(['sha256', 'sha1'] as const)('%s: the structure, field by field, as openssl cms -cmsout -print shows it', async (digest) => {
    const pki = await makePki();
    const printed = await opensslPrint(await (await signer()).sign(manifest, { signingTime, digest }));
    const oidName = digest === 'sha256' ? 'sha256 (2.16.840.1.101.3.4.2.1)' : 'sha1 (1.3.14.3.2.26)';
    expect(printed).toContain('contentType: pkcs7-signedData (1.2.840.113549.1.7.2)');
    expect(printed).toMatch(/d\.signedData: \n\s+version: 1\n/);
    expect(printed).toMatch(new RegExp(`digestAlgorithms:\\n\\s+algorithm: ${oidName.replace(/[().]/g, '\\$&')}`));
    expect(printed).toMatch(/eContentType: pkcs7-data \(1\.2\.840\.113549\.1\.7\.1\)\n\s+eContent: <ABSENT>/);
    expect(printed.match(/d\.certificate: /g)).toHaveLength(2);
    expect(printed).toMatch(/crls:\n\s+<ABSENT>/);
    expect(printed).toMatch(/signerInfos:\n\s+version: 1\n\s+d\.issuerAndSerialNumber: /);
    expect(printed).toContain('issuer: C=US, O=Example Test CA, OU=G4, CN=Test Worldwide Developer Relations Certification Authority');
    const serial = (await openssl(['x509', '-in', pki.certPath, '-noout', '-serial'])).trim().replace('serial=', '');
    expect(printed).toMatch(new RegExp(`serialNumber: 0x0*${serial.replace(/^0+/, '')}\\n`));
    const attributes = [...printed.matchAll(/object: (\w+) \(1\.2\.840\.113549\.1\.9\.\d\)/g)].map((match) => match[1]);
    expect(attributes).toEqual(['contentType', 'signingTime', 'messageDigest']);
    expect(printed).toContain('UTCTIME:Mar  4 05:06:07 2026 GMT');
    expect(printed).toMatch(/signatureAlgorithm: \n\s+algorithm: rsaEncryption \(1\.2\.840\.113549\.1\.1\.1\)/);
    expect(printed).toMatch(/unsignedAttrs:\n\s+<ABSENT>/);
    // The certificates are the signer first, then the WWDR.
    const subjects = [...printed.matchAll(/\n\s+subject: (.*)\n/g)].map((match) => match[1]);
    expect(subjects).toEqual([
      'UID=pass.com.example.test, CN=Pass Type ID: pass.com.example.test, OU=A93A5CM278, O=Example, C=US',
      'C=US, O=Example Test CA, OU=G4, CN=Test Worldwide Developer Relations Certification Authority',
    ]);
  });

  test('strict DER, deterministic for one signing time, and whole seconds kept', async () => {
    const s = await signer();
    const first = await s.sign(manifest, { signingTime });
    expect(() => parseDer(first)).not.toThrow();
    expect(await s.sign(manifest, { signingTime: new Date(signingTime.getTime() + 999) })).toEqual(first);
    expect(await s.sign(manifest, { signingTime: new Date(signingTime.getTime() + 1000) })).not.toEqual(first);
  });

  test('a signing time from 2050 on is a GeneralizedTime, and openssl still verifies it', async () => {
    const s = await signer();
    const late = new Date('2050-06-01T00:00:00Z');
    const signature = await s.sign(manifest, { signingTime: late });
    const root = parseDer(signature);
    const signedData = root.children[1]?.children[0];
    const attributes = signedData?.children.at(-1)?.children[0]?.children[3];
    const time = attributes?.children.find((attribute) => readOid(attribute.children[0]) === '1.2.840.113549.1.9.5')?.children[1]?.children[0];
    expect(time?.tag).toBe(0x18);
    expect(readTime(time)).toEqual(late);
    expect(await opensslVerify(signature, manifest)).toEqual({ code: 0, stderr: '' });
    expect((await checkSignature(signature, manifest, { at: new Date('2026-06-01T00:00:00Z') })).signingTime).toEqual(late);
  });

  test('signing time defaults to now', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const check = await checkSignature(await (await signer()).sign(manifest), manifest);
    expect(check.issues).toEqual([]);
    expect(check.signingTime?.getTime()).toBeGreaterThanOrEqual(before);
    expect(check.digest).toBe('sha256');
  });

  test('an empty manifest signs too; misuse throws TypeError', async () => {
    const s = await signer();
    expect((await opensslVerify(await s.sign(new Uint8Array()), new Uint8Array())).code).toBe(0);
    await expect(s.sign('text' as unknown as Uint8Array)).rejects.toThrow(TypeError);
    await expect(s.sign(manifest, { digest: 'md5' as 'sha1' })).rejects.toThrow(/digest must be/);
    await expect(s.sign(manifest, { signingTime: new Date(Number.NaN) })).rejects.toThrow(/signingTime/);
  });
});

describe('createPassSigner refuses, saying what to do', () => {
  test('an expired certificate: certificate-expired at /certificate', async () => {
    const now = Date.now();
    const pki = await makePki({ notBefore: new Date(now - 400 * DAY), notAfter: new Date(now - 30 * DAY) });
    const { pairs, messages } = await failure(await base(pki));
    expect(pairs).toEqual([['certificate-expired', '/certificate']]);
    expect(messages[0]).toMatch(/^The certificate "UID=pass\.com\.example\.test, .*" expired on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    // Judged at a time it was valid, it is accepted.
    await expect(createPassSigner({ ...(await base(pki)), at: new Date(now - 60 * DAY) })).resolves.toMatchObject({
      passTypeIdentifier: 'pass.com.example.test',
    });
    await expect(createPassSigner({ ...(await base(pki)), at: new Date(Number.NaN) })).rejects.toThrow(TypeError);
  });

  test('a certificate not yet valid: certificate-not-yet-valid', async () => {
    const now = Date.now();
    const pki = await makePki({ notBefore: new Date(now + 10 * DAY), notAfter: new Date(now + 400 * DAY) });
    expect((await failure(await base(pki))).pairs).toEqual([['certificate-not-yet-valid', '/certificate']]);
  });

  test('an expired WWDR: certificate-expired at /wwdr, pointing to the current one', async () => {
    const now = Date.now();
    const pki = await makePki({
      wwdrNotBefore: new Date(now - 900 * DAY),
      wwdrNotAfter: new Date(now - 10 * DAY),
      notBefore: new Date(now - 300 * DAY),
      notAfter: new Date(now + 300 * DAY),
    });
    const { pairs, messages } = await failure(await base(pki));
    expect(pairs).toEqual([['certificate-expired', '/wwdr']]);
    expect(messages[0]).toContain('WWDR G4');
  });

  test('an unrelated WWDR: wrong-wwdr naming the one given and the one needed', async () => {
    const unrelated = await otherWwdr();
    const { pairs, messages } = await failure({ ...(await base()), wwdr: unrelated.pem });
    expect(pairs).toEqual([['wrong-wwdr', '/wwdr']]);
    expect(messages[0]).toContain('"C=US, O=Example Test CA, OU=G3, CN=Other Intermediate Certification Authority", valid until');
    expect(messages[0]).toContain('whose issuer is "C=US, O=Example Test CA, OU=G4, CN=Test Worldwide Developer Relations Certification Authority"');
    expect(messages[0]).toContain('27 January 2022');
    expect(messages[0]).toContain('AppleWWDRCAG4.cer');
  });

  test('the G4 hint only where the certificate needs G4: a G3-issued certificate given another WWDR', async () => {
    const g3 = await makePki({ wwdrSubject: '/C=US/O=Example Test CA/OU=G3/CN=Test Worldwide Developer Relations Certification Authority' });
    const unrelated = await otherWwdr();
    const { pairs, messages } = await failure({ ...(await base(g3)), wwdr: unrelated.pem });
    expect(pairs).toEqual([['wrong-wwdr', '/wwdr']]);
    expect(messages[0]).toContain('whose issuer is "C=US, O=Example Test CA, OU=G3, CN=Test Worldwide Developer Relations Certification Authority"');
    expect(messages[0]).not.toContain('AppleWWDRCAG4.cer');
  });

  test('a WWDR with the right name but another key: wrong-wwdr (the signature does not verify)', async () => {
    const impostor = await otherWwdr({ sameName: true });
    const { pairs, messages } = await failure({ ...(await base()), wwdr: impostor.der });
    expect(pairs).toEqual([['wrong-wwdr', '/wwdr']]);
    expect(messages[0]).toContain('does not verify');
  });

  test('a key of another certificate: key-mismatch at /privateKey', async () => {
    const pki = await makePki();
    const { pairs, messages } = await failure({ ...(await base()), privateKey: pki.otherKeyPem });
    expect(pairs).toEqual([['key-mismatch', '/privateKey']]);
    expect(messages[0]).toContain('.p12');
  });

  test('a wrong passphrase, and none for an encrypted key: wrong-passphrase', async () => {
    const pki = await makePki();
    expect((await failure({ ...(await base()), privateKey: pki.encryptedKeyPem, passphrase: 'wrong' })).pairs).toEqual([['wrong-passphrase', '/privateKey']]);
    const none = await failure({ ...(await base()), privateKey: pki.encryptedKeyPem });
    expect(none.pairs).toEqual([['wrong-passphrase', '/privateKey']]);
    expect(none.messages[0]).toContain('`passphrase`');
  });

  test('encryptions Web Crypto cannot undo: invalid-key with the openssl command that converts them', async () => {
    const legacyPem = await keyVariant(['rsa', '-aes256', '-traditional', '-passout', `pass:${PASSPHRASE}`]);
    expect(legacyPem).toContain('Proc-Type: 4,ENCRYPTED');
    const legacy = await failure({ ...(await base()), privateKey: legacyPem, passphrase: PASSPHRASE });
    expect(legacy.pairs).toEqual([['invalid-key', '/privateKey']]);
    expect(legacy.messages[0]).toContain('openssl pkcs8 -topk8 -v2 aes-256-cbc -in key.pem -out key-pkcs8.pem');
    expect(legacy.messages[0]).toContain('AES-256-CBC');

    const pbes1 = await keyVariant(['pkcs8', '-topk8', '-v1', 'PBE-SHA1-3DES', '-passout', `pass:${PASSPHRASE}`]);
    const pkcs12Pbe = await failure({ ...(await base()), privateKey: pbes1, passphrase: PASSPHRASE });
    expect(pkcs12Pbe.pairs).toEqual([['invalid-key', '/privateKey']]);
    expect(pkcs12Pbe.messages[0]).toContain('PKCS #12 3DES');
    expect(pkcs12Pbe.messages[0]).toContain('openssl pkcs8 -topk8 -v2 aes-256-cbc');

    const des3 = await keyVariant(['pkcs8', '-topk8', '-v2', 'des3', '-passout', `pass:${PASSPHRASE}`]);
    const pbes2Des3 = await failure({ ...(await base()), privateKey: des3, passphrase: PASSPHRASE });
    expect(pbes2Des3.pairs).toEqual([['invalid-key', '/privateKey']]);
    expect(pbes2Des3.messages[0]).toContain('3DES (des-ede3-cbc)');
  });

  test('a damaged key whose public half still matches: invalid-key, found by a probe signature', async () => {
    const pkcs1 = await keyVariantDer(['rsa', '-traditional']);
    const key = parseDer(pkcs1);
    const damaged = new Uint8Array(pkcs1);
    // Change the private exponent and the first CRT exponent: n and e stay, signatures go wrong.
    for (const index of [3, 6]) {
      const part = key.children[index];
      if (part === undefined) throw new Error('not an RSAPrivateKey');
      const at = part.offset + part.raw.length - 10;
      damaged[at] = (damaged[at] as number) ^ 0x5a;
    }
    const { pairs, messages } = await failure({ ...(await base()), privateKey: damaged });
    expect(pairs).toEqual([['invalid-key', '/privateKey']]);
    expect(messages[0]).toContain('damaged');
  });

  test('an encrypted key asking for more than a million PBKDF2 iterations: invalid-key, without running them', async () => {
    const pki = await makePki();
    const encrypted = parseDer(pemToDer(pki.encryptedKeyPem));
    const [algorithm, data] = encrypted.children;
    const [kdf, cipher] = algorithm?.children[1]?.children ?? [];
    const [salt, , ...rest] = kdf?.children[1]?.children ?? [];
    const rebuilt = sequence(
      sequence(
        algorithm?.children[0]?.raw ?? new Uint8Array(),
        sequence(
          sequence(kdf?.children[0]?.raw ?? new Uint8Array(), sequence(salt?.raw ?? new Uint8Array(), integer(1_000_001), ...rest.map((node) => node.raw))),
          cipher?.raw ?? new Uint8Array(),
        ),
      ),
      data?.raw ?? new Uint8Array(),
    );
    const { pairs, messages } = await failure({ ...(await base()), privateKey: rebuilt, passphrase: PASSPHRASE });
    expect(pairs).toEqual([['invalid-key', '/privateKey']]);
    expect(messages[0]).toContain('1000001 PBKDF2 iterations');
  });

  test('garbage, a non-RSA key, and a certificate given as the key: invalid-key', async () => {
    const pki = await makePki();
    expect((await failure({ ...(await base()), privateKey: 'not a key' })).pairs).toEqual([['invalid-key', '/privateKey']]);
    expect((await failure({ ...(await base()), privateKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' })).pairs).toEqual([
      ['invalid-key', '/privateKey'],
    ]);
    expect((await failure({ ...(await base()), privateKey: Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x00) })).pairs).toEqual([['invalid-key', '/privateKey']]);
    const ec = await openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256']);
    const ecFailure = await failure({ ...(await base()), privateKey: ec });
    expect(ecFailure.pairs).toEqual([['invalid-key', '/privateKey']]);
    expect(ecFailure.messages[0]).toContain('not RSA');
    expect((await failure({ ...(await base()), privateKey: pki.certPem })).pairs).toEqual([['invalid-key', '/privateKey']]);
  });

  test('garbage certificates: invalid-certificate at the option concerned', async () => {
    const pki = await makePki();
    expect((await failure({ ...(await base()), certificate: 'garbage' })).pairs).toEqual([['invalid-certificate', '/certificate']]);
    expect((await failure({ ...(await base()), wwdr: pki.keyPem })).pairs).toEqual([['invalid-certificate', '/wwdr']]);
    const truncated = pki.certDer.subarray(0, 100);
    const broken = await failure({ ...(await base()), certificate: truncated });
    expect(broken.pairs).toEqual([['invalid-certificate', '/certificate']]);
    expect(broken.messages[0]).toContain('not a readable X.509 certificate');
    const missing = await failure({ privateKey: pki.keyPem } as unknown as PassSignerOptions);
    expect(missing.pairs).toEqual([
      ['invalid-certificate', '/certificate'],
      ['invalid-certificate', '/wwdr'],
    ]);
  });

  test('a certificate without UID: not-pass-certificate; certificate and WWDR swapped is said so', async () => {
    const server = await makePki({ subject: '/CN=www.example.com/OU=A93A5CM278/O=Example/C=US' });
    const { pairs, messages } = await failure(await base(server));
    expect(pairs).toEqual([['not-pass-certificate', '/certificate']]);
    expect(messages[0]).toContain('no UID');
    const noTeam = await makePki({ subject: '/UID=pass.com.example.test/CN=Pass Type ID: pass.com.example.test/O=Example/C=US' });
    expect((await failure(await base(noTeam))).messages[0]).toContain('no OU');
    const pki = await makePki();
    const swapped = await failure({ certificate: pki.wwdrPem, privateKey: pki.keyPem, wwdr: pki.certPem });
    expect(swapped.pairs.map(([code]) => code)).toContain('not-pass-certificate');
    expect(swapped.messages.join('\n')).toContain('look swapped');
  });

  test('several problems at once are all reported', async () => {
    const pki = await makePki();
    const unrelated = await otherWwdr();
    const { pairs } = await failure({ certificate: pki.certPem, privateKey: pki.otherKeyPem, wwdr: unrelated.pem });
    expect(pairs).toEqual([
      ['key-mismatch', '/privateKey'],
      ['wrong-wwdr', '/wwdr'],
    ]);
  });

  test('the thrown message summarizes the first issue', async () => {
    const pki = await makePki();
    await expect(createPassSigner({ ...(await base()), privateKey: pki.otherKeyPem })).rejects.toThrow(
      /^The pass signer cannot be created: The private key does not belong to the certificate .* at \/privateKey$/,
    );
  });
});
