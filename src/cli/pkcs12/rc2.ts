// RC2 in CBC mode, decryption only (RFC 2268). OpenSSL 3 moved RC2 to its
// "legacy" provider, which Node does not load, yet Keychain and OpenSSL 1.x
// still encrypt the certificate bag of a .p12 with 40-bit RC2: so it is here.

// PITABLE, RFC 2268 section 2: a permutation of 0..255 derived from the digits of pi.
const PITABLE = Uint8Array.from(
  [
    'd9 78 f9 c4 19 dd b5 ed 28 e9 fd 79 4a a0 d8 9d',
    'c6 7e 37 83 2b 76 53 8e 62 4c 64 88 44 8b fb a2',
    '17 9a 59 f5 87 b3 4f 13 61 45 6d 8d 09 81 7d 32',
    'bd 8f 40 eb 86 b7 7b 0b f0 95 21 22 5c 6b 4e 82',
    '54 d6 65 93 ce 60 b2 1c 73 56 c0 14 a7 8c f1 dc',
    '12 75 ca 1f 3b be e4 d1 42 3d d4 30 a3 3c b6 26',
    '6f bf 0e da 46 69 07 57 27 f2 1d 9b bc 94 43 03',
    'f8 11 c7 f6 90 ef 3e e7 06 c3 d5 2f c8 66 1e d7',
    '08 e8 ea de 80 52 ee f7 84 aa 72 ac 35 4d 6a 2a',
    '96 1a d2 71 5a 15 49 74 4b 9f d0 5e 04 18 a4 ec',
    'c2 e0 41 6e 0f 51 cb cc 24 91 af 50 a1 f4 70 39',
    '99 7c 3a 85 23 b8 b4 7a fc 02 36 5b 25 55 97 31',
    '2d 5d fa 98 e3 8a 92 ae 05 df 29 10 67 6c ba c9',
    'd3 00 e6 cf e1 9e a8 2c 63 16 01 3f 58 e2 89 a9',
    '0d 38 34 1b ab 33 ff b0 bb 48 0c 5f b9 b1 cd 2e',
    'c5 f3 db 47 e5 a5 9c 77 0a a6 20 68 fe 7f c1 ad',
  ]
    .join(' ')
    .split(' '),
  (pair) => parseInt(pair, 16),
);

/**
 * The 64 16-bit words of RC2's expanded key (RFC 2268 section 2), for a key
 * of 1–128 bytes and an effective key length of `effectiveBits`.
 */
function expandKey(key: Uint8Array, effectiveBits: number): Uint16Array {
  const t = key.length;
  const l = new Uint8Array(128);
  l.set(key);
  for (let index = t; index < 128; index++) l[index] = PITABLE[((l[index - 1] as number) + (l[index - t] as number)) & 0xff] as number;
  const t8 = (effectiveBits + 7) >> 3;
  const tm = 0xff >> (8 * t8 - effectiveBits);
  l[128 - t8] = PITABLE[(l[128 - t8] as number) & tm] as number;
  for (let index = 127 - t8; index >= 0; index--) l[index] = PITABLE[(l[index + 1] as number) ^ (l[index + t8] as number)] as number;
  const words = new Uint16Array(64);
  for (let index = 0; index < 64; index++) words[index] = (l[2 * index] as number) | ((l[2 * index + 1] as number) << 8);
  return words;
}

const SHIFTS = [1, 2, 3, 5] as const;

/** Decrypts one 8-byte block in place (RFC 2268 section 4). */
function decryptBlock(k: Uint16Array, block: Uint8Array, offset: number): void {
  const r = new Uint16Array(4);
  for (let index = 0; index < 4; index++) r[index] = (block[offset + 2 * index] as number) | ((block[offset + 2 * index + 1] as number) << 8);
  let j = 63;
  const mixRounds = (count: number): void => {
    for (let round = 0; round < count; round++) {
      for (let i = 3; i >= 0; i--) {
        const s = SHIFTS[i] as number;
        const value = r[i] as number;
        r[i] = (value >>> s) | (value << (16 - s));
        const a = r[(i + 3) & 3] as number;
        const b = r[(i + 2) & 3] as number;
        const c = r[(i + 1) & 3] as number;
        r[i] = (r[i] as number) - (k[j] as number) - (a & b) - (~a & c);
        j--;
      }
    }
  };
  const mash = (): void => {
    for (let i = 3; i >= 0; i--) r[i] = (r[i] as number) - (k[(r[(i + 3) & 3] as number) & 63] as number);
  };
  mixRounds(5);
  mash();
  mixRounds(6);
  mash();
  mixRounds(5);
  for (let index = 0; index < 4; index++) {
    block[offset + 2 * index] = (r[index] as number) & 0xff;
    block[offset + 2 * index + 1] = (r[index] as number) >> 8;
  }
}

/**
 * RC2-CBC decryption with PKCS #7 padding removed. Returns `undefined` when
 * the padding is wrong — with a password-derived key, the sign of a wrong password.
 *
 * @example
 * ```ts
 * const plain = rc2CbcDecrypt(key, 40, iv, encrypted);
 * ```
 */
export function rc2CbcDecrypt(key: Uint8Array, effectiveBits: number, iv: Uint8Array, data: Uint8Array): Uint8Array | undefined {
  if (data.length === 0 || data.length % 8 !== 0 || iv.length !== 8) return undefined;
  const k = expandKey(key, effectiveBits);
  const out = new Uint8Array(data);
  for (let offset = out.length - 8; offset >= 0; offset -= 8) {
    decryptBlock(k, out, offset);
    const previous = offset === 0 ? iv : data.subarray(offset - 8, offset);
    for (let index = 0; index < 8; index++) out[offset + index] = (out[offset + index] as number) ^ (previous[index] as number);
  }
  const pad = out[out.length - 1] as number;
  if (pad < 1 || pad > 8) return undefined;
  for (let index = out.length - pad; index < out.length; index++) if (out[index] !== pad) return undefined;
  return out.subarray(0, out.length - pad);
}
