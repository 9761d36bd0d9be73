import { rsaVerify } from '../crypto/index.js';
import type { Certificate } from './certificate.js';
import { sameName } from './name.js';

/** Why a certificate was not issued by a candidate: a different name, or a signature its key does not verify. */
export type IssuerProblem = 'name' | 'signature' | undefined;

/**
 * Whether `issuer` issued `certificate`: the issuer name equals the
 * candidate's subject, and the certificate's signature verifies under the
 * candidate's key. `undefined` when it did.
 *
 * @example
 * ```ts
 * await issuerProblem(passCertificate, wwdr); // undefined, 'name' or 'signature'
 * ```
 */
export async function issuerProblem(certificate: Certificate, issuer: Certificate): Promise<IssuerProblem> {
  if (!sameName(certificate.issuer, issuer.subject)) return 'name';
  if (certificate.signatureHash === undefined || issuer.rsa === undefined) return 'signature';
  return (await rsaVerify(issuer.spki, certificate.signatureHash, certificate.tbs, certificate.signature)) ? undefined : 'signature';
}

/**
 * Whether a certificate is in date at `at`.
 *
 * @example
 * ```ts
 * validityProblem(certificate, new Date()); // undefined, 'certificate-expired' or 'certificate-not-yet-valid'
 * ```
 */
export function validityProblem(certificate: Certificate, at: Date): 'certificate-expired' | 'certificate-not-yet-valid' | undefined {
  if (at.getTime() > certificate.notAfter.getTime()) return 'certificate-expired';
  if (at.getTime() < certificate.notBefore.getTime()) return 'certificate-not-yet-valid';
  return undefined;
}

/**
 * A date as people read it in messages: `2030-12-10 00:00:00 UTC`.
 *
 * @example
 * ```ts
 * formatDate(new Date('2030-12-10T00:00:00Z')); // '2030-12-10 00:00:00 UTC'
 * ```
 */
export function formatDate(date: Date): string {
  return Number.isNaN(date.getTime()) ? 'an invalid date' : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
