import { stringOption, type OptionTable, type ParsedCommandLine } from './args.js';
import { readTextInput } from './files.js';
import type { CliIo } from './io.js';
import { UsageError } from './usage-error.js';

/** The options that supply a passphrase: never the passphrase itself, which would land in shell history and `ps`. */
export const PASSPHRASE_OPTIONS: OptionTable = {
  'passphrase-env': { type: 'string' },
  'passphrase-file': { type: 'string' },
};

/** Help lines for {@link PASSPHRASE_OPTIONS}. */
export const PASSPHRASE_HELP: string = [
  '  --passphrase-env VAR    read the passphrase from environment variable VAR',
  '  --passphrase-file FILE  read it from FILE (one trailing newline is dropped)',
].join('\n');

/**
 * The passphrase the command line points to, or `undefined` when none is given.
 *
 * @example
 * ```ts
 * // PASS_KEY_PASSPHRASE=… passmint pack pass/ --passphrase-env PASS_KEY_PASSPHRASE …
 * const passphrase = readPassphrase(parsed, io);
 * ```
 */
export function readPassphrase(parsed: ParsedCommandLine, io: CliIo): string | undefined {
  const variable = stringOption(parsed, 'passphrase-env');
  const file = stringOption(parsed, 'passphrase-file');
  if (variable !== undefined && file !== undefined) throw new UsageError('give --passphrase-env or --passphrase-file, not both');
  if (variable !== undefined) {
    const value = io.env[variable];
    if (value === undefined) throw new UsageError(`the environment variable ${variable} (from --passphrase-env) is not set; export it first`);
    return value;
  }
  if (file !== undefined) return readTextInput(io, file, 'the passphrase file').replace(/\r?\n$/, '');
  return undefined;
}
