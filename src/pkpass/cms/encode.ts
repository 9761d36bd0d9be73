import { NULL, integer, octetString, oid, sequence, setOf, tagged, time, tlv } from '../asn1/der-writer.js';
import { TAG, contextTag } from '../asn1/tags.js';
import type { DigestName } from '../crypto/contract.js';
import { OID } from '../oids.js';
import type { Certificate } from '../x509/certificate.js';
import { DIGEST_OIDS } from './digest-algorithms.js';

/**
 * The signed attributes of a pass signature as the DER SET that is signed:
 * contentType (data), signingTime (UTCTime, GeneralizedTime from 2050),
 * messageDigest — in DER order, which for these three is that order.
 *
 * @example
 * ```ts
 * const attributes = signedAttributes(manifestDigest, new Date());
 * attributes[0]; // 0x31, a SET
 * ```
 */
export function signedAttributes(messageDigest: Uint8Array, signingTime: Date): Uint8Array {
  const attribute = (type: string, value: Uint8Array): Uint8Array => sequence(oid(type), setOf(value));
  return setOf(
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.signingTime, time(signingTime)),
    attribute(OID.messageDigest, octetString(messageDigest)),
  );
}

/** What goes into a detached SignedData besides the signed attributes. */
export interface SignedDataParts {
  readonly signer: Certificate;
  readonly wwdr: Certificate;
  readonly digest: DigestName;
  /** The DER SET from `signedAttributes`, exactly as signed. */
  readonly signedAttributes: Uint8Array;
  /** RSASSA-PKCS1-v1_5 over `signedAttributes`. */
  readonly signature: Uint8Array;
}

/**
 * A detached CMS SignedData in a ContentInfo, DER, shaped as Wallet expects
 * (RFC 5652; pkpass.md): version 1; one digest algorithm (parameters absent,
 * as OpenSSL writes them); id-data without content; the signer and WWDR
 * certificates; one SignerInfo v1 with issuerAndSerialNumber, the signed
 * attributes as `[0] IMPLICIT`, `rsaEncryption`; no CRLs, no unsigned attributes.
 *
 * @example
 * ```ts
 * const der = encodeSignedData({ signer, wwdr, digest: 'sha256', signedAttributes, signature });
 * ```
 */
export function encodeSignedData(parts: SignedDataParts): Uint8Array {
  const digestAlgorithm = sequence(oid(DIGEST_OIDS[parts.digest]));
  // The signed SET becomes [0] IMPLICIT in the SignerInfo: same content, new tag.
  const implicitAttributes = new Uint8Array(parts.signedAttributes);
  implicitAttributes[0] = contextTag(0, true);
  const signerInfo = sequence(
    integer(1),
    sequence(parts.signer.issuer.der, tlv(TAG.INTEGER, parts.signer.serial)),
    digestAlgorithm,
    implicitAttributes,
    sequence(oid(OID.rsaEncryption), NULL),
    octetString(parts.signature),
  );
  const signedData = sequence(
    integer(1),
    setOf(digestAlgorithm),
    sequence(oid(OID.data)),
    // certificates [0] IMPLICIT CertificateSet: the signer first, then the intermediate.
    tlv(contextTag(0, true), parts.signer.der, parts.wwdr.der),
    setOf(signerInfo),
  );
  return sequence(oid(OID.signedData), tagged(0, signedData));
}
