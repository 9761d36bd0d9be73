import { DerError } from '../asn1/der-error.js';
import { parseDer, type DerNode } from '../asn1/der-reader.js';
import { childrenOf, concatBytes, readOctets, readOid, readSmallInteger, readTime, readIntegerBytes } from '../asn1/der-values.js';
import { TAG, contextTag } from '../asn1/tags.js';
import { OID } from '../oids.js';
import { readCertificate, type Certificate } from '../x509/certificate.js';
import { readName, type Name } from '../x509/name.js';

/** How a SignerInfo names its certificate. */
export type SignerIdentifier = { readonly issuer: Name; readonly serial: Uint8Array } | { readonly subjectKeyIdentifier: Uint8Array };

/** The signed attributes passmint checks, and the bytes the signature covers. */
export interface SignedAttributes {
  /** The attributes re-tagged as the SET that was signed (`0x31` over the content as found). */
  readonly signedBytes: Uint8Array;
  readonly contentType?: string;
  readonly messageDigest?: Uint8Array;
  readonly signingTime?: Date;
}

/** One SignerInfo, read. */
export interface SignerInfo {
  readonly version: number;
  readonly sid: SignerIdentifier;
  readonly digestAlgorithm: string;
  readonly signedAttributes?: SignedAttributes;
  readonly signatureAlgorithm: string;
  readonly signature: Uint8Array;
}

/**
 * A CMS SignedData as read: BER tolerated, certificates parsed (the
 * unreadable ones listed by index), signer infos with their signed attributes.
 *
 * @example
 * ```ts
 * const signedData: SignedData = readSignedData(signatureBytes);
 * signedData.signerInfos[0]?.signedAttributes?.signingTime; // Date
 * ```
 */
export interface SignedData {
  readonly version: number;
  readonly contentType: string;
  /** Present when the content is attached (a pass signature's is not). */
  readonly content?: Uint8Array;
  readonly certificates: readonly Certificate[];
  /** `certificates` entries that could not be read: their index and why. */
  readonly unreadableCertificates: readonly string[];
  readonly signerInfos: readonly SignerInfo[];
}

/**
 * Reads a ContentInfo holding a SignedData (RFC 5652), BER or DER. Throws
 * `DerError` for anything else.
 *
 * @example
 * ```ts
 * readSignedData(signature).certificates.length; // 2 in a pass signature
 * ```
 */
export function readSignedData(bytes: Uint8Array): SignedData {
  const contentInfo = parseDer(bytes, { ber: true, maxDepth: 40 });
  const [type, wrapped] = childrenOf(contentInfo, TAG.SEQUENCE, 'ContentInfo', 2);
  const contentType = readOid(type, 'contentType');
  if (contentType !== OID.signedData) throw new DerError(`not a SignedData (content type ${contentType})`, contentInfo.offset);
  const explicit = childrenOf(wrapped, contextTag(0, true), 'ContentInfo content', 1);
  const fields = childrenOf(explicit[0], TAG.SEQUENCE, 'SignedData', 4);
  const version = readSmallInteger(fields[0], 'SignedData version');
  const encapsulated = childrenOf(fields[2], TAG.SEQUENCE, 'encapContentInfo', 1);
  const eContentType = readOid(encapsulated[0], 'eContentType');
  let content: Uint8Array | undefined;
  if (encapsulated[1] !== undefined) {
    const inner = childrenOf(encapsulated[1], contextTag(0, true), 'eContent', 1);
    content = readOctets(inner[0], 'eContent');
  }

  const certificates: Certificate[] = [];
  const unreadableCertificates: string[] = [];
  let index = 3;
  for (; index < fields.length - 1; index++) {
    const field = fields[index] as DerNode;
    if (field.tag !== contextTag(0, true)) continue; // [1] CRLs: not used by passes
    field.children.forEach((child, position) => {
      if (child.tag !== TAG.SEQUENCE) return; // other certificate formats (attribute certificates …)
      try {
        certificates.push(readCertificate(child));
      } catch (error) {
        if (!(error instanceof DerError)) throw error;
        unreadableCertificates.push(`certificate ${position}: ${error.message}`);
      }
    });
  }
  const signerInfos = childrenOf(fields[fields.length - 1], TAG.SET, 'signerInfos').map(readSignerInfo);
  return {
    version,
    contentType: eContentType,
    ...(content === undefined ? {} : { content }),
    certificates,
    unreadableCertificates,
    signerInfos,
  };
}

