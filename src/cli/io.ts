/**
 * Where a command writes and what it may read of its environment. `main.ts`
 * passes the process's; tests pass their own and read what was written.
 *
 * @example
 * ```ts
 * const out: string[] = [];
 * const io: CliIo = { stdout: (text) => out.push(text), stderr: (text) => out.push(text), cwd: '/tmp', env: {} };
 * ```
 */
export interface CliIo {
  /** Receives text exactly as it is to appear (lines end with `\n`). */
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Relative paths on the command line are resolved against it. */
  readonly cwd: string;
  /** For `--passphrase-env`: a passphrase never appears on the command line. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The three exit codes every command uses. */
export const EXIT_OK = 0;
/** The command ran and what it checked has errors (or it could not do its job with these inputs). */
export const EXIT_FAILED = 1;
/** The command line is wrong: unknown command or option, missing argument, unreadable file. */
export const EXIT_USAGE = 2;

/** One of {@link EXIT_OK}, {@link EXIT_FAILED}, {@link EXIT_USAGE}. */
export type ExitCode = 0 | 1 | 2;
