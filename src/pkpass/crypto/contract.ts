/**
 * The hashing and RSA primitives a pass package needs. `#pkcrypto` resolves to
 * `./node.js` (node:crypto, faster) under the `node` condition and to
 * `./web.js` (Web Crypto) everywhere else; their results agree byte for byte.
 */
export type DigestName = 'sha1' | 'sha256';

/** A digest of some bytes: synchronous where the runtime allows it. */
export type Digest = (name: DigestName, bytes: Uint8Array) => Uint8Array | Promise<Uint8Array>;
