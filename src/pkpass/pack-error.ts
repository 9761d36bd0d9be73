import { PassmintError } from '../errors.js';

/**
 * A pass that cannot be packed, a package that cannot be read, or
 * `pass.strings` that cannot be parsed; `issues` lists every reason, located
 * by bundle path (`/icon.png`) or by JSON Pointer inside `pass.json`
 * (`/pass.json/serialNumber`) — the codes `verifyPass` reports.
 *
 * @example
 * ```ts
 * try { await packPass(pass, files, signer); } catch (error) {
 *   if (error instanceof PackError) console.error(error.issues.map((issue) => `${issue.code} ${issue.path}`));
 * }
 * ```
 */
export class PackError extends PassmintError {
  override name = 'PackError';
}
