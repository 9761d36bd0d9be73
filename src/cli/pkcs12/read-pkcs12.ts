import { createHmac, timingSafeEqual } from 'node:crypto';
import { childrenOf, DerError, expectTag, parseDer, readOctets, readOid, readSmallInteger, readText, TAG, type DerNode } from '../../pkpass/asn1/index.js';
import { decryptWithPassphrase } from './decrypt.js';
import { iterationsOf, KDF_MAC, pkcs12Kdf } from './kdf.js';
import {
  MAC_DIGESTS,
  OID_CERT_BAG,
  OID_DATA,
  OID_ENCRYPTED_DATA,
  OID_ENVELOPED_DATA,
  OID_FRIENDLY_NAME,
  OID_KEY_BAG,
  OID_LOCAL_KEY_ID,
  OID_SAFE_CONTENTS_BAG,
  OID_SHROUDED_KEY_BAG,
  OID_SIGNED_DATA,
  OID_X509_CERTIFICATE,
} from './oids.js';
import { NO_PASSPHRASE, passphraseOf, type Passphrase } from './passphrase.js';
import { Pkcs12Error } from './pkcs12-error.js';

/** What a bag's attributes say about it: the name Keychain shows, and the id that pairs a key with its certificate. */
export interface BagAttributes {
  readonly friendlyName?: string;
  readonly localKeyId?: Uint8Array;
}

/** A certificate found in a .p12 (DER). */
export interface Pkcs12Certificate extends BagAttributes {
  readonly der: Uint8Array;
}

/** A private key found in a .p12, decrypted: PKCS #8 PrivateKeyInfo (DER). */
export interface Pkcs12Key extends BagAttributes {
  readonly pkcs8: Uint8Array;
}

/** Everything {@link readPkcs12} found. */
export interface Pkcs12Contents {
  readonly certificates: readonly Pkcs12Certificate[];
  readonly keys: readonly Pkcs12Key[];
  /** The digest of the integrity MAC, or `undefined` when the file has none (then nothing vouches for it). */
  readonly macDigest: string | undefined;
}

// safeContentsBag nests SafeContents; real files never go deeper than one level.
const MAX_BAG_NESTING = 4;

/**
 * Opens a PKCS #12 file (RFC 7292) protected by a passphrase: checks its MAC,
 * decrypts its encrypted SafeContents and shrouded key bags — the legacy
 * schemes (40-bit RC2, 3DES; what Keychain and OpenSSL 1.x write) and PBES2
 * (AES; OpenSSL 3's default) — and returns its certificates and keys.
 *
 * Throws {@link Pkcs12Error}: `wrong-passphrase`, `invalid-pkcs12`, `unsupported`.
 *
 * @example
 * ```ts
 * const { certificates, keys } = readPkcs12(readFileSync('Certificates.p12'), 'secret');
 * ```
 */
export function readPkcs12(bytes: Uint8Array, passphrase: string): Pkcs12Contents {
  try {
    return readPfx(bytes, passphrase);
  } catch (error) {
    if (error instanceof DerError) throw new Pkcs12Error('invalid-pkcs12', `Not a valid PKCS #12 (.p12) file: ${error.message}.`);
    throw error;
  }
}

