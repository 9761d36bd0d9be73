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
  /** The (sub)command whose usage was wrong, as typed after `passmint` (`serve keys`); default the command run. */
  readonly command: string | undefined;

  constructor(message: string, options: { readonly command?: string | undefined } = {}) {
    super(message);
    this.command = options.command;
  }
}
