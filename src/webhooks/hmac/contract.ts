/**
 * What both HMAC-SHA1 implementations provide. `#hmac` resolves to
 * `./node.js` (node:crypto) under the `node` condition and to `./web.js`
 * (Web Crypto) everywhere else; their results agree byte for byte.
 *
 * Secrets are used as UTF-8 bytes, bodies as given (strings as UTF-8). Callers
 * have already checked that every secret is a non-empty string and that a
 * digest is 20 bytes.
 */
export interface HmacSha1 {
  /** HMAC-SHA1 of `body` under `secret`, as 40 lowercase hex digits. */
  readonly signHex: (secret: string, body: string | Uint8Array) => string | Promise<string>;
  /** Whether the HMAC-SHA1 of `body` under any of `secrets` equals `digest`, compared in constant time. */
  readonly verifyDigest: (secrets: readonly string[], body: string | Uint8Array, digest: Uint8Array) => boolean | Promise<boolean>;
}
