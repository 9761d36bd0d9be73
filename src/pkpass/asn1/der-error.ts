import { PassmintError } from '../../errors.js';

/**
 * Bytes that are not the DER (or, where allowed, BER) the reader expected.
 * The only error the DER reader throws; callers turn it into an issue of
 * their own (`invalid-signature`, `invalid-certificate`, …), so it carries no
 * issues itself.
 *
 * @example
 * ```ts
 * try { parseDer(bytes); } catch (error) {
 *   if (error instanceof DerError) console.error(error.offset, error.message);
 * }
 * ```
 */
export class DerError extends PassmintError {
  override name = 'DerError';
  /** Where in the parsed bytes the problem is (the start of the element concerned). */
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(`${message} (at byte ${offset})`, []);
    this.offset = offset;
  }
}
