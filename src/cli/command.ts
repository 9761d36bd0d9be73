import type { CliIo, ExitCode } from './io.js';

/**
 * One `passmint <name>` command. `run` returns the exit code; it throws
 * `UsageError` for a command line it cannot run.
 *
 * @example
 * ```ts
 * const hello: Command = { name: 'hello', summary: 'Say hello', usage: 'passmint hello', run: async (_args, io) => { io.stdout('hello\n'); return 0; } };
 * ```
 */
export interface Command {
  readonly name: string;
  /** One line for `passmint --help`. */
  readonly summary: string;
  /** The full text of `passmint <name> --help`. */
  readonly usage: string;
  run(args: readonly string[], io: CliIo): Promise<ExitCode>;
}
