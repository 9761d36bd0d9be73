/**
 * The command line cannot be run as written (exit code 2). The message says
 * what to do instead; `main` adds a pointer to the command's `--help`.
 *
 * @example
 * ```ts
 * throw new UsageError('pack needs --cert <file>: the Pass Type ID certificate (PEM or DER)');
 * ```
 */
export class UsageError extends Error {
  override name = 'UsageError';
}
