/** What went wrong in passmint/google, as a stable code. */
export type GoogleWalletErrorCode =
  // credentials (readGoogleCredentials)
  | 'not-json'
  | 'not-service-account'
  | 'missing-client-email'
  | 'missing-private-key'
  | 'bad-private-key'
  | 'key-not-rsa'
  // save links (createSaveUrl)
  | 'save-link-too-long'
  | 'empty-payload'
  // client (createGoogleWalletClient)
  | 'token-failed'
  | 'request-failed'
  | 'timeout'
  | 'body-too-large'
  | 'not-found'
  | 'conflict'
  | 'rate-limited'
  | 'server-error'
  | 'invalid-argument'
  | 'bad-response'
  // mapping (toGoogleWallet)
  | 'invalid-issuer-id'
  | 'invalid-pass';

/**
 * The one error class of passmint/google; `code` says what is wrong, `status` the HTTP status when Google answered.
 *
 * @example
 * ```ts
 * try { readGoogleCredentials(text); } catch (error) {
 *   if (error instanceof GoogleWalletError && error.code === 'not-service-account') console.error(error.message);
 * }
 * ```
 */
export class GoogleWalletError extends Error {
  override name = 'GoogleWalletError';
  readonly code: GoogleWalletErrorCode;
  readonly status?: number;

  constructor(code: GoogleWalletErrorCode, message: string, status?: number) {
    super(message);
    this.code = code;
    if (status !== undefined) this.status = status;
  }
}
