// The CMS writer: digest AlgorithmIdentifiers carry NULL parameters, as
// `openssl smime` and Apple's tools write them; the reader accepts both that
// and the absent-parameters form older passmint versions wrote.
import { describe, expect, test } from 'vitest';
import { NULL, integer, octetString, oid, sequence, tagged, tlv } from '../../src/pkpass/asn1/der-writer.js';
import { TAG, contextTag } from '../../src/pkpass/asn1/tags.js';
import { readSignedData } from '../../src/pkpass/cms/read.js';
import { OID } from '../../src/pkpass/oids.js';
import { checkSignature } from '../../src/pkpass/index.js';
import { makePki, openssl, opensslPrint, opensslVerify, signer } from './pki.js';
import { tempDir } from './helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const manifest = new TextEncoder().encode('{\n  "pass.json" : "5f1e8b7a4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f"\n}\n');
const signingTime = new Date('2026-03-04T05:06:07Z');
const DIGEST_OID = { sha256: OID.sha256, sha1: OID.sha1 } as const;

/** The same signature re-encoded with the digest AlgorithmIdentifiers' parameters absent (what passmint wrote before). */
function withoutDigestParameters(signature: Uint8Array, digest: 'sha1' | 'sha256'): Uint8Array {
  const read = readSignedData(signature);
  const info = read.signerInfos[0]!;
  const [signerCert, wwdr] = read.certificates;
  const algorithm = sequence(oid(DIGEST_OID[digest]));
  const attributes = new Uint8Array(info.signedAttributes!.signedBytes);
  attributes[0] = contextTag(0, true);
  const sid = sequence(signerCert!.issuer.der, tlv(TAG.INTEGER, signerCert!.serial));
  const signerInfo = sequence(integer(1), sid, algorithm, attributes, sequence(oid(OID.rsaEncryption), NULL), octetString(info.signature));
  const signedData = sequence(
    integer(1),
    tlv(TAG.SET, algorithm),
    sequence(oid(OID.data)),
    tlv(contextTag(0, true), signerCert!.der, wwdr!.der),
    tlv(TAG.SET, signerInfo),
  );
  return sequence(oid(OID.signedData), tagged(0, signedData));
}

async function asn1parse(der: Uint8Array): Promise<string> {
  const { dir, done } = tempDir();
  try {
    writeFileSync(join(dir, 'signature.der'), der);
    return await openssl(['asn1parse', '-inform', 'DER', '-in', join(dir, 'signature.der')]);
  } finally {
    done();
  }
}

describe('the digest AlgorithmIdentifier', () => {
  test.each(['sha256', 'sha1'] as const)(
    '%s: written with NULL parameters in digestAlgorithms and in the SignerInfo (openssl cms -print, asn1parse)',
    async (digest) => {
      const signature = await (await signer()).sign(manifest, { signingTime, digest });
      const printed = await opensslPrint(signature);
      const name = digest === 'sha256' ? 'sha256 \\(2\\.16\\.840\\.1\\.101\\.3\\.4\\.2\\.1\\)' : 'sha1 \\(1\\.3\\.14\\.3\\.2\\.26\\)';
      const withNull = new RegExp(`algorithm: ${name}\\n\\s+parameter: NULL`, 'g');
      expect(printed.match(withNull)).toHaveLength(2);
      expect(printed).not.toMatch(new RegExp(`algorithm: ${name}\\n\\s+parameter: <ABSENT>`));
      // asn1parse: the OID of the digest, then NULL, twice (SignedData, SignerInfo).
      const lines = (await asn1parse(signature)).split('\n');
      const at = lines.flatMap((line, index) => (new RegExp(`OBJECT\\s+:${digest}\\s*$`).test(line) ? [index] : []));
      expect(at).toHaveLength(2);
      for (const index of at) expect(lines[index + 1]).toMatch(/prim: NULL\s*$/);
      expect(await opensslVerify(signature, manifest)).toEqual({ code: 0, stderr: '' });
    },
  );

  test.each(['sha256', 'sha1'] as const)('%s: both forms verify, with openssl and with checkSignature', async (digest) => {
    const pki = await makePki();
    const signature = await (await signer()).sign(manifest, { signingTime, digest });
    const absent = withoutDigestParameters(signature, digest);
    expect(absent.length).toBe(signature.length - 4);
    expect(await opensslPrint(absent)).toMatch(/parameter: <ABSENT>/);
    for (const form of [signature, absent]) {
      expect(await opensslVerify(form, manifest)).toEqual({ code: 0, stderr: '' });
      const check = await checkSignature(form, manifest, { roots: [pki.rootPem], at: signingTime });
      expect(check.issues).toEqual([]);
    }
    const changed = new Uint8Array(manifest);
    changed[5] = 0x41;
    const refused = await checkSignature(absent, changed, { roots: [pki.rootPem], at: signingTime });
    expect(refused.issues.map((issue) => issue.code)).toContain('digest-mismatch');
  });

  test('the signer encodes its constant parts once: a second signature equals the first byte for byte', async () => {
    const s = await signer();
    const first = await s.sign(manifest, { signingTime });
    const second = await s.sign(manifest, { signingTime });
    expect(second).toEqual(first);
    // And the SignerInfo names the signer certificate by issuer and serial.
    const read = readSignedData(second);
    expect(read.signerInfos[0]!.sid).toEqual({ issuer: read.certificates[0]!.issuer, serial: read.certificates[0]!.serial });
  });
});
