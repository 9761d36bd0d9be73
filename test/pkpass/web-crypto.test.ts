// The package side on Web Crypto alone: every digest and RSA operation of
// passmint/pkpass goes through src/pkpass/crypto/index.ts, here replaced by
// the implementation browsers and workers get (#pkcrypto's default condition).
import { describe, expect, test, vi } from 'vitest';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { packPass } from '../../src/pkpass/pack.js';
import { prepareFiles } from '../../src/pkpass/prepare.js';
import { verifyPass } from '../../src/pkpass/verify.js';
import { genericPass } from '../pass/passes.js';
import { imageSet, opensslVerifyPackage, rezip, unzipTest } from './helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER } from './pki.js';

vi.mock('../../src/pkpass/crypto/index.js', () => import('../../src/pkpass/crypto/web.js'));

describe('passmint/pkpass on Web Crypto', () => {
  test('the digests really are the Web Crypto ones (async)', async () => {
    const { digest } = await import('../../src/pkpass/crypto/index.js');
    expect(digest('sha1', new Uint8Array())).toBeInstanceOf(Promise);
  });

  test('prepareFiles, packPass, verifyPass: a package openssl and unzip accept, verified ok; tampering caught', async () => {
    const pki = await makePki();
    const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
    const pass = { ...genericPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER };
    const bytes = await packPass(pass, await prepareFiles(imageSet()), signer, { signingTime: new Date(), digest: 'sha1' });
    expect(unzipTest(bytes).status).toBe(0);
    expect(await opensslVerifyPackage(bytes, pki.rootPath)).toBe(0);
    const report = await verifyPass(bytes, { roots: [pki.rootPem] });
    expect(report.issues).toEqual([]);
    expect(report.digest).toBe('sha1');
    const tampered = rezip(bytes, (files) => files.set('icon.png', imageSet()['logo.png']!));
    expect((await verifyPass(tampered)).issues.map((issue) => `${issue.code} ${issue.path}`)).toEqual(['hash-mismatch /icon.png']);
  });
});
