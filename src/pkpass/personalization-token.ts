// The personalization token of rewards enrollment: Wallet posts it with the
// user's signup data; the pass's web service answers it signed with the Pass
// Type ID certificate (a detached PKCS #7 signature), and Wallet checks that
// signature before it asks for the personalized pass.

import { checkDetachedSignature, type CheckSignatureOptions, type SignatureCheck } from './signature-check.js';
import type { PassSigner, SignOptions } from './signer.js';

const encoder = new TextEncoder();

/**
 * Signs the `personalizationToken` Wallet posted to the personalize endpoint:
 * a detached CMS (PKCS #7) SignedData, DER, over the token's UTF-8 bytes,
 * made with the pass's certificate — the same structure as a pass's
 * signature (signing time, certificate and WWDR carried). The answer to
 * `POST /v1/passes/{passTypeIdentifier}/{serialNumber}/personalize`.
 *
 * @throws {TypeError} when `token` is not a non-empty string.
 *
 * @example
 * ```ts
 * const signed = await signPersonalizationToken(body.personalizationToken, signer);
 * return new Response(signed, { headers: { 'content-type': 'application/octet-stream' } });
 * ```
 */
export async function signPersonalizationToken(token: string, signer: PassSigner, options?: SignOptions): Promise<Uint8Array> {
  if (typeof token !== 'string' || token === '') throw new TypeError('signPersonalizationToken(token): token must be a non-empty string');
  return signer.sign(encoder.encode(token), options);
}

/**
 * Checks a signed personalization token as Wallet does, with the code that
 * checks a pass's signature: the digest of the token's UTF-8 bytes, the RSA
 * signature, the signer certificate and its WWDR (and `roots` when given),
 * the dates, the signing time. Never throws; no issue means it is good.
 * Compare `signer.passTypeIdentifier` with the pass's yourself.
 *
 * @example
 * ```ts
 * const check = await checkPersonalizationToken(signed, token, { roots: [appleRootPem] });
 * check.issues.length === 0; // true
 * ```
 */
export function checkPersonalizationToken(signature: Uint8Array, token: string, options?: CheckSignatureOptions): Promise<SignatureCheck> {
  const content = typeof token === 'string' ? encoder.encode(token) : (token as unknown as Uint8Array);
  return checkDetachedSignature(signature, content, options, 'personalization token');
}