function readPfx(bytes: Uint8Array, text: string): Pkcs12Contents {
  if (looksLikePem(bytes)) {
    throw new Pkcs12Error('invalid-pkcs12', 'This is a PEM file, not a .p12: `passmint pack` takes PEM certificates and keys as they are.');
  }
  const pfx = parseDer(bytes, { ber: true });
  const [versionNode, authSafe, macData] = childrenOf(pfx, TAG.SEQUENCE, 'PFX', 2);
  const version = readSmallInteger(versionNode, 'PFX version');
  if (version !== 3) throw new Pkcs12Error('unsupported', `PKCS #12 version ${version}; passmint reads version 3 (RFC 7292).`);
  const [typeNode, explicit] = childrenOf(authSafe, TAG.SEQUENCE, 'authSafe', 2);
  const type = readOid(typeNode, 'authSafe content type');
  if (type !== OID_DATA) {
    throw new Pkcs12Error(
      'unsupported',
      'This .p12 is protected with a public key (signed), not a passphrase; passmint reads passphrase-protected files only.',
    );
  }
  const authSafeBytes = readOctets(expectTag(explicit, 0xa0, 'authSafe content').children[0], 'authSafe content');

  let passphrase = passphraseOf(text);
  let macDigest: string | undefined;
  if (macData !== undefined) {
    macDigest = macDigestOf(macData);
    if (!macMatches(macData, macDigest, authSafeBytes, passphrase)) {
      // An empty passphrase may have been hashed as no passphrase at all.
      if (text === '' && macMatches(macData, macDigest, authSafeBytes, NO_PASSPHRASE)) passphrase = NO_PASSPHRASE;
      else
        throw new Pkcs12Error(
          'wrong-passphrase',
          text === '' ? 'The .p12 needs a passphrase.' : 'The passphrase is wrong: the .p12 integrity check (MAC) fails with it.',
        );
    }
  }

  const certificates: Pkcs12Certificate[] = [];
  const keys: Pkcs12Key[] = [];
  for (const contentInfo of childrenOf(parseDer(authSafeBytes, { ber: true }), TAG.SEQUENCE, 'AuthenticatedSafe')) {
    const [oidNode, content] = childrenOf(contentInfo, TAG.SEQUENCE, 'ContentInfo', 1);
    const oid = readOid(oidNode, 'ContentInfo type');
    let safeContents: Uint8Array;
    if (oid === OID_DATA) {
      safeContents = readOctets(expectTag(content, 0xa0, 'data content').children[0], 'data content');
    } else if (oid === OID_ENCRYPTED_DATA) {
      safeContents = decryptEncryptedData(expectTag(content, 0xa0, 'encryptedData content').children[0], passphrase);
    } else if (oid === OID_ENVELOPED_DATA || oid === OID_SIGNED_DATA) {
      throw new Pkcs12Error('unsupported', 'Part of this .p12 is encrypted to a public key, not a passphrase; passmint reads passphrase-protected files only.');
    } else {
      continue; // An unknown content type holds nothing passmint needs.
    }
    readSafeContents(safeContents, passphrase, certificates, keys, 0);
  }
  return { certificates, keys, macDigest };
}

function macDigestOf(macData: DerNode): string {
  const [digestInfo] = childrenOf(macData, TAG.SEQUENCE, 'MacData', 2);
  const [algorithm] = childrenOf(digestInfo, TAG.SEQUENCE, 'MAC DigestInfo', 2);
  const oid = readOid(childrenOf(algorithm, TAG.SEQUENCE, 'MAC algorithm', 1)[0], 'MAC algorithm');
  const digest = MAC_DIGESTS[oid];
  if (digest === undefined) throw new Pkcs12Error('unsupported', `This .p12's integrity check uses an algorithm passmint does not read (${oid}).`);
  return digest;
}

