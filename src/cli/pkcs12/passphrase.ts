/**
 * A passphrase in the two encodings a .p12 uses: PKCS #12's own schemes and
 * its MAC take a BMPString (UTF-16 big-endian plus a two-byte zero, RFC 7292
 * B.1); PBES2 takes the bytes as typed (UTF-8).
 *
 * @example
 * ```ts
 * passphraseOf('ab').bmp; // Uint8Array [0, 0x61, 0, 0x62, 0, 0]
 * ```
 */
export interface Passphrase {
  readonly bmp: Uint8Array;
  readonly utf8: Uint8Array;
}

/** Both encodings of `text`. */
export function passphraseOf(text: string): Passphrase {
  const bmp = new Uint8Array(text.length * 2 + 2);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    bmp[index * 2] = code >> 8;
    bmp[index * 2 + 1] = code & 0xff;
  }
  return { bmp, utf8: new TextEncoder().encode(text) };
}

/**
 * No passphrase at all: some tools (and OpenSSL given none) derive keys from an
 * empty BMPString without the terminating zero, which differs from `''`.
 */
export const NO_PASSPHRASE: Passphrase = { bmp: new Uint8Array(0), utf8: new TextEncoder().encode('') };
