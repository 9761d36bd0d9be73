import { sign as rsaSign } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseDer, type DerNode } from '../../src/pkpass/asn1/der-reader.js';
import { concatBytes } from '../../src/pkpass/asn1/der-values.js';
import { tlv } from '../../src/pkpass/asn1/der-writer.js';
import { checkSignature } from '../../src/pkpass/index.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { makePki, openssl, opensslVerify, otherWwdr, signer } from './pki.js';

const manifest = new TextEncoder().encode('{"pass.json":"0123456789abcdef0123456789abcdef01234567"}');
const signingTime = new Date('2026-03-04T05:06:07Z');
const DAY = 86_400_000;
const codes = (check: { readonly issues: readonly { readonly code: string }[] }): string[] => check.issues.map((issue) => issue.code);

let counter = 0;
/** Signs `content` with the openssl command, in `dir`; `args` are extra `openssl cms -sign` (or smime) options. */
async function opensslSign(args: readonly string[], content = manifest, command: 'cms' | 'smime' = 'cms'): Promise<Uint8Array> {
  const pki = await makePki();
  const name = `openssl-sign-${++counter}`;
  writeFileSync(join(pki.dir, `${name}.content`), content);
  await openssl(
    [command, '-sign', '-binary', '-outform', 'DER', '-signer', pki.certPath, '-inkey', pki.keyPath, '-in', `${name}.content`, '-out', `${name}.der`, ...args],
    pki.dir,
  );
  return new Uint8Array(readFileSync(join(pki.dir, `${name}.der`)));
}

/** Rebuilds a definite-length DER element with `replace` applied to the descendant found by `path` (child indices). */
function rebuild(node: DerNode, path: readonly number[], replace: (node: DerNode) => Uint8Array): Uint8Array {
  if (path.length === 0) return replace(node);
  const [index, ...rest] = path;
  const children = node.children.map((child, position) => (position === index ? rebuild(child, rest, replace) : child.raw));
  return tlv(node.tag, concatBytes(children));
}

// ContentInfo → [0] → SignedData → signerInfos (last) → SignerInfo 0 → signedAttrs [0] (index 3).
const SIGNER_INFO = (signedData: DerNode): number[] => [1, 0, signedData.children.length - 1, 0];

