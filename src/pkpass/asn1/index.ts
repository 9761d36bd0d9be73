// The DER reader and writer used by CMS signing and verification (and PKCS #12 in the CLI). Named re-exports only.
export { DerError } from './der-error.js';
export { parseDer } from './der-reader.js';
export type { DerNode } from './der-reader.js';
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
  sequence,
  setOf,
  tagged,
  time,
  tlv,
  utcTime,
  utf8String,
} from './der-writer.js';
export { TAG } from './tags.js';
