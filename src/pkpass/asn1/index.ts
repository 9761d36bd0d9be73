// The DER reader and writer used by CMS signing and verification (and PKCS #12 in the CLI). Named re-exports only.
export { DerError } from './der-error.js';
export { parseDer } from './der-reader.js';
export type { DerNode, DerOptions } from './der-reader.js';
export {
  childrenOf,
  concatBytes,
  expectTag,
  readBitString,
  readBoolean,
  readIntegerBytes,
  readOctets,
  readOid,
  readSmallInteger,
  readText,
  readTime,
  readUnsigned,
} from './der-values.js';
export {
  bitString,
  boolean,
  compareDer,
  encodeLength,
  generalizedTime,
  integer,
  NULL,
  octetString,
  oid,
  printableString,
  sequence,
  setOf,
  tagged,
  time,
  tlv,
  utcTime,
  utf8String,
} from './der-writer.js';
export { CONSTRUCTED, contextTag, TAG } from './tags.js';