describe('checkSignature accepts good signatures', () => {
  test.each(['sha256', 'sha1'] as const)('its own, %s: no issues, and it reads time, digest, signer and WWDR', async (digest) => {
    const pki = await makePki();
    const signature = await (await signer()).sign(manifest, { signingTime, digest });
    const check = await checkSignature(signature, manifest, { roots: [pki.rootPem] });
    expect(check.issues).toEqual([]);
    expect(check.signingTime).toEqual(signingTime);
    expect(check.digest).toBe(digest);
    expect(check.signer).toEqual({
      passTypeIdentifier: 'pass.com.example.test',
      teamIdentifier: 'A93A5CM278',
      subject: 'UID=pass.com.example.test, CN=Pass Type ID: pass.com.example.test, OU=A93A5CM278, O=Example, C=US',
      notBefore: pki.certNotBefore,
      notAfter: pki.certNotAfter,
    });
    expect(check.wwdr).toEqual({
      subject: 'C=US, O=Example Test CA, OU=G4, CN=Test Worldwide Developer Relations Certification Authority',
      notAfter: pki.wwdrNotAfter,
    });
  });

  test.each(['sha1', 'sha256'])('openssl cms -sign -md %s (smimeCapabilities, OpenSSL’s order): no issues', async (md) => {
    const pki = await makePki();
    const signature = await opensslSign(['-md', md, '-certfile', pki.wwdrPath]);
    const check = await checkSignature(signature, manifest, { roots: [pki.rootDer] });
    expect(check.issues).toEqual([]);
    expect(check.digest).toBe(md);
    expect(check.signer?.passTypeIdentifier).toBe('pass.com.example.test');
  });

  test('openssl cms -sign -stream writes BER with indefinite lengths: no issues', async () => {
    const pki = await makePki();
    const signature = await opensslSign(['-stream', '-certfile', pki.wwdrPath]);
    expect(signature[1]).toBe(0x80); // the ContentInfo itself has an indefinite length
    expect(() => parseDer(signature)).toThrow(/indefinite/);
    const check = await checkSignature(signature, manifest, { roots: [pki.rootPem] });
    expect(check.issues).toEqual([]);
  });

  test('a signed attribute SET left unsorted verifies: attributes are hashed as found', async () => {
    const pki = await makePki();
    const sorted = await (await signer()).sign(manifest, { signingTime });
    const root = parseDer(sorted);
    const signedData = root.children[1]?.children[0] as DerNode;
    const path = SIGNER_INFO(signedData);
    const signerInfo = path.reduce<DerNode>((node, index) => node.children[index] as DerNode, root);
    const attributes = signerInfo.children[3] as DerNode;
    // messageDigest, signingTime, contentType: the reverse of DER order.
    const unsortedContent = concatBytes([...attributes.children].reverse().map((child) => child.raw));
    const unsortedSet = tlv(0x31, unsortedContent);
    const signature = new Uint8Array(rsaSign('sha256', unsortedSet, pki.keyPem));
    const resigned = rebuild(root, path, (info) =>
      tlv(
        info.tag,
        concatBytes(info.children.map((child, index) => (index === 3 ? tlv(0xa0, unsortedContent) : index === 5 ? tlv(0x04, signature) : child.raw))),
      ),
    );
    expect(resigned).not.toEqual(sorted);
    const check = await checkSignature(resigned, manifest, { roots: [pki.rootPem] });
    expect(check.issues).toEqual([]);
    expect(check.signingTime).toEqual(signingTime);
    // The same reordering without re-signing breaks the signature: order matters, and is taken as found.
    const reorderedOnly = rebuild(root, path, (info) =>
      tlv(info.tag, concatBytes(info.children.map((child, index) => (index === 3 ? tlv(0xa0, unsortedContent) : child.raw)))),
    );
    expect(codes(await checkSignature(reorderedOnly, manifest))).toEqual(['signature-mismatch']);
  });

  test('without roots no root is checked, and no issue says so', async () => {
    const pki = await makePki();
    const signature = await (await signer()).sign(manifest, { signingTime });
    expect((await checkSignature(signature, manifest)).issues).toEqual([]);
    expect(codes(await checkSignature(signature, manifest, { roots: [pki.otherRootPem] }))).toEqual(['untrusted-chain']);
  });

  test('the WWDR itself given as a trusted root is enough', async () => {
    const pki = await makePki();
    const signature = await (await signer()).sign(manifest, { signingTime });
    expect((await checkSignature(signature, manifest, { roots: [pki.wwdrPem] })).issues).toEqual([]);
  });
});

