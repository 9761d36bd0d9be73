import { DerError } from '../asn1/der-error.js';
import { parseDer, type DerNode } from '../asn1/der-reader.js';
import { childrenOf, readBitString, readBoolean, readIntegerBytes, readOctets, readOid, readTime, readUnsigned } from '../asn1/der-values.js';
import { TAG, contextTag } from '../asn1/tags.js';
import type { HashName } from '../crypto/contract.js';
import { OID } from '../oids.js';
import { readName, type Name } from './name.js';

/** An RSA public key: modulus and public exponent, unsigned big-endian without leading zeros. */
export interface RsaPublicKey {
  readonly modulus: Uint8Array;
  readonly exponent: Uint8Array;
}

/**
 * The parts of an X.509 certificate passmint uses. Byte fields are views into
 * the certificate's DER, as found (what was signed is what is verified).
 *
 * @example
 * ```ts
 * const certificate: Certificate = parseCertificate(der);
 * certificate.subject.text; // 'UID=pass.com.example.test, CN=…'
 * ```
 */
export interface Certificate {
  readonly der: Uint8Array;
  /** The TBSCertificate, the bytes the issuer signed. */
  readonly tbs: Uint8Array;
  /** The serial number's INTEGER content octets, as found. */
  readonly serial: Uint8Array;
  readonly issuer: Name;
  readonly subject: Name;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The SubjectPublicKeyInfo DER. */
  readonly spki: Uint8Array;
  /** The public key, when it is RSA. */
  readonly rsa?: RsaPublicKey;
  /** The issuer's signature algorithm OID, and its hash when it is RSASSA-PKCS1-v1_5. */
  readonly signatureAlgorithm: string;
  readonly signatureHash?: HashName;
  readonly signature: Uint8Array;
  readonly subjectKeyIdentifier?: Uint8Array;
  /** basicConstraints cA. */
  readonly isCa: boolean;
  /** keyUsage digitalSignature; `undefined` without a keyUsage extension. */
  readonly digitalSignature?: boolean;
}

const SIGNATURE_HASHES: Readonly<Record<string, HashName>> = {
  [OID.sha1WithRSAEncryption]: 'sha1',
  [OID.sha256WithRSAEncryption]: 'sha256',
  [OID.sha384WithRSAEncryption]: 'sha384',
  [OID.sha512WithRSAEncryption]: 'sha512',
};

// RSA public operations cost grows with the modulus and the exponent; bound
// both so a hostile certificate cannot make verification slow.
const MAX_MODULUS_BYTES = 1024; // 8192 bits
const MAX_EXPONENT_BYTES = 8;

/**
 * Parses a DER certificate. Throws `DerError` for anything that is not one.
 *
 * @example
 * ```ts
 * parseCertificate(der).notAfter; // Date
 * ```
 */
export function parseCertificate(der: Uint8Array): Certificate {
  return readCertificate(parseDer(der));
}

/**
 * Reads a certificate from an already parsed element (one of the certificates inside a CMS).
 *
 * @example
 * ```ts
 * const embedded = certificatesNode.children.map(readCertificate);
 * ```
 */
export function readCertificate(node: DerNode): Certificate {
  const [tbsNode, algorithm, signatureNode] = childrenOf(node, TAG.SEQUENCE, 'Certificate', 3);
  const fields = childrenOf(tbsNode, TAG.SEQUENCE, 'TBSCertificate', 6);
  let index = 0;
  if (fields[0]?.tag === contextTag(0, true)) index++;
  const serial = readIntegerBytes(fields[index++], 'serialNumber');
  index++; // signature AlgorithmIdentifier, repeated outside
  const issuer = readName(fields[index++]);
  const [notBeforeNode, notAfterNode] = childrenOf(fields[index++], TAG.SEQUENCE, 'Validity', 2);
  const subject = readName(fields[index++]);
  const spkiNode = fields[index++];
  const [keyAlgorithm, keyBits] = childrenOf(spkiNode, TAG.SEQUENCE, 'SubjectPublicKeyInfo', 2);
  const signatureAlgorithm = readOid(childrenOf(algorithm, TAG.SEQUENCE, 'signatureAlgorithm', 1)[0], 'signatureAlgorithm');
  const signatureHash = SIGNATURE_HASHES[signatureAlgorithm];

  let rsa: RsaPublicKey | undefined;
  if (readOid(childrenOf(keyAlgorithm, TAG.SEQUENCE, 'key algorithm', 1)[0], 'key algorithm') === OID.rsaEncryption) {
    rsa = readRsaPublicKey(readBitString(keyBits, 'subjectPublicKey').bytes);
  }

  let subjectKeyIdentifier: Uint8Array | undefined;
  let isCa = false;
  let digitalSignature: boolean | undefined;
  for (; index < fields.length; index++) {
    const field = fields[index] as DerNode;
    if (field.tag !== contextTag(3, true)) continue;
    for (const extension of childrenOf(field.children[0], TAG.SEQUENCE, 'Extensions')) {
      const parts = childrenOf(extension, TAG.SEQUENCE, 'Extension', 2);
      const id = readOid(parts[0], 'extension id');
      const value = readOctets(parts[parts.length - 1], 'extension value');
      if (id === OID.subjectKeyIdentifier) subjectKeyIdentifier = readOctets(parseDer(value), 'subjectKeyIdentifier');
      else if (id === OID.basicConstraints) {
        const constraints = childrenOf(parseDer(value), TAG.SEQUENCE, 'basicConstraints');
        isCa = constraints[0]?.tag === TAG.BOOLEAN && readBoolean(constraints[0]);
      } else if (id === OID.keyUsage) {
        const bits = readBitString(parseDer(value), 'keyUsage').bytes;
        digitalSignature = ((bits[0] ?? 0) & 0x80) !== 0;
      }
    }
  }

  return {
    der: node.raw,
    tbs: (tbsNode as DerNode).raw,
    serial,
    issuer,
    subject,
    notBefore: readTime(notBeforeNode, 'notBefore'),
    notAfter: readTime(notAfterNode, 'notAfter'),
    spki: (spkiNode as DerNode).raw,
    ...(rsa === undefined ? {} : { rsa }),
    signatureAlgorithm,
    ...(signatureHash === undefined ? {} : { signatureHash }),
    signature: readBitString(signatureNode, 'signature').bytes,
    ...(subjectKeyIdentifier === undefined ? {} : { subjectKeyIdentifier }),
    isCa,
    ...(digitalSignature === undefined ? {} : { digitalSignature }),
  };
}

/**
 * Reads an RSAPublicKey (PKCS #1) and bounds its size. Throws `DerError`.
 *
 * @example
 * ```ts
 * readRsaPublicKey(bitStringBytes).exponent; // Uint8Array [1, 0, 1]
 * ```
 */
export function readRsaPublicKey(der: Uint8Array): RsaPublicKey {
  const node = parseDer(der);
  const [modulusNode, exponentNode] = childrenOf(node, TAG.SEQUENCE, 'RSAPublicKey', 2);
  const modulus = readUnsigned(modulusNode, 'modulus');
  const exponent = readUnsigned(exponentNode, 'publicExponent');
  if (modulus.length > MAX_MODULUS_BYTES) throw new DerError('RSA modulus longer than 8192 bits', node.offset);
  if (exponent.length > MAX_EXPONENT_BYTES) throw new DerError('RSA public exponent longer than 64 bits', node.offset);
  return { modulus, exponent };
}
