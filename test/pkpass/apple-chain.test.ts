import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { SignerError } from '../../src/pkpass/signer-error.js';
import { issuerProblem, validityProblem } from '../../src/pkpass/x509/chain.js';
import { readCertificateInput } from '../../src/pkpass/x509/certificate-input.js';
import type { Certificate } from '../../src/pkpass/x509/certificate.js';
import { makePki, pemToDer } from './pki.js';

// Apple's real WWDR G4 and root (public certificates; see test/fixtures/apple/README.md):
// the chain every real pass ends in, which the throwaway PKI only imitates.
const fixture = (name: string): string => readFileSync(new URL(`../fixtures/apple/${name}`, import.meta.url), 'utf8');
const wwdrPem = fixture('AppleWWDRCAG4.pem');
const rootPem = fixture('AppleIncRootCertificate.pem');
const read = (pem: string): Certificate => {
  const certificate = readCertificateInput(pem);
  if (typeof certificate === 'string') throw new Error(certificate);
  return certificate;
};
const fingerprint = (pem: string): string => createHash('sha256').update(pemToDer(pem)).digest('hex').toUpperCase();

describe("Apple's chain: WWDR G4 under Apple Root CA", () => {
  test('the fixtures are the certificates Apple publishes (SHA-256 fingerprints)', () => {
    expect(fingerprint(wwdrPem)).toBe('EA4757885538DD8CB59FF4556F676087D83C85E70902C122E42C0808B5BCE14C');
    expect(fingerprint(rootPem)).toBe('B0B1730ECBC7FF4505142C49F1295E6EDA6BCAED7E2C68C5BE91B5A11001F024');
  });

  test('WWDR G4 was issued by Apple Root CA: names match and its sha256WithRSA signature verifies; the root verifies itself (sha1WithRSA)', async () => {
    const wwdr = read(wwdrPem);
    const root = read(rootPem);
    expect(await issuerProblem(wwdr, root)).toBeUndefined();
    expect(await issuerProblem(root, root)).toBeUndefined();
    expect(wwdr.isCa).toBe(true);
  });

  test('WWDR G4 is in date until 2030-12-10 and not after', () => {
    const wwdr = read(wwdrPem);
    expect(validityProblem(wwdr, new Date('2026-11-23T00:00:00Z'))).toBeUndefined();
    expect(wwdr.notAfter.toISOString()).toBe('2030-12-10T00:00:00.000Z');
    expect(validityProblem(wwdr, new Date('2030-12-11T00:00:00Z'))).toBe('certificate-expired');
  });

  test("a certificate from another issuer is not WWDR G4's: a name problem, found before any signature check", async () => {
    const pki = await makePki();
    expect(await issuerProblem(read(pki.certPem), read(wwdrPem))).toBe('name');
    expect(await issuerProblem(read(wwdrPem), read(pki.rootPem))).toBe('name');
  });

  test('createPassSigner given the real WWDR G4 for a certificate it did not issue says which WWDR was given and which is needed', async () => {
    const pki = await makePki();
    const error = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: wwdrPem }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignerError);
    const issue = (error as SignerError).issues.find((candidate) => candidate.code === 'wrong-wwdr');
    expect(issue?.path).toBe('/wwdr');
    expect(issue?.message).toContain('Apple Worldwide Developer Relations Certification Authority');
    expect(issue?.message).toContain('Test Worldwide Developer Relations Certification Authority');
  });
});
