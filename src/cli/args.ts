import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

/** The option table of one command, as `util.parseArgs` takes it. */
export type OptionTable = NonNullable<ParseArgsConfig['options']>;

/** What {@link parseCommandLine} found: option values by name, and the other words in order. */
export interface ParsedCommandLine {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
}

/**
 * `util.parseArgs` in strict mode, with its errors turned into {@link UsageError}s
 * that name the option (`--helpp` is not a typo the user should have to guess).
 *
 * @example
 * ```ts
 * parseCommandLine(['a.json', '--json'], { json: { type: 'boolean' } });
 * // { values: { json: true }, positionals: ['a.json'] }
 * ```
 */
export function parseCommandLine(args: readonly string[], options: OptionTable): ParsedCommandLine {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
    return { values, positionals };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) throw new UsageError(cleanMessage((error as Error).message));
    throw error;
  }
}

// Node's messages end with advice for script authors ("To specify a positional
// argument starting with a '-', place it at the end of the command after '--'");
// keep the first sentence, which names the option.
function cleanMessage(message: string): string {
  const first = message.split('. ')[0] ?? message;
  return first.endsWith('.') ? first : `${first}.`;
}

/** The string value of an option, or `undefined`. */
export function stringOption(parsed: ParsedCommandLine, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** Every string given for a `multiple: true` option, in order. */
export function stringOptions(parsed: ParsedCommandLine, name: string): string[] {
  const value = parsed.values[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** Whether a boolean option was given. */
export function flag(parsed: ParsedCommandLine, name: string): boolean {
  return parsed.values[name] === true;
}
