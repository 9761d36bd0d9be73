import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { buildPass, type Pass } from '../../src/index.js';
import { encodePassStrings } from '../../src/pkpass/index.js';
import { eventTicket, eventValues, issuer } from '../fixtures.js';
import { imageSet, opensslVerifyPackage, unzipNames } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER, type Pki } from '../pkpass/pki.js';
import { captureIo, tempDir } from './io.js';

// `passmint pack` and `passmint verify` on real folders, with the throwaway PKI
// made by the real openssl (test/pkpass/pki.ts); signatures checked by `openssl cms`.
let dir: string;
let remove: () => void;
let pki: Pki;
const pass: Pass = { ...buildPass(eventTicket, eventValues, issuer), passTypeIdentifier: PASS_TYPE_IDENTIFIER };

beforeAll(async () => {
  ({ dir, remove } = tempDir('pack'));
  pki = await makePki();
  writeFileSync(join(dir, 'cert.pem'), pki.certPem);
  writeFileSync(join(dir, 'key.pem'), pki.keyPem);
  writeFileSync(join(dir, 'encrypted-key.pem'), pki.encryptedKeyPem);
  writeFileSync(join(dir, 'wwdr.pem'), pki.wwdrPem);
  writeFileSync(join(dir, 'wwdr.cer'), pki.wwdrDer);
  writeFileSync(join(dir, 'root.cer'), pki.rootDer);
  writeFileSync(join(dir, 'root.pem'), pki.rootPem);
  writeFileSync(join(dir, 'other-root.pem'), pki.otherRootPem);
});
afterAll(() => remove());

/** A pass folder as signpass takes it, plus the clutter a Mac adds. */
function passFolder(name: string, passJson: string = `${JSON.stringify(pass, null, 2)}\n`, images: Record<string, Uint8Array> = imageSet()): string {
  const folder = join(dir, name);
  mkdirSync(join(folder, 'de.lproj'), { recursive: true });
  mkdirSync(join(folder, '.git'));
  writeFileSync(join(folder, 'pass.json'), passJson);
  for (const [path, bytes] of Object.entries(images)) writeFileSync(join(folder, path), bytes);
  writeFileSync(join(folder, 'de.lproj', 'pass.strings'), encodePassStrings({ Seat: 'Platz' }));
  writeFileSync(join(folder, '.DS_Store'), 'junk');
  writeFileSync(join(folder, '.git', 'HEAD'), 'junk');
  return name;
}

