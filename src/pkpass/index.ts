// passmint/pkpass: signed .pkpass files — pack, read, verify. Named re-exports only.
export type { DigestName } from './crypto/contract.js';
