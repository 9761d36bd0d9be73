import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createDevelopmentIdentity, createPassSigner, type DevelopmentIdentity, packPass, verifyPass } from '../../src/pkpass/index.js';
import { genericPass } from '../pass/passes.js';
import { opensslVerifyPackage, png, tempDir } from './helpers.js';

// Issue 31: a first signed pass without an Apple account. The identity is
// written by passmint's own DER writer and Web Crypto; openssl reads it here
// as the independent judge.

let identity: DevelopmentIdentity;
beforeAll(async () => {
  identity = await createDevelopmentIdentity({ passTypeIdentifier: 'pass.com.example.event' });
}, 60_000);

function openssl(args: readonly string[], input: string): string {
  return execFileSync('openssl', [...args], { input, encoding: 'utf8' });
}

describe('createDevelopmentIdentity', () => {
  test("the pass certificate has Apple's subject shape, the pass-signing extension and the development mark", () => {
    const certificate = new X509Certificate(identity.certificate);
    expect(certificate.subject.split('\n')).toEqual([
      'UID=pass.com.example.event',
      'CN=Pass Type ID: pass.com.example.event',
      'OU=DEVTEAM123',
      'O=passmint development identity - not accepted by iPhones',
      'C=US',
    ]);
    expect(identity.teamIdentifier).toBe('DEVTEAM123');
    const text = openssl(['x509', '-noout', '-text'], identity.certificate);
    expect(text).toContain('Digital Signature');
    expect(text).toMatch(/Extended Key Usage:\s*\n\s*1\.2\.840\.113635\.100\.4\.14/);
    expect(text).toMatch(/CA:FALSE/);
    expect(text).toContain('sha256WithRSAEncryption');
    expect(text).toContain('Public-Key: (2048 bit)');
    expect(certificate.checkPrivateKey(createPrivateKey(identity.privateKey))).toBe(true);
  });

  test('openssl verifies the chain root → WWDR stand-in → pass certificate', () => {
    const { dir, done } = tempDir();
    try {
      writeFileSync(join(dir, 'root.pem'), identity.root);
      writeFileSync(join(dir, 'wwdr.pem'), identity.wwdr);
      writeFileSync(join(dir, 'certificate.pem'), identity.certificate);
      const out = execFileSync('openssl', ['verify', '-CAfile', 'root.pem', '-untrusted', 'wwdr.pem', '-purpose', 'any', 'certificate.pem'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(out.trim()).toBe('certificate.pem: OK');
      expect(new X509Certificate(identity.wwdr).subject).toContain('O=passmint development identity - not accepted by iPhones');
      expect(new X509Certificate(identity.root).subject).toContain('CN=passmint Development Root CA');
    } finally {
      done();
    }
  });

  test('it signs a pass that openssl accepts and verifyPass accepts with a development-certificate warning', async () => {
    const signer = await createPassSigner({ certificate: identity.certificate, privateKey: identity.privateKey, wwdr: identity.wwdr });
    expect([signer.passTypeIdentifier, signer.teamIdentifier]).toEqual(['pass.com.example.event', 'DEVTEAM123']);
    const pass = { ...genericPass, passTypeIdentifier: signer.passTypeIdentifier, teamIdentifier: signer.teamIdentifier };
    const pkpass = await packPass(pass, { 'icon.png': png(29, 29) }, signer);
    const report = await verifyPass(pkpass, { roots: [identity.root] });
    expect(report.ok).toBe(true);
    expect(report.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual(['warning development-certificate /signature']);
    expect(report.issues[0]?.message).toContain("not Apple's");
    const { dir, done } = tempDir();
    try {
      writeFileSync(join(dir, 'root.pem'), identity.root);
      expect(await opensslVerifyPackage(pkpass, join(dir, 'root.pem'))).toBe(0);
    } finally {
      done();
    }
  });

  test('another root does not vouch for it: untrusted-chain', async () => {
    const other = await createDevelopmentIdentity({ passTypeIdentifier: 'pass.com.example.event', teamIdentifier: 'ABCDE12345' });
    const signer = await createPassSigner({ certificate: identity.certificate, privateKey: identity.privateKey, wwdr: identity.wwdr });
    const pkpass = await packPass(
      { ...genericPass, passTypeIdentifier: 'pass.com.example.event', teamIdentifier: 'DEVTEAM123' },
      { 'icon.png': png(29, 29) },
      signer,
    );
    const report = await verifyPass(pkpass, { roots: [other.root] });
    expect(report.issues.filter((issue) => issue.severity === 'error').map((issue) => issue.code)).toEqual(['untrusted-chain']);
  }, 60_000);

  test('a pass type that does not start with pass. or a team that is not ten letters and digits is a RangeError', async () => {
    await expect(createDevelopmentIdentity({ passTypeIdentifier: 'com.example.event' })).rejects.toThrow(RangeError);
    await expect(createDevelopmentIdentity({ passTypeIdentifier: 'pass.com.example.event', teamIdentifier: 'team' })).rejects.toThrow(
      /ten upper-case letters and digits/,
    );
  });
});
