/**
 * SHA-256 of some bytes. `#sha256` resolves to `./node.js` (node:crypto,
 * synchronous) under the `node` condition and to `./web.js` (Web Crypto)
 * everywhere else; both give the same 32 bytes.
 */
export type Sha256 = (bytes: Uint8Array) => Uint8Array | Promise<Uint8Array>;
