import type { DigestName } from '../crypto/contract.js';
import { OID } from '../oids.js';

/**
 * The digest OID of each digest a pass signature may use.
 *
 * @example
 * ```ts
 * DIGEST_OIDS.sha256; // '2.16.840.1.101.3.4.2.1'
 * ```
 */
export const DIGEST_OIDS: Readonly<Record<DigestName, string>> = { sha1: OID.sha1, sha256: OID.sha256 };

/**
 * The digest named by an OID, if it is one a pass signature may use.
 *
 * @example
 * ```ts
 * digestOfOid('1.3.14.3.2.26'); // 'sha1'
 * ```
 */
export function digestOfOid(id: string): DigestName | undefined {
  return id === OID.sha1 ? 'sha1' : id === OID.sha256 ? 'sha256' : undefined;
}