function readSignerInfo(node: DerNode): SignerInfo {
  const fields = childrenOf(node, TAG.SEQUENCE, 'SignerInfo', 5);
  const version = readSmallInteger(fields[0], 'SignerInfo version');
  const sidNode = fields[1] as DerNode;
  let sid: SignerIdentifier;
  if (sidNode.tag === TAG.SEQUENCE) {
    const [issuer, serial] = childrenOf(sidNode, TAG.SEQUENCE, 'issuerAndSerialNumber', 2);
    sid = { issuer: readName(issuer), serial: readIntegerBytes(serial, 'serialNumber') };
  } else if (sidNode.tag === contextTag(0, false)) {
    sid = { subjectKeyIdentifier: sidNode.content };
  } else {
    throw new DerError('SignerInfo sid is neither issuerAndSerialNumber nor subjectKeyIdentifier', sidNode.offset);
  }
  const digestAlgorithm = readOid(childrenOf(fields[2], TAG.SEQUENCE, 'digestAlgorithm', 1)[0], 'digestAlgorithm');
  let index = 3;
  let signedAttributes: SignedAttributes | undefined;
  if (fields[index]?.tag === contextTag(0, true)) signedAttributes = readSignedAttributes(fields[index++] as DerNode);
  const signatureAlgorithm = readOid(childrenOf(fields[index++], TAG.SEQUENCE, 'signatureAlgorithm', 1)[0], 'signatureAlgorithm');
  const signature = readOctets(fields[index], 'signature');
  return {
    version,
    sid,
    digestAlgorithm,
    ...(signedAttributes === undefined ? {} : { signedAttributes }),
    signatureAlgorithm,
    signature,
  };
}

function readSignedAttributes(node: DerNode): SignedAttributes {
  // RFC 5652 §5.4: the signature covers the attributes as a SET (tag 0x31),
  // not as the [0] IMPLICIT found here. The content is kept as found, in the
  // order found: producers that leave the SET unsorted still verify.
  const signedBytes = concatBytes([Uint8Array.of(TAG.SET), node.raw.subarray(1)]);
  const seen = new Set<string>();
  let contentType: string | undefined;
  let messageDigest: Uint8Array | undefined;
  let signingTime: Date | undefined;
  for (const attribute of node.children) {
    const [typeNode, valuesNode] = childrenOf(attribute, TAG.SEQUENCE, 'Attribute', 2);
    const type = readOid(typeNode, 'attribute type');
    if (seen.has(type)) throw new DerError(`signed attribute ${type} appears twice`, attribute.offset);
    seen.add(type);
    const values = childrenOf(valuesNode, TAG.SET, 'attribute values');
    const single = (): DerNode => {
      if (values.length !== 1) throw new DerError(`signed attribute ${type} has ${values.length} values, not one`, attribute.offset);
      return values[0] as DerNode;
    };
    if (type === OID.contentType) contentType = readOid(single(), 'contentType');
    else if (type === OID.messageDigest) messageDigest = readOctets(single(), 'messageDigest');
    else if (type === OID.signingTime) signingTime = readTime(single(), 'signingTime');
  }
  return {
    signedBytes,
    ...(contentType === undefined ? {} : { contentType }),
    ...(messageDigest === undefined ? {} : { messageDigest }),
    ...(signingTime === undefined ? {} : { signingTime }),
  };
}
