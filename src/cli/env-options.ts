import { parseCommandLine, type OptionTable, type ParsedCommandLine } from './args.js';
import type { CliIo } from './io.js';
import { UsageError } from './usage-error.js';

/**
 * The environment variable of an option: `PASSMINT_` and its name in
 * capitals, `-` as `_` (`--public-url` → `PASSMINT_PUBLIC_URL`).
 *
 * @example
 * ```ts
 * environmentName('lease-ms'); // 'PASSMINT_LEASE_MS'
 * ```
 */
export function environmentName(option: string): string {
  return `PASSMINT_${option.toUpperCase().replace(/-/g, '_')}`;
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['', '0', 'false', 'no', 'off']);

/**
 * Parses a command line, then takes every option it does not give from the
 * option's environment variable ({@link environmentName}): the command line
 * wins. A boolean variable is `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`/empty.
 * `help` is never read from the environment.
 *
 * @example
 * ```ts
 * // PASSMINT_PORT=9000 passmint serve
 * const parsed = parseWithEnvironment([], { port: { type: 'string' } }, { PASSMINT_PORT: '9000' });
 * ```
 */
export function parseWithEnvironment(args: readonly string[], options: OptionTable, env: CliIo['env']): ParsedCommandLine {
  const parsed = parseCommandLine(args, options);
  const values: Record<string, string | boolean | (string | boolean)[] | undefined> = { ...parsed.values };
  for (const [name, option] of Object.entries(options)) {
    if (name === 'help' || values[name] !== undefined) continue;
    const variable = environmentName(name);
    const text = env[variable];
    if (text === undefined) continue;
    if (option.type === 'boolean') {
      const lower = text.trim().toLowerCase();
      if (TRUE.has(lower)) values[name] = true;
      else if (!FALSE.has(lower)) throw new UsageError(`${variable} is 1 or 0 (true or false), not "${text}"`);
    } else if (text !== '') {
      values[name] = option.multiple === true ? [text] : text;
    }
  }
  return { values, positionals: parsed.positionals };
}

/**
 * The help lines that name each option's environment variable.
 *
 * @example
 * ```ts
 * environmentHelp({ port: { type: 'string' } }); // '  PASSMINT_PORT  --port\n'
 * ```
 */
export function environmentHelp(options: OptionTable): string {
  const names = Object.keys(options).filter((name) => name !== 'help');
  const width = Math.max(...names.map((name) => environmentName(name).length));
  return names.map((name) => `  ${environmentName(name).padEnd(width)}  --${name}\n`).join('');
}
