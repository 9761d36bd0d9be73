import { NULL, integer, octetString, oid, sequence, setOf, tagged, time, tlv } from '../asn1/der-writer.js';
import { TAG, contextTag } from '../asn1/tags.js';
import type { DigestName } from '../crypto/contract.js';
import { OID } from '../oids.js';
import type { Certificate } from '../x509/certificate.js';
import { DIGEST_OIDS } from './digest-algorithms.js';

// What every signature repeats, encoded on first use and kept: OIDs, the
// algorithm identifiers, the contentType attribute. Lazily, so that importing
// this module runs nothing (the package is "sideEffects": false).
interface Constants {
  readonly contentTypeAttribute: Uint8Array;
  readonly signingTimeOid: Uint8Array;
  readonly messageDigestOid: Uint8Array;
  readonly digestAlgorithms: Readonly<Record<DigestName, Uint8Array>>;
  readonly rsaEncryption: Uint8Array;
  readonly dataContentInfo: Uint8Array;
  readonly signedDataOid: Uint8Array;
  readonly version1: Uint8Array;
}
let constants: Constants | undefined;

function encoded(): Constants {
  return (constants ??= {
    contentTypeAttribute: sequence(oid(OID.contentType), setOf(oid(OID.data))),
    signingTimeOid: oid(OID.signingTime),
    messageDigestOid: oid(OID.messageDigest),
    // AlgorithmIdentifier { sha1 | sha256, NULL }: as openssl smime and every pass Apple's tools made write it.
    digestAlgorithms: { sha1: sequence(oid(DIGEST_OIDS.sha1), NULL), sha256: sequence(oid(DIGEST_OIDS.sha256), NULL) },
    rsaEncryption: sequence(oid(OID.rsaEncryption), NULL),
    dataContentInfo: sequence(oid(OID.data)),
    signedDataOid: oid(OID.signedData),
    version1: integer(1),
  });
}

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
  const { contentTypeAttribute, signingTimeOid, messageDigestOid } = encoded();
  return setOf(
    contentTypeAttribute,
    sequence(signingTimeOid, tlv(TAG.SET, time(signingTime))),
    sequence(messageDigestOid, tlv(TAG.SET, octetString(messageDigest))),
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

// Per signer certificate and WWDR: issuerAndSerialNumber and the certificate
// set, encoded for the first signature and reused by every later one.
interface SignerParts {
  readonly wwdr: Certificate;
  readonly sid: Uint8Array;
  readonly certificates: Uint8Array;
}
const signerParts = new WeakMap<Certificate, SignerParts>();

function partsOf(signer: Certificate, wwdr: Certificate): SignerParts {
  let parts = signerParts.get(signer);
  if (parts === undefined || parts.wwdr !== wwdr) {
    parts = {
      wwdr,
      sid: sequence(signer.issuer.der, tlv(TAG.INTEGER, signer.serial)),
      // certificates [0] IMPLICIT CertificateSet: the signer first, then the intermediate.
      certificates: tlv(contextTag(0, true), signer.der, wwdr.der),
    };
    signerParts.set(signer, parts);
  }
  return parts;
}

/**
 * A detached CMS SignedData in a ContentInfo, DER, shaped as Wallet expects
 * (RFC 5652; pkpass.md): version 1; one digest algorithm with NULL
 * parameters (as `openssl smime` and Apple's signpass write it); id-data
 * without content; the signer and WWDR certificates; one SignerInfo v1 with
 * issuerAndSerialNumber, the signed attributes as `[0] IMPLICIT`,
 * `rsaEncryption`; no CRLs, no unsigned attributes.
 *
 * @example
 * ```ts
 * const der = encodeSignedData({ signer, wwdr, digest: 'sha256', signedAttributes, signature });
 * ```
 */
export function encodeSignedData(parts: SignedDataParts): Uint8Array {
  const { digestAlgorithms, rsaEncryption, dataContentInfo, signedDataOid, version1 } = encoded();
  const { sid, certificates } = partsOf(parts.signer, parts.wwdr);
  const digestAlgorithm = digestAlgorithms[parts.digest];
  // The signed SET becomes [0] IMPLICIT in the SignerInfo: same content, new tag.
  const implicitAttributes = new Uint8Array(parts.signedAttributes);
  implicitAttributes[0] = contextTag(0, true);
  const signerInfo = sequence(version1, sid, digestAlgorithm, implicitAttributes, rsaEncryption, octetString(parts.signature));
  const signedData = sequence(version1, tlv(TAG.SET, digestAlgorithm), dataContentInfo, certificates, tlv(TAG.SET, signerInfo));
  return sequence(signedDataOid, tagged(0, signedData));
}
