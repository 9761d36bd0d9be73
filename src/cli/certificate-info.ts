import { OID } from '../pkpass/oids.js';
import { parseCertificate } from '../pkpass/x509/certificate.js';
import { nameValue } from '../pkpass/x509/name.js';

/** What a person checks of a Pass Type ID certificate before signing with it. */
export interface CertificateInfo {
  readonly commonName: string | undefined;
  /** Subject UID: the pass type identifier (`pass.com.example.event`). */
  readonly passTypeIdentifier: string | undefined;
  /** Subject OU: the team identifier. */
  readonly teamIdentifier: string | undefined;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/**
 * Reads the names and validity of a certificate (DER) with the library's own
 * X.509 reader, so `passmint cert` prints exactly the identifiers that
 * `createPassSigner` will compare with the pass. Throws `DerError` on bytes
 * that are not a certificate.
 *
 * @example
 * ```ts
 * certificateInfo(der).passTypeIdentifier; // 'pass.com.example.event'
 * ```
 */
export function certificateInfo(der: Uint8Array): CertificateInfo {
  const { subject, notBefore, notAfter } = parseCertificate(der);
  return {
    commonName: nameValue(subject, OID.commonName),
    passTypeIdentifier: nameValue(subject, OID.userId),
    teamIdentifier: nameValue(subject, OID.organizationalUnit),
    notBefore,
    notAfter,
  };
}

/** A date as people read it in a terminal: `2027-03-01 12:00 UTC`. */
export function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