async function cli(...args: string[]) {
  const captured = captureIo(dir, { KEY_PASS: pki.passphrase });
  const code = await run(args, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

const SIGNING = ['--cert', 'cert.pem', '--key', 'key.pem', '--wwdr', 'wwdr.pem'];

describe('passmint pack', () => {
  test('signs a folder: dotfiles left out, openssl verifies the signature, verify accepts it', async () => {
    const folder = passFolder('event');
    const packed = await cli('pack', folder, ...SIGNING, '-o', 'event.pkpass');
    expect(packed.stderr).toBe('');
    expect(packed.code).toBe(0);
    expect(packed.stdout).toMatch(
      /^Wrote event\.pkpass \(\d+ bytes, 8 files \+ manifest \+ signature, sha256\)\.\n {2}signed as pass\.com\.example\.test \(team A93A5CM278\)/,
    );
    const bytes = new Uint8Array(readFileSync(join(dir, 'event.pkpass')));
    expect(unzipNames(bytes).sort()).toEqual([
      'de.lproj/pass.strings',
      'icon.png',
      'icon@2x.png',
      'icon@3x.png',
      'logo.png',
      'logo@2x.png',
      'manifest.json',
      'pass.json',
      'signature',
      'thumbnail@2x.png',
    ]);
    expect(await opensslVerifyPackage(bytes, pki.rootPath)).toBe(0);

    const verified = await cli('verify', 'event.pkpass', '--root', 'root.pem');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^event\.pkpass: valid \(0 errors, \d+ warnings?\)\n/);
    expect(verified.stdout).toContain('pass type:    pass.com.example.test, team A93A5CM278');
    expect(verified.stdout).toContain('WWDR:         ');
    expect(verified.stdout).toContain('(sha256)');
  });

  test('writes <folder>.pkpass by default; --digest sha1 as signpass does; --json from verify', async () => {
    const folder = passFolder('sha1-pass');
    expect((await cli('pack', `${folder}/`, ...SIGNING, '--digest', 'sha1')).code).toBe(0);
    const verified = await cli('verify', 'sha1-pass.pkpass', '--json');
    expect(verified.code).toBe(0);
    const report = JSON.parse(verified.stdout);
    expect(report).toMatchObject({ file: 'sha1-pass.pkpass', ok: true, digest: 'sha1', signer: { passTypeIdentifier: PASS_TYPE_IDENTIFIER } });
  });

  test('DER certificates, as Apple serves AppleWWDRCAG4.cer and AppleIncRootCertificate.cer, work as well as PEM', async () => {
    const folder = passFolder('der');
    expect((await cli('pack', folder, '--cert', 'cert.pem', '--key', 'key.pem', '--wwdr', 'wwdr.cer')).code).toBe(0);
    expect(await cli('verify', 'der.pkpass', '--root', 'root.cer')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^der\.pkpass: valid/) });
  });

  test('an encrypted key needs its passphrase: exit 1 with advice, then --passphrase-env works', async () => {
    const folder = passFolder('encrypted');
    const withoutPassphrase = await cli('pack', folder, '--cert', 'cert.pem', '--key', 'encrypted-key.pem', '--wwdr', 'wwdr.pem');
    expect(withoutPassphrase.code).toBe(1);
    expect(withoutPassphrase.stderr).toMatch(/^encrypted-key\.pem: error wrong-passphrase /);
    expect(withoutPassphrase.stderr).toContain('--passphrase-env VAR');
    expect((await cli('pack', folder, '--cert', 'cert.pem', '--key', 'encrypted-key.pem', '--wwdr', 'wwdr.pem', '--passphrase-env', 'KEY_PASS')).code).toBe(0);
  });

  test('a pass for another certificate: the identifier is located in pass.json; nothing is written', async () => {
    const text = `${JSON.stringify({ ...pass, passTypeIdentifier: 'pass.com.example.other' }, null, 2)}\n`;
    const folder = passFolder('other', text);
    const result = await cli('pack', folder, ...SIGNING);
    expect(result.code).toBe(1);
    const line = text.split('\n').findIndex((each) => each.includes('"passTypeIdentifier"')) + 1;
    expect(result.stderr).toContain(`other/pass.json:${line}:3: error identity-mismatch `);
    expect(result.stderr).toMatch(
      /Not packed: 1 error, \d+ warnings?\.\nThis certificate signs pass\.com\.example\.test passes of team A93A5CM278: put those in pass\.json, or sign with the certificate/,
    );
    expect(() => readFileSync(join(dir, 'other.pkpass'))).toThrow();
  });

  test('a missing icon is reported at the bundle path', async () => {
    const { 'icon.png': _icon, 'icon@2x.png': _icon2, 'icon@3x.png': _icon3, ...images } = imageSet();
    const result = await cli('pack', passFolder('no-icon', undefined, images), ...SIGNING);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^no-icon\/icon\.png: error missing-icon /m);
  });

  test('a folder without pass.json: exit 1, and how to make one', async () => {
    mkdirSync(join(dir, 'empty'));
    expect(await cli('pack', 'empty', ...SIGNING)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^empty\/pass\.json: error missing-pass-json .*passmint render/),
    });
  });

  test('a symbolic link is refused with the reason', async () => {
    const folder = passFolder('linked');
    symlinkSync(join(dir, 'cert.pem'), join(dir, folder, 'strip.png'));
    const result = await cli('pack', folder, ...SIGNING);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('linked/strip.png: error symbolic-link symbolic links are refused');
  });

  test('usage errors exit 2: no --wwdr, not a folder, a bad --digest', async () => {
    passFolder('usage');
    expect(await cli('pack', 'usage', '--cert', 'cert.pem', '--key', 'key.pem')).toMatchObject({ code: 2, stderr: expect.stringContaining('AppleWWDRCAG4') });
    expect(await cli('pack', 'cert.pem', ...SIGNING)).toMatchObject({ code: 2, stderr: expect.stringContaining('is not a folder') });
    expect(await cli('pack', 'usage', ...SIGNING, '--digest', 'md5')).toMatchObject({ code: 2, stderr: expect.stringContaining('--digest is sha256 or sha1') });
  });

  test('--cert and --key swapped: exit 1, and the message says so', async () => {
    passFolder('swapped');
    const result = await cli('pack', 'swapped', '--cert', 'key.pem', '--key', 'cert.pem', '--wwdr', 'wwdr.pem');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('key.pem: error invalid-certificate ');
    expect(result.stderr).toContain('key.pem holds a private key: are --cert and --key swapped?');
  });
});

describe('passmint verify', () => {
  test('a root that did not sign the chain: untrusted-chain, exit 1', async () => {
    expect((await cli('pack', passFolder('trust'), ...SIGNING)).code).toBe(0);
    const result = await cli('verify', 'trust.pkpass', '--root', 'other-root.pem');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^trust\.pkpass: INVALID/);
    expect(result.stdout).toContain('error untrusted-chain');
  });

  test('an http webServiceURL (a development server): an error naming --allow-http, a warning with it', async () => {
    const text = `${JSON.stringify({ ...pass, webServiceURL: 'http://localhost:8080/wallet' }, null, 2)}\n`;
    const refused = await cli('pack', passFolder('http', text), ...SIGNING);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^http\/pass\.json:\d+:3: error insecure-web-service-url .*add --allow-http to allow it/m);
    expect((await cli('pack', 'http', ...SIGNING, '--allow-http')).code).toBe(0);
    const strict = await cli('verify', 'http.pkpass');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain(
      'error insecure-web-service-url `webServiceURL` must use https (Wallet accepts plain http only on development devices; add --allow-http to allow it)',
    );
    const allowed = await cli('verify', 'http.pkpass', '--allow-http');
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^http\.pkpass: valid \(0 errors, 1 warning\)/);
    expect(allowed.stdout).toContain('warning insecure-web-service-url');
  });

  test('a damaged file: exit 1; a missing one: exit 2', async () => {
    expect((await cli('pack', passFolder('damaged'), ...SIGNING)).code).toBe(0);
    const bytes = readFileSync(join(dir, 'damaged.pkpass'));
    writeFileSync(join(dir, 'damaged.pkpass'), bytes.subarray(0, bytes.length >> 1));
    const damaged = await cli('verify', 'damaged.pkpass');
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toMatch(/^damaged\.pkpass: INVALID/);
    expect((await cli('verify', 'nowhere.pkpass')).code).toBe(2);
  });
});
