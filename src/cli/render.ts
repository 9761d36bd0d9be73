import {
  buildPass,
  PassmintError,
  PassValidationError,
  pointerToken,
  renderTemplate,
  validatePass,
  type Issue,
  type PassIssuer,
  type PassTemplate,
  type TemplateValues,
} from '../index.js';
import { flag, parseCommandLine, stringOption } from './args.js';
import type { Command } from './command.js';
import { writeOutput } from './files.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { formatIssue, locateIssue, readJsonSource, type JsonSource, type LocatedIssue } from './json-source.js';
import { isTemplate } from './lint.js';
import { UsageError } from './usage-error.js';

const USAGE = `Usage: passmint render <template.json> --values <values.json> [issuer] [-o pass.json]

Renders a template with values and prints the JSON. With issuer information it
builds a whole pass.json (buildPass: serialNumber, teamIdentifier … added,
colors written as rgb(), checked with Apple's rules); without, it prints the
rendered pass body (renderTemplate).

Issuer (either a file, or options; options override the file's members):
  --issuer FILE            JSON: {"teamIdentifier", "organizationName", "webServiceURL"?,
                           "serialNumber"?, "authenticationToken"?, "description"?}
  --team ID                teamIdentifier
  --org NAME               organizationName
  --web-service-url URL    webServiceURL (an authenticationToken is generated unless --token)
  --serial TEXT            serialNumber (default: a random UUID)
  --token TEXT             authenticationToken (at least 16 characters)
  --pass-description TEXT  the pass's description text (default: the template's name)

Options:
  -o, --out FILE   write the JSON to FILE instead of printing it
  --strict         a value for a name the template does not declare is an error
  --allow-http     accept an http:// webServiceURL (development servers), with a warning
  -h, --help       this text

Problems are printed as file:line:column: severity code message, pointing
into the template, the values or the issuer file.

Exit codes: 0 rendered; 1 the template, values or pass have errors; 2 usage error.

Example:
  passmint render template.json --values values.json --team A93A5CM278 --org "Example Events" -o pass.json
`;

/** `passmint render`: renderTemplate, or buildPass when issuer information is given. */
export const render: Command = {
  name: 'render',
  summary: 'Render a template with values into a pass body or a whole pass.json',
  usage: USAGE,
  run: runRender,
};

const ISSUER_OPTIONS = {
  team: 'teamIdentifier',
  org: 'organizationName',
  'web-service-url': 'webServiceURL',
  serial: 'serialNumber',
  token: 'authenticationToken',
  'pass-description': 'description',
} as const;

// The pass-level keys buildPass writes, and where the CLI took each from.
const FROM_TEMPLATE: Readonly<Record<string, string>> = { passTypeIdentifier: '/passType', formatVersion: '/formatVersion' };

