// passmint export: a template's passes as CSV from a running service, streamed to stdout.
import { parseCommandLine, stringOption, flag } from './args.js';
import type { Command } from './command.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { UsageError } from './usage-error.js';

const USAGE = `Usage: passmint export --template ID [--values.NAME=VALUE …] [options] [> passes.csv]

Writes every pass of a template as CSV (RFC 4180) to stdout, read from a running
passmint serve (GET /v1/passes with Accept: text/csv): serialNumber, one column
per placeholder, version, updated, and the links. The service streams it; so
does the command, whatever the number of passes.

Options:
  --template ID            the template (required)
  --values.NAME=VALUE      only passes whose placeholder NAME is exactly VALUE (repeat: all must hold)
  --serial-number SERIAL   only the pass with this serial number
  --updated-since TIME     only passes made or changed since (ISO 8601, e.g. 2025-03-01T00:00:00Z)
  --escape-formulas        prefix an apostrophe to cells starting with = + - @ (for spreadsheets)
  --url URL                the service (default $PASSMINT_URL, else http://127.0.0.1:8080)
  --key KEY                an API key with the read scope (default $PASSMINT_API_KEY)
  -h, --help               this text

Exit codes: 0 written, 1 the service refused or could not be reached, 2 usage.
`;

/** `passmint export`: a template's passes as CSV, streamed from the service to stdout. */
export const exportCommand: Command = {
  name: 'export',
  summary: "Export a template's passes from a running service as CSV",
  usage: USAGE,
  run: runExport,
};

async function runExport(args: readonly string[], io: CliIo): Promise<ExitCode> {
  // --values.NAME=VALUE (or --values.NAME VALUE): names util.parseArgs cannot know in advance.
  const values: [string, string][] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const match = /^--values\.([^=]+)(?:=(.*))?$/s.exec(arg);
    if (match === null) {
      rest.push(arg);
      continue;
    }
    const value = match[2] ?? args[++i];
    if (value === undefined) throw new UsageError(`${arg} needs a value: --values.${match[1]}=VALUE.`);
    values.push([match[1]!, value]);
  }
  const parsed = parseCommandLine(rest, {
    template: { type: 'string' },
    'serial-number': { type: 'string' },
    'updated-since': { type: 'string' },
    'escape-formulas': { type: 'boolean' },
    url: { type: 'string' },
    key: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument "${parsed.positionals[0]}" (write the CSV with > file.csv).`);
  const template = stringOption(parsed, 'template');
  if (template === undefined || !/^[1-9]\d{0,9}$/.test(template)) throw new UsageError("--template ID is required (the template's id, a whole number).");
  const key = stringOption(parsed, 'key') ?? io.env['PASSMINT_API_KEY'];
  if (key === undefined || key === '') throw new UsageError('an API key is required: --key KEY or PASSMINT_API_KEY.');
  const base = stringOption(parsed, 'url') ?? io.env['PASSMINT_URL'] ?? 'http://127.0.0.1:8080';
  let url: URL;
  try {
    url = new URL('/v1/passes', base);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(base)} is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--url must be http or https.');
  url.searchParams.set('templateId', template);
  for (const [name, value] of values) url.searchParams.append(`values.${name}`, value);
  const serial = stringOption(parsed, 'serial-number');
  if (serial !== undefined) url.searchParams.set('serialNumber', serial);
  const since = stringOption(parsed, 'updated-since');
  if (since !== undefined) url.searchParams.set('updatedSince', since);
  if (flag(parsed, 'escape-formulas')) url.searchParams.set('escapeFormulas', 'true');

  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'text/csv', authorization: `Bearer ${key}` } });
  } catch (error) {
    io.stderr(`passmint export: cannot reach ${url.origin}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}\n`);
    return EXIT_FAILED;
  }
  if (!response.ok || response.body === null) {
    const text = await response.text();
    let detail = text;
    try {
      const problem = JSON.parse(text) as { code?: string; detail?: string };
      detail = `${problem.code ?? response.status}: ${problem.detail ?? ''}`;
    } catch {
      // Not a problem body: its text as it is.
    }
    io.stderr(`passmint export: the service answered ${response.status} (${detail.trim()})\n`);
    return EXIT_FAILED;
  }
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body) io.stdout(decoder.decode(chunk, { stream: true }));
    const tail = decoder.decode();
    if (tail !== '') io.stdout(tail);
  } catch (error) {
    io.stderr(`passmint export: the export was cut off: ${(error as Error).message}\n`);
    return EXIT_FAILED;
  }
  return EXIT_OK;
}
