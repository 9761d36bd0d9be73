import { createDecipheriv, pbkdf2Sync } from 'node:crypto';
import { childrenOf, readOctets, readOid, TAG, type DerNode } from '../../pkpass/asn1/index.js';
import { iterationsOf, KDF_IV, KDF_KEY, pkcs12Kdf } from './kdf.js';
import type { Passphrase } from './passphrase.js';
import {
  OID_PBE_SHA_2DES,
  OID_PBE_SHA_3DES,
  OID_PBE_SHA_RC2_128,
  OID_PBE_SHA_RC2_40,
  OID_PBE_SHA_RC4_128,
  OID_PBE_SHA_RC4_40,
  OID_PBES2,
  OID_PBKDF2,
  PBES2_CIPHERS,
  PRF_DIGESTS,
} from './oids.js';
import { Pkcs12Error } from './pkcs12-error.js';
import { rc2CbcDecrypt } from './rc2.js';

// The legacy PKCS #12 schemes: cipher, key length, effective RC2 bits.
const LEGACY: Readonly<Record<string, { readonly cipher: 'des-ede3-cbc' | 'des-ede-cbc' | 'rc2'; readonly keyLength: number; readonly bits?: number }>> = {
  [OID_PBE_SHA_3DES]: { cipher: 'des-ede3-cbc', keyLength: 24 },
  [OID_PBE_SHA_2DES]: { cipher: 'des-ede-cbc', keyLength: 16 },
  [OID_PBE_SHA_RC2_128]: { cipher: 'rc2', keyLength: 16, bits: 128 },
  [OID_PBE_SHA_RC2_40]: { cipher: 'rc2', keyLength: 5, bits: 40 },
};

/**
 * Decrypts what a PKCS #12 file encrypted with a passphrase: an
 * EncryptedData's content or a shrouded key bag. `algorithm` is the
 * AlgorithmIdentifier found beside the ciphertext. Throws {@link Pkcs12Error}:
 * `wrong-passphrase` when the result does not unpad (the cipher's only sign),
 * `unsupported` for a scheme not implemented here.
 *
 * @example
 * ```ts
 * const safeContents = decryptWithPassphrase(algorithmNode, ciphertext, passphraseOf('secret'));
 * ```
 */
export function decryptWithPassphrase(algorithm: DerNode, ciphertext: Uint8Array, passphrase: Passphrase): Uint8Array {
  const [oidNode, params] = childrenOf(algorithm, TAG.SEQUENCE, 'AlgorithmIdentifier', 1);
  const oid = readOid(oidNode, 'encryption algorithm');
  const legacy = LEGACY[oid];
  let plain: Uint8Array | undefined;
  if (legacy !== undefined) {
    const [saltNode, iterationsNode] = childrenOf(params, TAG.SEQUENCE, 'PBE parameters', 2);
    const salt = readOctets(saltNode, 'PBE salt');
    const iterations = iterationsOf(iterationsNode, 'PBE iterations');
    const key = pkcs12Kdf('sha1', passphrase.bmp, salt, KDF_KEY, iterations, legacy.keyLength);
    const iv = pkcs12Kdf('sha1', passphrase.bmp, salt, KDF_IV, iterations, 8);
    plain = legacy.cipher === 'rc2' ? rc2CbcDecrypt(key, legacy.bits ?? 128, iv, ciphertext) : nodeDecrypt(legacy.cipher, key, iv, ciphertext);
  } else if (oid === OID_PBES2) {
    plain = decryptPbes2(params, ciphertext, passphrase);
  } else if (oid === OID_PBE_SHA_RC4_128 || oid === OID_PBE_SHA_RC4_40) {
    throw new Pkcs12Error(
      'unsupported',
      'This .p12 is encrypted with RC4, which passmint does not read. Export it again with a current Keychain or `openssl pkcs12 -export` (AES).',
    );
  } else {
    throw new Pkcs12Error('unsupported', `This .p12 uses an encryption passmint does not read (algorithm ${oid}).`);
  }
  if (plain === undefined) throw new Pkcs12Error('wrong-passphrase', 'The passphrase does not decrypt the .p12 contents.');
  return plain;
}

function decryptPbes2(params: DerNode | undefined, ciphertext: Uint8Array, passphrase: Passphrase): Uint8Array | undefined {
  const [kdf, scheme] = childrenOf(params, TAG.SEQUENCE, 'PBES2 parameters', 2);
  const [kdfOid, kdfParams] = childrenOf(kdf, TAG.SEQUENCE, 'PBES2 key derivation', 1);
  if (readOid(kdfOid, 'key derivation') !== OID_PBKDF2)
    throw new Pkcs12Error('unsupported', 'This .p12 derives its key with something other than PBKDF2 (scrypt?), which passmint does not read.');
  const [saltNode, iterationsNode, ...rest] = childrenOf(kdfParams, TAG.SEQUENCE, 'PBKDF2 parameters', 2);
  const salt = readOctets(saltNode, 'PBKDF2 salt');
  const iterations = iterationsOf(iterationsNode, 'PBKDF2 iterations');
  // keyLength (INTEGER) and prf (AlgorithmIdentifier) are both optional.
  const prfNode = rest.find((node) => node.tag === TAG.SEQUENCE);
  const prfOid = prfNode === undefined ? '1.2.840.113549.2.7' : readOid(prfNode.children[0], 'PBKDF2 PRF');
  const digest = PRF_DIGESTS[prfOid];
  if (digest === undefined) throw new Pkcs12Error('unsupported', `This .p12 uses a PBKDF2 PRF passmint does not read (${prfOid}).`);
  const [cipherOid, ivNode] = childrenOf(scheme, TAG.SEQUENCE, 'PBES2 encryption scheme', 2);
  const cipherId = readOid(cipherOid, 'PBES2 cipher');
  const cipher = PBES2_CIPHERS[cipherId];
  if (cipher === undefined) throw new Pkcs12Error('unsupported', `This .p12 uses a cipher passmint does not read (${cipherId}).`);
  const iv = readOctets(ivNode, 'PBES2 IV');
  // PBES2 takes the passphrase's bytes as they are (UTF-8), not PKCS #12's BMPString.
  const key = pbkdf2Sync(passphrase.utf8, salt, iterations, cipher.keyLength, digest);
  return nodeDecrypt(cipher.cipher, key, iv, ciphertext);
}

function nodeDecrypt(cipher: string, key: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array | undefined {
  let decipher;
  try {
    decipher = createDecipheriv(cipher, key, iv);
  } catch {
    // The key is derived to the right length, so this is an IV of the wrong length: damage.
    throw new Pkcs12Error('invalid-pkcs12', `Not a valid PKCS #12 (.p12) file: a ${cipher} IV of ${iv.length} bytes.`);
  }
  try {
    return new Uint8Array(Buffer.concat([decipher.update(ciphertext), decipher.final()]));
  } catch {
    // Bad padding (or a length that is not whole blocks) is how a wrong key shows.
    return undefined;
  }
}
