import { PassmintError } from '../errors.js';

/**
 * A certificate, key or WWDR intermediate that `createPassSigner` cannot sign
 * passes with. Each issue's `path` names the option at fault
 * (`/certificate`, `/privateKey`, `/wwdr`) and its message says what to do.
 *
 * @example
 * ```ts
 * try { await createPassSigner({ certificate, privateKey, wwdr }); } catch (error) {
 *   if (error instanceof SignerError) console.error(error.issues.map((issue) => issue.code)); // ['wrong-wwdr']
 * }
 * ```
 */
export class SignerError extends PassmintError {
  override name = 'SignerError';
}
