import { DerError } from '../asn1/der-error.js';
import { pemText, readPem } from '../pem.js';
import { parseCertificate, type Certificate } from './certificate.js';

/**
 * A certificate given as PEM text, PEM bytes or DER bytes, parsed; or the
 * reason it cannot be read. The bytes are copied, so later changes to the
 * caller's buffer change nothing. Never throws.
 *
 * @example
 * ```ts
 * const read = readCertificateInput(pem);
 * if (typeof read === 'string') console.error(read);
 * ```
 */
export function readCertificateInput(input: unknown): Certificate | string {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) return 'is missing: give it as PEM text or DER bytes';
  const text = pemText(input);
  let der: Uint8Array;
  if (text === undefined) {
    if (typeof input === 'string') return 'is neither PEM text nor DER bytes';
    der = new Uint8Array(input);
  } else {
    const block = readPem(text).find((candidate) => candidate.label === 'CERTIFICATE');
    if (block === undefined) return 'holds no "-----BEGIN CERTIFICATE-----" block';
    der = block.bytes;
  }
  try {
    return parseCertificate(der);
  } catch (error) {
    if (error instanceof DerError) return `is not a readable X.509 certificate (${error.message})`;
    throw error;
  }
}
