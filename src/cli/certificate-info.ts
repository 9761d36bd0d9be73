import { X509Certificate } from 'node:crypto';

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
 * Reads the names and validity of a certificate with Node's X.509 parser (the
 * CLI is Node's; the portable library reads them with its own DER reader).
 *
 * @example
 * ```ts
 * certificateInfo(new X509Certificate(pem)).passTypeIdentifier; // 'pass.com.example.event'
 * ```
 */
export function certificateInfo(certificate: X509Certificate): CertificateInfo {
  const subject = new Map<string, string>();
  // Node writes one `TYPE=value` per line; the first of a type is kept.
  for (const line of certificate.subject.split('\n')) {
    const equals = line.indexOf('=');
    if (equals > 0 && !subject.has(line.slice(0, equals))) subject.set(line.slice(0, equals), line.slice(equals + 1));
  }
  return {
    commonName: subject.get('CN'),
    passTypeIdentifier: subject.get('UID'),
    teamIdentifier: subject.get('OU'),
    notBefore: new Date(certificate.validFrom),
    notAfter: new Date(certificate.validTo),
  };
}

/** A date as people read it in a terminal: `2027-03-01 12:00 UTC`. */
export function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
