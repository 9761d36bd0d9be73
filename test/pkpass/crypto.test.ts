import { createHash, generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import * as selected from '../../src/pkpass/crypto/index.js';
import * as node from '../../src/pkpass/crypto/node.js';
import * as web from '../../src/pkpass/crypto/web.js';
import { parseCertificate } from '../../src/pkpass/x509/certificate.js';
import { makePki, openssl, pemToDer } from './pki.js';

const data = new TextEncoder().encode('{"icon.png":"…","pass.json":"…"}');

describe('#pkcrypto: node:crypto and Web Crypto agree byte for byte', () => {
  test('under Vitest (Node), #pkcrypto resolves to the node:crypto implementation', () => {
    expect(selected.importRsaSigningKey).toBe(node.importRsaSigningKey);
    expect(selected.rsaVerify).toBe(node.rsaVerify);
    expect(selected.digest).toBe(node.digest);
  });

  test.each(['sha1', 'sha256'] as const)('%s digests', async (name) => {
    const expected = new Uint8Array(createHash(name).update(data).digest());
    expect(new Uint8Array(await node.digest(name, data))).toEqual(expected);
    expect(await web.digest(name, data)).toEqual(expected);
  });

  test.each(['sha1', 'sha256'] as const)('RSA PKCS#1 v1.5 signatures with %s are the same bytes, and the same as `openssl dgst -sign`’s', async (hash) => {
    const pki = await makePki();
    const [nodeKey, webKey] = await Promise.all([node.importRsaSigningKey(pki.keyDer, hash), web.importRsaSigningKey(pki.keyDer, hash)]);
    const fromNode = await nodeKey.sign(data);
    const fromWeb = await webKey.sign(data);
    expect(fromNode).toBeInstanceOf(Uint8Array);
    expect(fromNode.length).toBe(256);
    expect(Buffer.from(fromWeb).equals(Buffer.from(fromNode))).toBe(true);
    const file = join(pki.dir, `crypto-${hash}.data`);
    writeFileSync(file, data);
    await openssl(['dgst', `-${hash}`, '-sign', pki.keyPath, '-out', `${file}.sig`, file]);
    expect(Buffer.from(fromNode).equals(readFileSync(`${file}.sig`))).toBe(true);
    // Deterministic: signing again gives the same bytes.
    expect(Buffer.from(await webKey.sign(data)).equals(Buffer.from(fromNode))).toBe(true);
  });

  test('each verifies the other’s signatures, and refuses a changed byte or the wrong key', async () => {
    const pki = await makePki();
    const { spki } = parseCertificate(pki.certDer);
    const signature = await (await web.importRsaSigningKey(pki.keyDer, 'sha256')).sign(data);
    for (const implementation of [node, web]) {
      expect(await implementation.rsaVerify(spki, 'sha256', data, signature)).toBe(true);
      expect(await implementation.rsaVerify(spki, 'sha1', data, signature)).toBe(false);
      const changed = new Uint8Array(data);
      changed[0] = 0x20;
      expect(await implementation.rsaVerify(spki, 'sha256', changed, signature)).toBe(false);
      const wwdrKey = parseCertificate(pki.wwdrDer).spki;
      expect(await implementation.rsaVerify(wwdrKey, 'sha256', data, signature)).toBe(false);
    }
  });

  test('certificate signatures with sha384/sha512 (RSA) verify in both', async () => {
    const pki = await makePki();
    const { spki } = parseCertificate(pki.certDer);
    for (const hash of ['sha384', 'sha512'] as const) {
      const signature = new Uint8Array(nodeSign(hash, data, pki.keyPem));
      expect(await node.rsaVerify(spki, hash, data, signature)).toBe(true);
      expect(await web.rsaVerify(spki, hash, data, signature)).toBe(true);
    }
  });

  test('garbage keys: verification is false, never a rejection; a non-RSA private key is refused by both', async () => {
    for (const implementation of [node, web]) {
      expect(await implementation.rsaVerify(Uint8Array.of(0x30, 0), 'sha256', data, new Uint8Array(256))).toBe(false);
      expect(await implementation.rsaVerify(new Uint8Array(), 'sha1', data, new Uint8Array())).toBe(false);
    }
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const ecPkcs8 = pemToDer(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    await expect(node.importRsaSigningKey(ecPkcs8, 'sha256')).rejects.toThrow();
    await expect(web.importRsaSigningKey(ecPkcs8, 'sha256')).rejects.toThrow();
  });

  test('the public-key cache never changes an answer, past its bound and with the same bytes in new arrays', async () => {
    const pki = await makePki();
    const { spki } = parseCertificate(pki.certDer);
    const other = parseCertificate(pki.wwdrDer).spki;
    const signature = new Uint8Array(nodeSign('sha256', data, pki.keyPem));
    for (const implementation of [node, web]) {
      expect(await implementation.rsaVerify(spki, 'sha256', data, signature)).toBe(true);
      for (let index = 0; index < 100; index++) {
        const garbage = Uint8Array.of(0x30, 0x03, 0x02, 0x01, index);
        expect(await implementation.rsaVerify(garbage, 'sha256', data, signature)).toBe(false);
      }
      expect(await implementation.rsaVerify(other, 'sha256', data, signature)).toBe(false);
      expect(await implementation.rsaVerify(new Uint8Array(spki), 'sha256', data, signature)).toBe(true);
      expect(await implementation.rsaVerify(new Uint8Array(spki), 'sha1', data, signature)).toBe(false);
      expect(await implementation.rsaVerify(spki, 'sha256', data, signature)).toBe(true);
    }
  });

  test('views into larger buffers (and Buffers) are signed as the view, not the whole buffer', async () => {
    const pki = await makePki();
    const padded = new Uint8Array(data.length + 10);
    padded.set(data, 5);
    const view = padded.subarray(5, 5 + data.length);
    const expected = nodeSign('sha256', data, pki.keyPem);
    for (const implementation of [node, web]) {
      const key = await implementation.importRsaSigningKey(pki.keyDer, 'sha256');
      expect(Buffer.from(await key.sign(view)).equals(expected)).toBe(true);
    }
  });
});
