/**
 * The hashing and RSA primitives a pass package needs. `#pkcrypto` resolves to
 * `./node.js` (node:crypto, faster) under the `node` condition and to
 * `./web.js` (Web Crypto) everywhere else; their results agree byte for byte.
 */
export type DigestName = 'sha1' | 'sha256';

/** Hashes a certificate's signature may use (`sha256WithRSAEncryption` …); signatures of passes use `DigestName`. */
export type HashName = DigestName | 'sha384' | 'sha512';

/** A digest of some bytes: synchronous where the runtime allows it. */
export type Digest = (name: DigestName, bytes: Uint8Array) => Uint8Array | Promise<Uint8Array>;

/** An RSA private key imported once, bound to one hash: signs with RSASSA-PKCS1-v1_5 (deterministic). */
export interface RsaSigningKey {
  readonly sign: (data: Uint8Array) => Uint8Array | Promise<Uint8Array>;
}

/**
 * Imports an RSA private key (PKCS #8 DER) for RSASSA-PKCS1-v1_5 with `hash`.
 * Rejects when the bytes are not an RSA key the runtime accepts.
 */
export type ImportRsaSigningKey = (pkcs8: Uint8Array, hash: DigestName) => Promise<RsaSigningKey>;

/**
 * Whether `signature` is the RSASSA-PKCS1-v1_5 signature of `data` with `hash`
 * under the public key `spki` (SubjectPublicKeyInfo DER). `false`, never a
 * rejection, for a key or signature the runtime refuses.
 */
export type RsaVerify = (spki: Uint8Array, hash: HashName, data: Uint8Array, signature: Uint8Array) => Promise<boolean>;
