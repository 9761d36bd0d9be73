// passmint/pkpass: signed .pkpass files — pack, read, verify. Named re-exports only.
export type { DigestName } from './crypto/contract.js';
export { createPassSigner } from './signer.js';
export type { PassSigner, PassSignerOptions, SignOptions } from './signer.js';
export { SignerError } from './signer-error.js';