async function runRender(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseCommandLine(args, {
    values: { type: 'string' },
    issuer: { type: 'string' },
    team: { type: 'string' },
    org: { type: 'string' },
    'web-service-url': { type: 'string' },
    serial: { type: 'string' },
    token: { type: 'string' },
    'pass-description': { type: 'string' },
    out: { type: 'string', short: 'o' },
    strict: { type: 'boolean' },
    'allow-http': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  const [templateFile, ...extra] = parsed.positionals;
  if (templateFile === undefined) throw new UsageError('name the template file to render');
  if (extra.length > 0) throw new UsageError(`one template at a time (also given: ${extra.join(' ')})`);
  const valuesFile = stringOption(parsed, 'values');
  if (valuesFile === undefined) throw new UsageError('give the values with --values <values.json> (an object: placeholder name → value)');

  const template = readJsonSource(io, templateFile, 'the template');
  const values = readJsonSource(io, valuesFile, 'the values');
  const issuerFile = stringOption(parsed, 'issuer');
  const issuerSource = issuerFile === undefined ? undefined : readJsonSource(io, issuerFile, 'the issuer file');
  // Syntax errors stop here; duplicate keys (warnings) are shown and rendering goes on.
  const syntax = [template, values, ...(issuerSource === undefined ? [] : [issuerSource])].flatMap((source) =>
    source.json.issues.map((issue) => locateIssue(source, issue)),
  );
  if (syntax.some((issue) => issue.severity === 'error')) return fail(io, syntax);
  for (const issue of syntax) io.stderr(`${formatIssue(issue)}\n`);
  if (!isTemplate(template.json.value)) {
    io.stderr(`${templateFile}: not a template (it has no "placeholder" or "passType"); to check a pass.json, run \`passmint lint ${templateFile}\`\n`);
    return EXIT_FAILED;
  }

  const valuesValue = values.json.value;
  if (typeof valuesValue !== 'object' || valuesValue === null || Array.isArray(valuesValue)) {
    // Otherwise an array's indices would stand in for names, and every placeholder would read as missing.
    io.stderr(`${values.file}:1:1: error invalid-values the values file must hold a JSON object: { "placeholder name": value, … }\n`);
    return EXIT_FAILED;
  }

  const fromOptions: Record<string, string> = {};
  for (const [option, key] of Object.entries(ISSUER_OPTIONS)) {
    const value = stringOption(parsed, option);
    if (value !== undefined) fromOptions[key] = value;
  }
  const issuerValue = issuerSource?.json.value;
  if (issuerSource !== undefined && (typeof issuerValue !== 'object' || issuerValue === null || Array.isArray(issuerValue))) {
    io.stderr(`${issuerSource.file}:1:1: error invalid-issuer the issuer file must hold a JSON object\n`);
    return EXIT_FAILED;
  }
  const issuer = issuerSource === undefined && Object.keys(fromOptions).length === 0 ? undefined : { ...(issuerValue as object | undefined), ...fromOptions };
  if (issuer !== undefined && (!('teamIdentifier' in issuer) || !('organizationName' in issuer))) {
    throw new UsageError('a whole pass needs both a team identifier and an organization name: --team ID --org NAME (or both in --issuer FILE)');
  }

  const allowHttp = flag(parsed, 'allow-http');
  const strict = flag(parsed, 'strict');
  let output: unknown;
  try {
    output =
      issuer === undefined
        ? renderTemplate(template.json.value as PassTemplate, values.json.value as TemplateValues, { strict })
        : buildPass(template.json.value as PassTemplate, values.json.value as TemplateValues, issuer as unknown as PassIssuer, { strict, allowHttp });
  } catch (error) {
    if (!(error instanceof PassmintError)) throw error;
    // A PassValidationError's paths are the pass's; the others' are the template's.
    const kind = error instanceof PassValidationError ? 'pass' : 'template';
    return fail(
      io,
      error.issues.map((issue) => place(issue, kind, { template, values, issuerSource, fromOptions })),
    );
  }

  // Warnings do not stop a pass; show them where a person will see them.
  if (issuer !== undefined) {
    const warnings = validatePass(output, { allowHttp }).issues.filter((issue) => issue.severity === 'warning');
    for (const issue of warnings) io.stderr(`${formatIssue(place(issue, 'pass', { template, values, issuerSource, fromOptions }))}\n`);
  }
  const json = `${JSON.stringify(output, null, 2)}\n`;
  const out = stringOption(parsed, 'out');
  if (out === undefined) io.stdout(json);
  else {
    writeOutput(io, out, json);
    // stdout is free when the JSON goes to a file: say where it went, as pack does.
    io.stdout(`Wrote ${out}\n`);
  }
  return EXIT_OK;
}

function fail(io: CliIo, issues: readonly LocatedIssue[]): ExitCode {
  for (const issue of issues) io.stderr(`${formatIssue(issue)}\n`);
  return EXIT_FAILED;
}

interface Sources {
  readonly template: JsonSource;
  readonly values: JsonSource;
  readonly issuerSource: JsonSource | undefined;
  readonly fromOptions: Readonly<Record<string, string>>;
}

/**
 * The file a render issue belongs in. Template problems and body rules are
 * the template's (a pass body path is the template's `/description` path);
 * a bad or unknown value is the values file's; pass-level keys come from the
 * issuer file, an option, or the template's `passType` / `formatVersion`.
 */
function place(issue: Issue, kind: 'template' | 'pass', sources: Sources): LocatedIssue {
  const { template, values, issuerSource, fromOptions } = sources;
  if (issue.code === 'unknown-value' || issue.code === 'invalid-value') {
    const name = issue.placeholder;
    return locateIssue(values, issue, name === undefined ? '' : `/${pointerToken(name)}`);
  }
  if (kind === 'template') return locateIssue(template, issue);
  const key = /^\/([^/]*)/.exec(issue.path)?.[1] ?? '';
  const option = Object.entries(ISSUER_OPTIONS).find(([, member]) => member === key)?.[0];
  if (option !== undefined && key in fromOptions) return { ...issue, file: `--${option}`, line: 1, column: 1 };
  if (issuerSource !== undefined && option !== undefined) return locateIssue(issuerSource, issue);
  const templatePath = FROM_TEMPLATE[key];
  if (templatePath !== undefined) return locateIssue(template, issue, templatePath);
  if (key === 'description') return locateIssue(template, issue, '/name');
  // Anything else in a pass came from the body: the template's description.
  return locateIssue(template, issue, issue.path === '' ? '' : `/description${issue.path}`);
}