// RFC 7292 section 5: HMAC over the authSafe content, keyed with the PKCS #12 KDF (id 3).
function macMatches(macData: DerNode, digest: string, authSafe: Uint8Array, passphrase: Passphrase): boolean {
  const [digestInfo, saltNode, iterationsNode] = macData.children;
  const expected = readOctets(digestInfo?.children[1], 'MAC value');
  const salt = readOctets(saltNode, 'MAC salt');
  const iterations = iterationsNode === undefined ? 1 : iterationsOf(iterationsNode, 'MAC iterations');
  const size = createHmac(digest, '').digest().length;
  const key = pkcs12Kdf(digest, passphrase.bmp, salt, KDF_MAC, iterations, size);
  const actual = createHmac(digest, key).update(authSafe).digest();
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function decryptEncryptedData(encryptedData: DerNode | undefined, passphrase: Passphrase): Uint8Array {
  const [, info] = childrenOf(encryptedData, TAG.SEQUENCE, 'EncryptedData', 2);
  const [, algorithm, encrypted] = childrenOf(info, TAG.SEQUENCE, 'EncryptedContentInfo', 3);
  if (algorithm === undefined || encrypted === undefined) throw new DerError('EncryptedContentInfo is incomplete', info?.offset ?? 0);
  // encryptedContent is [0] IMPLICIT OCTET STRING: primitive, or (BER) constructed of OCTET STRING pieces.
  let ciphertext: Uint8Array;
  if (encrypted.tag === 0x80) ciphertext = encrypted.content;
  else if (encrypted.tag === 0xa0) ciphertext = readOctets({ ...encrypted, tag: TAG.OCTET_STRING | 0x20 }, 'encrypted content');
  else throw new DerError('encryptedContent: expected [0]', encrypted.offset);
  return decryptWithPassphrase(algorithm, ciphertext, passphrase);
}

function readSafeContents(bytes: Uint8Array, passphrase: Passphrase, certificates: Pkcs12Certificate[], keys: Pkcs12Key[], depth: number): void {
  if (depth > MAX_BAG_NESTING) throw new DerError('SafeContents nested too deeply', 0);
  for (const bag of childrenOf(parseDer(bytes, { ber: true }), TAG.SEQUENCE, 'SafeContents')) {
    const [oidNode, explicit, attributeSet] = childrenOf(bag, TAG.SEQUENCE, 'SafeBag', 2);
    const oid = readOid(oidNode, 'bag type');
    const value = expectTag(explicit, 0xa0, 'bag value').children[0];
    const attributes = attributeSet === undefined ? {} : readAttributes(attributeSet);
    if (oid === OID_CERT_BAG) {
      const [certType, certValue] = childrenOf(value, TAG.SEQUENCE, 'CertBag', 2);
      if (readOid(certType, 'certificate type') !== OID_X509_CERTIFICATE) continue; // SDSI certificates: not for Wallet
      certificates.push({ ...attributes, der: readOctets(expectTag(certValue, 0xa0, 'certificate').children[0], 'certificate') });
    } else if (oid === OID_SHROUDED_KEY_BAG) {
      const [algorithm, encrypted] = childrenOf(value, TAG.SEQUENCE, 'EncryptedPrivateKeyInfo', 2);
      if (algorithm === undefined) throw new DerError('EncryptedPrivateKeyInfo is incomplete', value?.offset ?? 0);
      keys.push({ ...attributes, pkcs8: decryptWithPassphrase(algorithm, readOctets(encrypted, 'encrypted key'), passphrase) });
    } else if (oid === OID_KEY_BAG) {
      keys.push({ ...attributes, pkcs8: expectTag(value, TAG.SEQUENCE, 'PrivateKeyInfo').raw });
    } else if (oid === OID_SAFE_CONTENTS_BAG) {
      readSafeContents(expectTag(value, TAG.SEQUENCE, 'SafeContents').raw, passphrase, certificates, keys, depth + 1);
    }
    // CRL and secret bags hold nothing a pass needs.
  }
}

function readAttributes(set: DerNode): BagAttributes {
  let friendlyName: string | undefined;
  let localKeyId: Uint8Array | undefined;
  for (const attribute of childrenOf(set, TAG.SET, 'bag attributes')) {
    const [oidNode, values] = childrenOf(attribute, TAG.SEQUENCE, 'attribute', 2);
    const oid = readOid(oidNode, 'attribute type');
    const first = childrenOf(values, TAG.SET, 'attribute values')[0];
    if (first === undefined) continue;
    if (oid === OID_FRIENDLY_NAME) friendlyName = readText(first, 'friendlyName');
    else if (oid === OID_LOCAL_KEY_ID) localKeyId = readOctets(first, 'localKeyId');
  }
  return { ...(friendlyName === undefined ? {} : { friendlyName }), ...(localKeyId === undefined ? {} : { localKeyId }) };
}

function looksLikePem(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 64));
  return head.trimStart().startsWith('-----BEGIN');
}
