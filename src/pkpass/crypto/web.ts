import type { Digest, DigestName, HashName, ImportRsaSigningKey, RsaVerify } from './contract.js';

const names = { sha1: 'SHA-1', sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' } as const satisfies Record<HashName, string>;

// Web Crypto refuses views on a SharedArrayBuffer; copy those.
function buffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/**
 * SHA-1 or SHA-256 through Web Crypto (`crypto.subtle.digest`).
 *
 * @example
 * ```ts
 * (await digest('sha1', new Uint8Array()))[0]; // 0xda
 * ```
 */
export const digest: Digest = async (name, bytes) => new Uint8Array(await crypto.subtle.digest(names[name], buffer(bytes)));

/**
 * An RSA private key imported into Web Crypto for RSASSA-PKCS1-v1_5 (the hash is part of the key there).
 *
 * @example
 * ```ts
 * const key = await importRsaSigningKey(pkcs8, 'sha256');
 * await key.sign(signedAttributes); // 256 bytes for RSA 2048
 * ```
 */
export const importRsaSigningKey: ImportRsaSigningKey = async (pkcs8, hash: DigestName) => {
  const key = await crypto.subtle.importKey('pkcs8', buffer(pkcs8), { name: 'RSASSA-PKCS1-v1_5', hash: names[hash] }, false, ['sign']);
  return {
    async sign(data) {
      return new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, buffer(data)));
    },
  };
};

// Importing a SubjectPublicKeyInfo costs more than verifying with it, and the
// same few keys come back for every pass checked: keep them, bounded, least
// recently used first. The hash is part of a Web Crypto RSA key, so of the id.
const MAX_CACHED_KEYS = 64;
const publicKeys = new Map<string, Promise<CryptoKey | null>>();
const latin1 = new TextDecoder('latin1');

function publicKey(spki: Uint8Array, hash: HashName): Promise<CryptoKey | null> {
  const id = `${hash}:${latin1.decode(spki)}`;
  let key = publicKeys.get(id);
  if (key !== undefined) {
    publicKeys.delete(id);
  } else {
    key = crypto.subtle.importKey('spki', new Uint8Array(spki), { name: 'RSASSA-PKCS1-v1_5', hash: names[hash] }, false, ['verify']).catch(() => null);
    if (publicKeys.size >= MAX_CACHED_KEYS) publicKeys.delete(publicKeys.keys().next().value as string);
  }
  publicKeys.set(id, key);
  return key;
}

/**
 * RSASSA-PKCS1-v1_5 verification through Web Crypto; imported public keys are cached.
 *
 * @example
 * ```ts
 * await rsaVerify(spki, 'sha256', data, signature); // true
 * ```
 */
export const rsaVerify: RsaVerify = async (spki, hash, data, signature) => {
  const key = await publicKey(spki, hash);
  if (key === null) return false;
  try {
    return await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, buffer(signature), buffer(data));
  } catch {
    return false;
  }
};
