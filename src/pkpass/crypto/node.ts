// node:crypto for the `node` condition of `#pkcrypto`: a Web Crypto digest in
// Node is a thread-pool round trip per call; a pass hashes several files, and
// an RSA signature through node:crypto skips the promise and the copy.
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
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

// Decoding a SubjectPublicKeyInfo costs several times the RSA verification
// itself, and the same few keys (a WWDR, a service's own certificates) come
// back for every pass checked: keep them, bounded, least recently used first.
const MAX_CACHED_KEYS = 64;
const publicKeys = new Map<string, KeyObject | null>();

function publicKey(spki: Uint8Array): KeyObject | null {
  const id = Buffer.from(spki.buffer, spki.byteOffset, spki.byteLength).toString('latin1');
  let key = publicKeys.get(id);
  if (key !== undefined) {
    publicKeys.delete(id);
  } else {
    try {
      const imported = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
      key = imported.asymmetricKeyType === 'rsa' ? imported : null;
    } catch {
      key = null;
    }
    if (publicKeys.size >= MAX_CACHED_KEYS) publicKeys.delete(publicKeys.keys().next().value as string);
  }
  publicKeys.set(id, key);
  return key;
}

/**
 * RSASSA-PKCS1-v1_5 verification through `node:crypto`; decoded public keys are cached.
 *
 * @example
 * ```ts
 * await rsaVerify(spki, 'sha256', data, signature); // true
 * ```
 */
export const rsaVerify: RsaVerify = async (spki, hash, data, signature) => {
  const key = publicKey(spki);
  if (key === null) return false;
  try {
    return verify(hash, data, key, signature);
  } catch {
    return false;
  }
};
