// Object identifiers of PKCS #12 (RFC 7292), PKCS #5 (RFC 8018) and PKCS #7 that the reader meets.

export const OID_DATA = '1.2.840.113549.1.7.1';
export const OID_ENCRYPTED_DATA = '1.2.840.113549.1.7.6';
export const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
export const OID_ENVELOPED_DATA = '1.2.840.113549.1.7.3';

// Bag types, RFC 7292 section 4.2.
export const OID_KEY_BAG = '1.2.840.113549.1.12.10.1.1';
export const OID_SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
export const OID_CERT_BAG = '1.2.840.113549.1.12.10.1.3';
export const OID_SAFE_CONTENTS_BAG = '1.2.840.113549.1.12.10.1.6';
export const OID_X509_CERTIFICATE = '1.2.840.113549.1.9.22.1';

// Bag attributes.
export const OID_FRIENDLY_NAME = '1.2.840.113549.1.9.20';
export const OID_LOCAL_KEY_ID = '1.2.840.113549.1.9.21';

// Password-based encryption, RFC 7292 appendix C (the "legacy" schemes).
export const OID_PBE_SHA_RC4_128 = '1.2.840.113549.1.12.1.1';
export const OID_PBE_SHA_RC4_40 = '1.2.840.113549.1.12.1.2';
export const OID_PBE_SHA_3DES = '1.2.840.113549.1.12.1.3';
export const OID_PBE_SHA_2DES = '1.2.840.113549.1.12.1.4';
export const OID_PBE_SHA_RC2_128 = '1.2.840.113549.1.12.1.5';
export const OID_PBE_SHA_RC2_40 = '1.2.840.113549.1.12.1.6';

// PBES2, RFC 8018.
export const OID_PBES2 = '1.2.840.113549.1.5.13';
export const OID_PBKDF2 = '1.2.840.113549.1.5.12';

/** PBKDF2 pseudo-random functions → node:crypto digest names. */
export const PRF_DIGESTS: Readonly<Record<string, string>> = {
  '1.2.840.113549.2.7': 'sha1',
  '1.2.840.113549.2.8': 'sha224',
  '1.2.840.113549.2.9': 'sha256',
  '1.2.840.113549.2.10': 'sha384',
  '1.2.840.113549.2.11': 'sha512',
};

/** PBES2 ciphers → node:crypto cipher name and key length in bytes. */
export const PBES2_CIPHERS: Readonly<Record<string, { readonly cipher: string; readonly keyLength: number }>> = {
  '2.16.840.1.101.3.4.1.2': { cipher: 'aes-128-cbc', keyLength: 16 },
  '2.16.840.1.101.3.4.1.22': { cipher: 'aes-192-cbc', keyLength: 24 },
  '2.16.840.1.101.3.4.1.42': { cipher: 'aes-256-cbc', keyLength: 32 },
  '1.2.840.113549.3.7': { cipher: 'des-ede3-cbc', keyLength: 24 },
};

/** MAC digest algorithms (DigestInfo) → node:crypto digest names. */
export const MAC_DIGESTS: Readonly<Record<string, string>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
