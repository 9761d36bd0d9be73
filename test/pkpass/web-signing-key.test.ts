// packPass on Web Crypto (browsers, workers): a signer imports its private key
// once per digest, when it is made or first asked for that digest, never per
// pass. Counted on crypto.subtle.importKey with the 'pkcs8' format.
import { describe, expect, test, vi } from 'vitest';

vi.mock('../../src/pkpass/crypto/index.js', async () => import('../../src/pkpass/crypto/web.js'));

const { importRsaSigningKey } = await import('../../src/pkpass/crypto/index.js');
const web = await import('../../src/pkpass/crypto/web.js');
const { createPassSigner } = await import('../../src/pkpass/signer.js');
const { packPass } = await import('../../src/pkpass/pack.js');
const { prepareFiles } = await import('../../src/pkpass/prepare.js');
const { genericPass } = await import('../pass/passes.js');
const { imageSet, opensslVerifyPackage } = await import('./helpers.js');
const { makePki, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER } = await import('./pki.js');

describe('the Web Crypto signing key', () => {
  test('imported once per signer and digest: ten passes, two digests, two imports', async () => {
    expect(importRsaSigningKey).toBe(web.importRsaSigningKey);
    const pki = await makePki();
    const spy = vi.spyOn(crypto.subtle, 'importKey');
    const pkcs8Imports = () => spy.mock.calls.filter(([format]) => format === 'pkcs8').length;
    const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
    expect(pkcs8Imports()).toBe(1); // sha256, for the probe signature
    const prepared = await prepareFiles(imageSet());
    const pass = { ...genericPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER };
    const signingTime = new Date('2026-05-07T10:30:00Z');
    let last = new Uint8Array();
    for (let index = 0; index < 8; index++) last = await packPass({ ...pass, serialNumber: `S${index}` }, prepared, signer, { signingTime });
    expect(pkcs8Imports()).toBe(1);
    for (let index = 0; index < 2; index++) await packPass(pass, prepared, signer, { signingTime, digest: 'sha1' });
    expect(pkcs8Imports()).toBe(2);
    expect(await opensslVerifyPackage(last, pki.rootPath)).toBe(0);
    spy.mockRestore();
  });
});
