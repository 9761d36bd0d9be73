import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { rc2CbcDecrypt } from '../../src/cli/pkcs12/rc2.js';
import { captureIo, tempDir } from './io.js';
import { hasLegacyProvider, makeIdentity, openssl } from './openssl.js';

// `passmint cert` against .p12 files made by the real openssl, in every encryption it writes.
const legacy = hasLegacyProvider();
// Debian's openssl ships the legacy provider; without it the RC2 cases cannot be made here.
if (!legacy && process.env['CI']) throw new Error("openssl's legacy provider is missing: the RC2-40 (Keychain) cases need it");
let dir: string;
let remove: () => void;
let identity: { certificate: string; key: string };

beforeAll(() => {
  ({ dir, remove } = tempDir('cert'));
  identity = makeIdentity(dir);
});
afterAll(() => remove());

function exportP12(name: string, passphrase: string, ...options: string[]): string {
  openssl(dir, 'pkcs12', '-export', '-in', identity.certificate, '-inkey', identity.key, '-passout', `pass:${passphrase}`, '-out', name, ...options);
  return name;
}

async function extract(p12: string, out: string, env: Record<string, string> = { P12_PASS: 'secret' }, extra: string[] = ['--passphrase-env', 'P12_PASS']) {
  const captured = captureIo(dir, env);
  const code = await run(['cert', p12, '-o', out, ...extra], captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

function modulus(kind: 'x509' | 'rsa', file: string): string {
  return openssl(dir, kind, '-noout', '-modulus', '-in', file).trim();
}

const variants: [string, string[]][] = [
  ['OpenSSL 3 default: PBES2 AES-256-CBC, SHA-256 MAC', []],
  ['3DES for both bags', ['-certpbe', 'PBE-SHA1-3DES', '-keypbe', 'PBE-SHA1-3DES', '-macalg', 'sha1']],
  ['PBES2 AES-128 with an HMAC-SHA1 PRF', ['-certpbe', 'AES-128-CBC', '-keypbe', 'AES-128-CBC', '-macalg', 'sha1']],
];
const legacyVariants: [string, string[]][] = [
  ['Keychain / OpenSSL 1.x: RC2-40 certificate bag, 3DES key bag (-legacy)', ['-legacy']],
  ['RC2-128 certificate bag', ['-legacy', '-certpbe', 'PBE-SHA1-RC2-128']],
];

describe('passmint cert', () => {
  test.each([...variants, ...(legacy ? legacyVariants : [])])('%s: writes the certificate and its key, which openssl pairs', async (label, options) => {
    const name = `${label.replace(/\W+/g, '-').slice(0, 30)}`;
    const p12 = exportP12(`${name}.p12`, 'secret', ...options);
    const result = await extract(p12, name);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('pass type identifier: pass.com.example.cli');
    expect(result.stdout).toContain('team identifier:      A93A5CM278');
    const certificate = join(name, 'certificate.pem');
    const key = join(name, 'key.pem');
    expect(modulus('x509', certificate)).toBe(modulus('x509', identity.certificate));
    expect(modulus('rsa', key)).toBe(modulus('x509', identity.certificate));
    expect(readFileSync(join(dir, key), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(statSync(join(dir, key)).mode & 0o777).toBe(0o600);
  });

  test.each(['pässwörd€', 'p🔑ss'])('a passphrase beyond ASCII (%s): UTF-16 for the PKCS #12 KDF, UTF-8 for PBKDF2, as OpenSSL', async (passphrase) => {
    for (const options of [[], ...(legacy ? [['-legacy']] : [])]) {
      const name = `unicode-${passphrase.length}-${options.length}`;
      const result = await extract(exportP12(`${name}.p12`, passphrase, ...options), name, { P12_PASS: passphrase });
      expect(result.code).toBe(0);
      expect(modulus('rsa', `${name}/key.pem`)).toBe(modulus('x509', identity.certificate));
    }
  });

  test('a wrong passphrase fails the MAC check: exit 1 and what to do', async () => {
    const p12 = exportP12('wrong.p12', 'secret', ...(legacy ? ['-legacy'] : []));
    const result = await extract(p12, 'wrong', { P12_PASS: 'not it' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The passphrase is wrong');
    expect(result.stderr).toContain('--passphrase-env');
  });

  test('no passphrase given for a protected file says it needs one', async () => {
    const result = await extract(exportP12('needs.p12', 'secret'), 'needs', {}, []);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('needs a passphrase');
  });

  test('an export with an empty passphrase opens without one; a file without a MAC opens too', async () => {
    expect((await extract(exportP12('empty.p12', ''), 'empty', {}, [])).code).toBe(0);
    const noMac = await extract(exportP12('nomac.p12', 'secret', '-nomac'), 'nomac');
    expect(noMac.code).toBe(0);
    expect(modulus('rsa', 'nomac/key.pem')).toBe(modulus('x509', identity.certificate));
  });

  test('reads the passphrase from a file, dropping one trailing newline', async () => {
    writeFileSync(join(dir, 'passphrase.txt'), 'secret\n');
    const result = await extract(exportP12('file.p12', 'secret'), 'from-file', {}, ['--passphrase-file', 'passphrase.txt']);
    expect(result.code).toBe(0);
  });

  test('an export with the WWDR certificate too: writes the pair and mentions the other', async () => {
    openssl(dir, 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other-key.pem', '-out', 'other.pem', '-days', '30', '-subj', '/CN=Other');
    const result = await extract(exportP12('chain.p12', 'secret', '-certfile', 'other.pem'), 'chain');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('also holds 1 other certificate');
    expect(modulus('x509', 'chain/certificate.pem')).toBe(modulus('x509', identity.certificate));
  });

  test('a certificate without a pass type identifier is written, with a warning', async () => {
    openssl(
      dir,
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'plain-key.pem',
      '-out',
      'plain.pem',
      '-days',
      '30',
      '-subj',
      '/CN=Just a certificate',
    );
    openssl(dir, 'pkcs12', '-export', '-in', 'plain.pem', '-inkey', 'plain-key.pem', '-passout', 'pass:secret', '-out', 'plain.p12');
    const result = await extract('plain.p12', 'plain');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('pass type identifier: (none: the subject has no UID)');
    expect(result.stdout).toContain('Warning: this is not a Pass Type ID certificate');
  });

  test('refuses to overwrite existing files without --force', async () => {
    const p12 = exportP12('again.p12', 'secret');
    expect((await extract(p12, 'again')).code).toBe(0);
    const second = await extract(p12, 'again');
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('already exists');
    expect((await extract(p12, 'again', { P12_PASS: 'secret' }, ['--passphrase-env', 'P12_PASS', '--force'])).code).toBe(0);
  });

  test('a PEM file or garbage is not a .p12: exit 1 with the reason', async () => {
    const pem = await extract(identity.certificate, 'pem');
    expect(pem.code).toBe(1);
    expect(pem.stderr).toContain('PEM file, not a .p12');
    writeFileSync(join(dir, 'garbage.p12'), randomBytes(300));
    const garbage = await extract('garbage.p12', 'garbage');
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toContain('Not a valid PKCS #12');
  });

  test('a .p12 asking for more than a hundred thousand iterations is refused at once, not ground through', async () => {
    const result = await extract(exportP12('slow.p12', 'secret', '-iter', '100001'), 'slow');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('asks for 100001 key derivation iterations; passmint stops at 100000');
  });

  test('usage errors exit 2: missing file, unset variable', async () => {
    expect((await extract('missing.p12', 'x')).code).toBe(2);
    const unset = await extract(exportP12('unset.p12', 'secret'), 'x', {});
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('P12_PASS');
  });
});

describe.runIf(legacy)('RC2-CBC decryption agrees with openssl enc', () => {
  test.each([
    ['rc2-40-cbc', 5, 40],
    ['rc2-64-cbc', 8, 64],
    ['rc2-cbc', 16, 128],
  ])('%s', (cipher, keyLength, bits) => {
    const key = randomBytes(keyLength);
    const iv = randomBytes(8);
    for (const length of [0, 1, 8, 77]) {
      const plain = randomBytes(length);
      writeFileSync(join(dir, 'plain.bin'), plain);
      openssl(
        dir,
        'enc',
        `-${cipher}`,
        '-provider',
        'legacy',
        '-provider',
        'default',
        '-K',
        key.toString('hex'),
        '-iv',
        iv.toString('hex'),
        '-in',
        'plain.bin',
        '-out',
        'enc.bin',
      );
      const decrypted = rc2CbcDecrypt(key, bits, iv, new Uint8Array(readFileSync(join(dir, 'enc.bin'))));
      expect(Buffer.from(decrypted ?? [])).toEqual(plain);
    }
  });
});
