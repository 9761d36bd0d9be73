import { createPassSigner, PackError, packPass, SignerError } from '../../src/pkpass/index.js';
import type { Issue } from '../../src/index.js';

// Loaded with import() the first time a person signs: the CMS, X.509 and key
// code stays out of the first page load.

/** What the person gave: text (pasted PEM) or bytes (a chosen file, PEM or DER). */
export interface Credentials {
  readonly certificate: string | Uint8Array;
  readonly privateKey: string | Uint8Array;
  readonly wwdr: string | Uint8Array;
  readonly passphrase: string;
}

/** A signed package, or every reason there is none. */
export type SignResult =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly warnings: readonly Issue[]; readonly passTypeIdentifier: string; readonly teamIdentifier: string }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/**
 * Checks the credentials and signs the pass with passmint/pkpass on Web Crypto.
 * Nothing is kept: the signer lives for this call only.
 *
 * @example
 * ```ts
 * const { signPassInPage } = await import('./sign.js');
 * const result = await signPassInPage(pass, files, { certificate, privateKey, wwdr, passphrase: '' });
 * ```
 */
export async function signPassInPage(pass: unknown, files: Readonly<Record<string, Uint8Array>>, credentials: Credentials): Promise<SignResult> {
  try {
    const signer = await createPassSigner({
      certificate: credentials.certificate,
      privateKey: credentials.privateKey,
      wwdr: credentials.wwdr,
      ...(credentials.passphrase === '' ? {} : { passphrase: credentials.passphrase }),
    });
    let warnings: readonly Issue[] = [];
    const bytes = await packPass(pass, files, signer, { onWarnings: (found) => (warnings = found) });
    return { ok: true, bytes, warnings, passTypeIdentifier: signer.passTypeIdentifier, teamIdentifier: signer.teamIdentifier };
  } catch (error) {
    if (error instanceof SignerError || error instanceof PackError) return { ok: false, issues: error.issues };
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { ok: false, issues: [{ severity: 'error', code: 'invalid-certificate', message, path: '' }] };
  }
}
