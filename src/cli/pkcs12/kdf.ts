import { createHash } from 'node:crypto';
import { readSmallInteger, type DerNode } from '../../pkpass/asn1/index.js';
import { Pkcs12Error } from './pkcs12-error.js';

/**
 * The most iterations a .p12 may ask for. Keychain and OpenSSL write 2,048,
 * Windows 2,000, Java's keytool 10,000; a hundred thousand is past any
 * exporter's choice and still well under a second a derivation, where a
 * hostile file asking for millions would hold the command — or the service
 * reading an uploaded certificate — for seconds or hours.
 */
export const MAX_ITERATIONS = 100_000;

/** What the PKCS #12 key derivation makes: a key, an IV, or a MAC key (RFC 7292, B.3). */
export const KDF_KEY = 1;
export const KDF_IV = 2;
export const KDF_MAC = 3;

// Output size u and block size v of each hash, in bytes (RFC 7292, B.2).
const SIZES: Readonly<Record<string, { readonly u: number; readonly v: number }>> = {
  sha1: { u: 20, v: 64 },
  sha224: { u: 28, v: 64 },
  sha256: { u: 32, v: 64 },
  sha384: { u: 48, v: 128 },
  sha512: { u: 64, v: 128 },
};

/**
 * The PKCS #12 key derivation function (RFC 7292, appendix B.2): `length`
 * bytes of key (`id` 1), IV (2) or MAC key (3) from a BMPString password and
 * a salt, with `iterations` rounds of `digest`.
 *
 * @example
 * ```ts
 * const key = pkcs12Kdf('sha1', bmpPassword('secret'), salt, KDF_KEY, 2048, 24); // a 3DES key
 * ```
 */
export function pkcs12Kdf(digest: string, password: Uint8Array, salt: Uint8Array, id: number, iterations: number, length: number): Uint8Array {
  const size = SIZES[digest];
  if (size === undefined) throw new Error(`PKCS #12 KDF: unsupported digest ${digest}`);
  const { u, v } = size;
  const diversifier = new Uint8Array(v).fill(id);
  const stretch = (input: Uint8Array): Uint8Array => {
    const out = new Uint8Array(input.length === 0 ? 0 : v * Math.ceil(input.length / v));
    for (let index = 0; index < out.length; index++) out[index] = input[index % input.length] as number;
    return out;
  };
  const block = new Uint8Array([...stretch(salt), ...stretch(password)]);
  const result = new Uint8Array(length);
  for (let filled = 0; filled < length; filled += u) {
    let a: Uint8Array = createHash(digest).update(diversifier).update(block).digest();
    for (let round = 1; round < iterations; round++) a = createHash(digest).update(a).digest();
    result.set(a.subarray(0, Math.min(u, length - filled)), filled);
    if (filled + u >= length) break;
    // I_j = (I_j + B + 1) mod 2^(8v) for each v-byte block of I, B being A repeated to v bytes.
    const b = new Uint8Array(v);
    for (let index = 0; index < v; index++) b[index] = a[index % u] as number;
    for (let start = 0; start < block.length; start += v) {
      let carry = 1;
      for (let index = v - 1; index >= 0; index--) {
        const sum = (block[start + index] as number) + (b[index] as number) + carry;
        block[start + index] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  return result;
}

/**
 * An iteration count, refused with a {@link Pkcs12Error} (`unsupported`) above
 * {@link MAX_ITERATIONS}.
 */
export function iterationsOf(node: DerNode | undefined, what: string): number {
  const iterations = readSmallInteger(node, what, 0xffffffff);
  if (iterations > MAX_ITERATIONS) {
    throw new Pkcs12Error(
      'unsupported',
      `This .p12 asks for ${iterations} key derivation iterations; passmint stops at ${MAX_ITERATIONS} (Keychain and OpenSSL use 2048).`,
    );
  }
  return Math.max(1, iterations);
}
