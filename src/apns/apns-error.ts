import { PassmintError } from '../errors.js';

/** Why `passmint/apns` refused to start: options it cannot use. */
export type ApnsErrorCode = 'invalid-options' | 'invalid-key' | 'closed';

/**
 * Misuse of the APNs client: options it cannot work with (`invalid-options`),
 * a provider key that is not an EC P-256 private key (`invalid-key`), or a
 * push on a closed client (`closed`). What APNs answers is never thrown: it
 * is a {@link PushResult}.
 *
 * @example
 * ```ts
 * try { createApnsClient({}); } catch (error) {
 *   if (error instanceof ApnsError) console.error(error.code); // 'invalid-options'
 * }
 * ```
 */
export class ApnsError extends PassmintError {
  override name = 'ApnsError';
  readonly code: ApnsErrorCode;

  constructor(code: ApnsErrorCode, message: string) {
    super(message, []);
    this.code = code;
  }
}