describe('checkSignature reports what is wrong', () => {
  test('one byte of content changed: digest-mismatch', async () => {
    const signature = await (await signer()).sign(manifest, { signingTime });
    const changed = new Uint8Array(manifest);
    changed[5] = (changed[5] as number) ^ 1;
    const check = await checkSignature(signature, changed);
    expect(codes(check)).toEqual(['digest-mismatch']);
    expect(check.issues[0]).toMatchObject({ severity: 'error', path: '/signature' });
  });

  test('a changed signed attribute (the signing time): signature-mismatch', async () => {
    const signature = await (await signer()).sign(manifest, { signingTime });
    const text = Buffer.from('260304050607Z', 'latin1');
    const at = Buffer.from(signature).indexOf(text);
    expect(at).toBeGreaterThan(0);
    const changed = new Uint8Array(signature);
    changed[at + 11] = 0x38; // …0608Z
    const check = await checkSignature(changed, manifest);
    expect(codes(check)).toEqual(['signature-mismatch']);
    expect(check.signingTime).toEqual(new Date('2026-03-04T05:06:08Z'));
  });

  test('a changed RSA signature: signature-mismatch', async () => {
    const signature = await (await signer()).sign(manifest, { signingTime });
    const changed = new Uint8Array(signature);
    changed[changed.length - 1] = (changed[changed.length - 1] as number) ^ 0xff;
    expect(codes(await checkSignature(changed, manifest))).toEqual(['signature-mismatch']);
  });

  test('a root that did not issue the WWDR: untrusted-chain', async () => {
    const pki = await makePki();
    const signature = await (await signer()).sign(manifest, { signingTime });
    const check = await checkSignature(signature, manifest, { roots: [pki.otherRootPem] });
    expect(codes(check)).toEqual(['untrusted-chain']);
    expect(check.issues[0]?.message).toContain('Unrelated Root CA');
  });

  test('an unreadable root is reported, a good one still trusts the chain', async () => {
    const pki = await makePki();
    const signature = await (await signer()).sign(manifest, { signingTime });
    const check = await checkSignature(signature, manifest, { roots: ['not a certificate', pki.rootPem] });
    expect(codes(check)).toEqual(['untrusted-chain']);
    expect(check.issues[0]?.message).toMatch(/^Trusted root 0 /);
  });

  test('an expired pass certificate: certificate-expired, at `at` and at the signing time', async () => {
    const now = Date.now();
    const pki = await makePki({ notBefore: new Date(now - 400 * DAY), notAfter: new Date(now - 30 * DAY) });
    const then = new Date(now - 60 * DAY);
    const old = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem, at: then });
    const signature = await old.sign(manifest, { signingTime: then });
    const check = await checkSignature(signature, manifest, { roots: [pki.rootPem] });
    expect(codes(check)).toEqual(['certificate-expired']);
    expect(check.issues[0]?.message).toContain('pass certificate');
    // Judged when it was still valid, all is well.
    expect((await checkSignature(signature, manifest, { roots: [pki.rootPem], at: then })).issues).toEqual([]);
    // Signed after the end, judged before it: expired when signed.
    const late = await old.sign(manifest, { signingTime: new Date(now - DAY) });
    const lateCheck = await checkSignature(late, manifest, { at: then });
    expect(codes(lateCheck)).toEqual(['certificate-expired']);
    expect(lateCheck.issues[0]?.message).toContain('when signed');
  });

  test('a pass certificate not yet valid: certificate-not-yet-valid', async () => {
    const now = Date.now();
    const pki = await makePki({ notBefore: new Date(now + 10 * DAY), notAfter: new Date(now + 400 * DAY) });
    const future = new Date(now + 20 * DAY);
    const early = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem, at: future });
    const signature = await early.sign(manifest, { signingTime: future });
    expect(codes(await checkSignature(signature, manifest))).toEqual(['certificate-not-yet-valid']);
  });

  test('an expired WWDR: certificate-expired naming the WWDR', async () => {
    const now = Date.now();
    const pki = await makePki({
      wwdrNotBefore: new Date(now - 900 * DAY),
      wwdrNotAfter: new Date(now - 10 * DAY),
      notBefore: new Date(now - 300 * DAY),
      notAfter: new Date(now + 300 * DAY),
    });
    const then = new Date(now - 20 * DAY);
    const old = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem, at: then });
    const check = await checkSignature(await old.sign(manifest, { signingTime: then }), manifest, { roots: [pki.rootPem] });
    expect(codes(check)).toEqual(['certificate-expired']);
    expect(check.issues[0]?.message).toContain('WWDR certificate');
  });

  test('no signed attributes (openssl smime -noattr): missing-signing-time, the signature itself verifies', async () => {
    const pki = await makePki();
    const signature = await opensslSign(['-noattr', '-certfile', pki.wwdrPath], manifest, 'smime');
    const check = await checkSignature(signature, manifest, { roots: [pki.rootPem] });
    expect(codes(check)).toEqual(['missing-signing-time']);
    expect(check.signingTime).toBeUndefined();
    const changed = new Uint8Array(manifest);
    changed[0] = 0x20;
    expect(codes(await checkSignature(signature, changed))).toEqual(['missing-signing-time', 'signature-mismatch']);
  });

  test('the signer certificate left out (openssl -nocerts): missing-certificate', async () => {
    const pki = await makePki();
    const signature = await opensslSign(['-nocerts', '-certfile', pki.wwdrPath]);
    const check = await checkSignature(signature, manifest);
    expect(codes(check)).toEqual(['missing-certificate']);
    expect(check.signer).toBeUndefined();
  });

  test('no WWDR carried: missing-wwdr, mentioning G4', async () => {
    const signature = await opensslSign([]);
    const check = await checkSignature(signature, manifest);
    expect(codes(check)).toEqual(['missing-wwdr']);
    expect(check.issues[0]?.message).toContain('WWDR G4');
    expect(check.signer?.passTypeIdentifier).toBe('pass.com.example.test');
  });

  test('an unrelated WWDR carried (G3 where G4 issued the certificate): wrong-wwdr naming both; an impostor with the right name: untrusted-chain', async () => {
    const unrelated = await otherWwdr();
    const wrong = await checkSignature(await opensslSign(['-certfile', unrelated.path]), manifest);
    expect(codes(wrong)).toEqual(['wrong-wwdr']);
    expect(wrong.issues[0]?.message).toContain('"C=US, O=Example Test CA, OU=G3, CN=Other Intermediate Certification Authority" (WWDR G3)');
    expect(wrong.issues[0]?.message).toContain(
      'issued by "C=US, O=Example Test CA, OU=G4, CN=Test Worldwide Developer Relations Certification Authority" (WWDR G4)',
    );
    expect(wrong.issues[0]?.message).toContain('AppleWWDRCAG4.cer');
    const impostor = await otherWwdr({ sameName: true });
    expect(codes(await checkSignature(await opensslSign(['-certfile', impostor.path]), manifest))).toEqual(['untrusted-chain']);
  });

  test('the G4 hint only where the certificate needs G4: no WWDR carried for a G3-issued certificate names it, without the hint', async () => {
    const g3 = await makePki({ wwdrSubject: '/C=US/O=Example Test CA/OU=G3/CN=Test Worldwide Developer Relations Certification Authority' });
    const name = `g3-sign-${++counter}`;
    writeFileSync(join(g3.dir, `${name}.content`), manifest);
    await openssl(
      ['cms', '-sign', '-binary', '-outform', 'DER', '-signer', g3.certPath, '-inkey', g3.keyPath, '-in', `${name}.content`, '-out', `${name}.der`],
      g3.dir,
    );
    const check = await checkSignature(new Uint8Array(readFileSync(join(g3.dir, `${name}.der`))), manifest);
    expect(codes(check)).toEqual(['missing-wwdr']);
    expect(check.issues[0]?.message).toContain('OU=G3');
    expect(check.issues[0]?.message).not.toContain('G4');
  });

  test('attached signed content that differs from the manifest: signed-content-mismatch (and the digest does not match either)', async () => {
    const pki = await makePki();
    const other = new TextEncoder().encode('{"pass.json":"ffffffffffffffffffffffffffffffffffffffff"}');
    const attached = await opensslSign(['-nodetach', '-certfile', pki.wwdrPath], other);
    const check = await checkSignature(attached, manifest);
    expect(codes(check)).toEqual(['signed-content-mismatch', 'digest-mismatch']);
    expect(check.issues[0]?.message).toContain('differs from the manifest');
    // The same content attached is what was signed: nothing to flag.
    expect(codes(await checkSignature(await opensslSign(['-nodetach', '-certfile', pki.wwdrPath]), manifest))).toEqual([]);
  });

  test('empty, garbage, and not-a-SignedData bytes', async () => {
    expect(codes(await checkSignature(new Uint8Array(), manifest))).toEqual(['missing-signature']);
    expect(codes(await checkSignature(new TextEncoder().encode('signature'), manifest))).toEqual(['invalid-signature']);
    const pki = await makePki();
    const notSignedData = await checkSignature(pki.certDer, manifest);
    expect(codes(notSignedData)).toEqual(['invalid-signature']);
    expect(notSignedData.issues[0]?.message).toMatch(/^The signature is not a CMS SignedData/);
    // Wrong argument types from JavaScript callers: issues, not exceptions.
    expect(codes(await checkSignature(undefined as unknown as Uint8Array, manifest))).toEqual(['missing-signature']);
    const signature = await (await signer()).sign(manifest, { signingTime });
    expect(codes(await checkSignature(signature, 'x' as unknown as Uint8Array))).toEqual(['invalid-signature']);
  });

  test('the signature openssl verifies is the signature checkSignature accepts, and a tampered one neither', async () => {
    const pki = await makePki();
    const signature = await (await signer()).sign(manifest, { signingTime });
    expect((await opensslVerify(signature, manifest)).code).toBe(0);
    expect((await checkSignature(signature, manifest, { roots: [pki.rootPem] })).issues).toEqual([]);
    const changed = new Uint8Array(manifest);
    changed[1] = 0x20;
    expect((await opensslVerify(signature, changed)).code).not.toBe(0);
    expect(codes(await checkSignature(signature, changed, { roots: [pki.rootPem] }))).toEqual(['digest-mismatch']);
  });
});
