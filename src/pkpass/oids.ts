/**
 * The object identifiers passmint's X.509, CMS and key code reads and writes.
 *
 * @example
 * ```ts
 * readOid(node) === OID.signedData;
 * ```
 */
export const OID = {
  // PKCS #7 / CMS (RFC 5652)
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  // Digests
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  // RSA (RFC 8017)
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha1WithRSAEncryption: '1.2.840.113549.1.1.5',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
  sha384WithRSAEncryption: '1.2.840.113549.1.1.12',
  sha512WithRSAEncryption: '1.2.840.113549.1.1.13',
  // Password-based encryption (RFC 8018)
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
  hmacWithSHA1: '1.2.840.113549.2.7',
  hmacWithSHA256: '1.2.840.113549.2.9',
  hmacWithSHA384: '1.2.840.113549.2.10',
  hmacWithSHA512: '1.2.840.113549.2.11',
  aes128Cbc: '2.16.840.1.101.3.4.1.2',
  aes192Cbc: '2.16.840.1.101.3.4.1.22',
  aes256Cbc: '2.16.840.1.101.3.4.1.42',
  // Names and extensions (RFC 5280, RFC 4519)
  userId: '0.9.2342.19200300.100.1.1',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  commonName: '2.5.4.3',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  extendedKeyUsage: '2.5.29.37',
  authorityKeyIdentifier: '2.5.29.35',
  // Apple's Pass Type ID certificates: the extended key usage for signing passes.
  passSigning: '1.2.840.113635.100.4.14',
} as const;
