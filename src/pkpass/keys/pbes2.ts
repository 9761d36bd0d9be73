import type { DerNode } from '../asn1/der-reader.js';
import { childrenOf, readOctets, readOid, readSmallInteger } from '../asn1/der-values.js';
import { TAG } from '../asn1/tags.js';
import { OID } from '../oids.js';

/** Why an encrypted key could not be decrypted: the passphrase, or an encryption Web Crypto cannot undo. */
export type DecryptProblem = { readonly code: 'wrong-passphrase'; readonly message: string } | { readonly code: 'invalid-key'; readonly message: string };

const PRF_HASHES: Readonly<Record<string, string>> = {
  [OID.hmacWithSHA1]: 'SHA-1',
  [OID.hmacWithSHA256]: 'SHA-256',
  [OID.hmacWithSHA384]: 'SHA-384',
  [OID.hmacWithSHA512]: 'SHA-512',
};

const AES_KEY_BITS: Readonly<Record<string, number>> = {
  [OID.aes128Cbc]: 128,
  [OID.aes192Cbc]: 192,
  [OID.aes256Cbc]: 256,
};

const LEGACY_NAMES: Readonly<Record<string, string>> = {
  '1.2.840.113549.1.12.1.1': 'PKCS #12 RC4-128',
  '1.2.840.113549.1.12.1.2': 'PKCS #12 RC4-40',
  '1.2.840.113549.1.12.1.3': 'PKCS #12 3DES',
  '1.2.840.113549.1.12.1.4': 'PKCS #12 2-key 3DES',
  '1.2.840.113549.1.12.1.5': 'PKCS #12 RC2-128',
  '1.2.840.113549.1.12.1.6': 'PKCS #12 RC2-40',
  '1.2.840.113549.1.5.3': 'PBES1 MD5/DES',
  '1.2.840.113549.1.5.10': 'PBES1 SHA-1/DES',
  '1.2.840.113549.3.7': '3DES (des-ede3-cbc)',
  '1.2.840.113549.3.2': 'RC2',
  '1.3.14.3.2.7': 'DES',
  '1.3.6.1.4.1.11591.4.11': 'scrypt',
};

// A passphrase's cost is the key owner's choice, but a file that asks for
// billions of rounds would hang the caller; OpenSSL writes 2048, Keychain and
// password managers stay far below this. The CLI's .p12 reader has the same limit.
const MAX_ITERATIONS = 1_000_000;

/** What to run to turn a key Web Crypto cannot decrypt into one it can. */
export const CONVERT_KEY =
  'openssl pkcs8 -topk8 -v2 aes-256-cbc -in key.pem -out key-aes.pem (add -provider legacy -provider default if OpenSSL 3 says "unsupported")';

/**
 * Decrypts an EncryptedPrivateKeyInfo encrypted with PBES2 (PBKDF2 with
 * HMAC-SHA-1/256/384/512, AES-128/192/256-CBC) through Web Crypto. Returns the
 * PKCS #8 bytes, or the problem. Throws `DerError` for malformed parameters.
 *
 * @example
 * ```ts
 * const result = await decryptPbes2(algorithmNode, encrypted, 'secret');
 * if (result instanceof Uint8Array) parsePrivateKeyInfo(result);
 * ```
 */
export async function decryptPbes2(algorithm: DerNode | undefined, encrypted: Uint8Array, passphrase: string): Promise<Uint8Array | DecryptProblem> {
  const [schemeNode, paramsNode] = childrenOf(algorithm, TAG.SEQUENCE, 'encryptionAlgorithm', 1);
  const scheme = readOid(schemeNode, 'encryption algorithm');
  if (scheme !== OID.pbes2) return unsupported(LEGACY_NAMES[scheme] ?? scheme);
  const [kdf, cipher] = childrenOf(paramsNode, TAG.SEQUENCE, 'PBES2-params', 2);
  const [kdfId, kdfParams] = childrenOf(kdf, TAG.SEQUENCE, 'keyDerivationFunc', 1);
  const kdfOid = readOid(kdfId, 'key derivation function');
  if (kdfOid !== OID.pbkdf2) return unsupported(LEGACY_NAMES[kdfOid] ?? kdfOid);
  const pbkdf2 = childrenOf(kdfParams, TAG.SEQUENCE, 'PBKDF2-params', 2);
  const salt = readOctets(pbkdf2[0], 'salt');
  const iterations = readSmallInteger(pbkdf2[1], 'iterationCount');
  let prfHash = 'SHA-1';
  for (const extra of pbkdf2.slice(2)) {
    if (extra.tag !== TAG.SEQUENCE) continue; // keyLength: implied by the cipher
    const prf = readOid(extra.children[0], 'prf');
    const hash = PRF_HASHES[prf];
    if (hash === undefined) return unsupported(`PBKDF2 with PRF ${prf}`);
    prfHash = hash;
  }
  const [cipherId, ivNode] = childrenOf(cipher, TAG.SEQUENCE, 'encryptionScheme', 2);
  const cipherOid = readOid(cipherId, 'encryption scheme');
  const keyBits = AES_KEY_BITS[cipherOid];
  if (keyBits === undefined) return unsupported(LEGACY_NAMES[cipherOid] ?? cipherOid);
  const iv = readOctets(ivNode, 'iv');
  if (iv.length !== 16) return { code: 'invalid-key', message: 'The encrypted private key has an AES-CBC IV that is not 16 bytes.' };
  if (iterations < 1 || iterations > MAX_ITERATIONS) {
    return {
      code: 'invalid-key',
      message: `The encrypted private key asks for ${iterations} PBKDF2 iterations (at most ${MAX_ITERATIONS} are accepted); re-encrypt it: ${CONVERT_KEY}.`,
    };
  }

  let aesKey: CryptoKey;
  try {
    const password = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, ['deriveBits']);
    const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', salt: copy(salt), iterations, hash: prfHash }, password, keyBits);
    aesKey = await crypto.subtle.importKey('raw', bits, 'AES-CBC', false, ['decrypt']);
  } catch (error) {
    return unsupported(`PBKDF2-HMAC-${prfHash}/AES-${keyBits}-CBC (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-CBC', iv: copy(iv) }, aesKey, copy(encrypted)));
  } catch {
    // AES-CBC padding that does not check out: the key derived from this passphrase is not the one used.
    return wrongPassphrase();
  }
}

/**
 * The problem for a passphrase that does not decrypt the key.
 *
 * @example
 * ```ts
 * wrongPassphrase().code; // 'wrong-passphrase'
 * ```
 */
export function wrongPassphrase(): DecryptProblem {
  return {
    code: 'wrong-passphrase',
    message: 'The passphrase does not decrypt the private key; check `passphrase` (it is the one chosen when the key or .p12 was exported).',
  };
}

function unsupported(what: string): DecryptProblem {
  return {
    code: 'invalid-key',
    message: `The private key is encrypted with ${what}, which Web Crypto cannot decrypt; convert it to PBES2/AES-256-CBC: ${CONVERT_KEY}.`,
  };
}

function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}
