/**
 * A `.p12` file that cannot be opened. `code` says why, for the command to
 * pick its advice: `wrong-passphrase` (the MAC does not match, or a bag does
 * not decrypt), `invalid-pkcs12` (not PKCS #12, or damaged), `unsupported`
 * (a valid file using something this reader does not implement).
 *
 * @example
 * ```ts
 * try { readPkcs12(bytes, passphrase); } catch (error) {
 *   if (error instanceof Pkcs12Error && error.code === 'wrong-passphrase') askAgain();
 * }
 * ```
 */
export class Pkcs12Error extends Error {
  override name = 'Pkcs12Error';
  readonly code: 'wrong-passphrase' | 'invalid-pkcs12' | 'unsupported';

  constructor(code: Pkcs12Error['code'], message: string) {
    super(message);
    this.code = code;
  }
}
