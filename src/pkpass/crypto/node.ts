// node:crypto for the `node` condition of `#pkcrypto`: a Web Crypto digest in
// Node is a thread-pool round trip per call; a pass hashes several files, and
// an RSA signature through node:crypto skips the promise and the copy.
import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import type { Digest, ImportRsaSigningKey, RsaVerify } from './contract.js';

/**
 * SHA-1 or SHA-256 through `node:crypto`, synchronously.
 *
 * @example
 * ```ts
 * digest('sha1', new Uint8Array())[0]; // 0xda
 * ```
 */
export const digest: Digest = (name, bytes) => createHash(name).update(bytes).digest();

/**
 * An RSA private key as a `node:crypto` KeyObject; signs synchronously.
 *
 * @example
 * ```ts
 * const key = await importRsaSigningKey(pkcs8, 'sha256');
 * key.sign(signedAttributes); // 256 bytes for RSA 2048
 * ```
 */
export const importRsaSigningKey: ImportRsaSigningKey = async (pkcs8, hash) => {
  const key = createPrivateKey({ key: Buffer.from(pkcs8.buffer, pkcs8.byteOffset, pkcs8.byteLength), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'rsa') throw new TypeError(`Not an RSA key: ${String(key.asymmetricKeyType)}`);
  return {
    sign(data) {
      const signature = sign(hash, data, key);
      return new Uint8Array(signature.buffer, signature.byteOffset, signature.byteLength);
    },
  };
};

/**
 * RSASSA-PKCS1-v1_5 verification through `node:crypto`.
 *
 * @example
 * ```ts
 * await rsaVerify(spki, 'sha256', data, signature); // true
 * ```
 */
export const rsaVerify: RsaVerify = async (spki, hash, data, signature) => {
  try {
    const key = createPublicKey({ key: Buffer.from(spki.buffer, spki.byteOffset, spki.byteLength), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'rsa' && verify(hash, data, key, signature);
  } catch {
    return false;
  }
};
