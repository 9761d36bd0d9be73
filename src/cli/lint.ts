import { validatePass, validateTemplate, type Issue } from '../index.js';
import { flag, parseCommandLine } from './args.js';
import type { Command } from './command.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { countIssues, formatIssue, issueJson, locateIssue, readJsonSource, type LocatedIssue } from './json-source.js';
import { UsageError } from './usage-error.js';

const USAGE = `Usage: passmint lint <file.json>... [--strict] [--allow-http] [--json]

Checks pass templates and pass.json files. A file with a "placeholder" or a
"passType" member is a template (validateTemplate); anything else is a pass
(validatePass, Apple's rules). Prints one line per issue:
  file:line:column: severity code message

Options:
  --strict      warnings fail too (exit 1), for CI that keeps templates clean
  --allow-http  an http:// webServiceURL is a warning, not an error (development servers)
  --json        print {"ok", "files", "issues"} as JSON instead; each issue has file, line, column
  -h, --help    this text

Exit codes: 0 no errors (warnings allowed unless --strict); 1 errors found (or
warnings with --strict), including a file that is not JSON; 2 usage error
(no file given, a file that cannot be read).

Example:
  passmint lint templates/*.json
`;

/** `passmint lint`: validateTemplate / validatePass over files, with file:line:column. */
export const lint: Command = {
  name: 'lint',
  summary: 'Check templates and pass.json files (file:line:column issues)',
  usage: USAGE,
  run: runLint,
};

async function runLint(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseCommandLine(args, {
    strict: { type: 'boolean' },
    'allow-http': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (parsed.positionals.length === 0) throw new UsageError('name at least one template or pass.json file');
  const allowHttp = flag(parsed, 'allow-http');
  // Read everything first: an unreadable file is a usage error before any output.
  const sources = parsed.positionals.map((file) => readJsonSource(io, file, 'the file'));

  const files: { file: string; kind: 'template' | 'pass' | 'invalid'; ok: boolean }[] = [];
  const all: LocatedIssue[] = [];
  for (const source of sources) {
    const { value } = source.json;
    let kind: 'template' | 'pass' | 'invalid' = 'invalid';
    let issues: readonly Issue[] = source.json.issues;
    if ('value' in source.json) {
      kind = isTemplate(value) ? 'template' : 'pass';
      const report = kind === 'template' ? validateTemplate(value) : validatePass(value, { allowHttp });
      issues = [...issues, ...report.issues];
    }
    const located = issues.map((issue) => locateIssue(source, issue)).sort((a, b) => a.line - b.line || a.column - b.column);
    files.push({ file: source.file, kind, ok: !located.some((issue) => issue.severity === 'error') });
    for (const issue of located) all.push(issue);
  }

  const failing = all.some((issue) => issue.severity === 'error' || flag(parsed, 'strict'));
  if (flag(parsed, 'json')) {
    io.stdout(`${JSON.stringify({ ok: !failing, files, issues: all.map(issueJson) }, null, 2)}\n`);
  } else {
    for (const issue of all) io.stdout(`${formatIssue(issue)}\n`);
    const checked = `${files.length} file${files.length === 1 ? '' : 's'} checked`;
    io.stdout(
      `${all.length === 0 ? `${checked}: no issues` : `${checked}: ${countIssues(all)}`}${failing && !all.some((issue) => issue.severity === 'error') ? ' (--strict: warnings fail)' : ''}\n`,
    );
  }
  return failing ? EXIT_FAILED : EXIT_OK;
}

/** A template has the members only templates have; a pass has neither. */
export function isTemplate(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (Object.hasOwn(value, 'placeholder') || Object.hasOwn(value, 'passType'));
}
