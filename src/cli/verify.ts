import { verifyPass, type PassVerification } from '../pkpass/index.js';
import { flag, parseCommandLine, stringOption, stringOptions } from './args.js';
import { formatDate } from './certificate-info.js';
import type { Command } from './command.js';
import { readInput } from './files.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { cliMessage, countIssues } from './json-source.js';
import { UsageError } from './usage-error.js';

const USAGE = `Usage: passmint verify <file.pkpass> [--root <file>]... [--at <date>] [--allow-http] [--json]

Checks a .pkpass the way Wallet does, like Apple's \`signpass -v\` and more: the
archive, the manifest and every hash, the signature over the manifest, the
certificates (signer and WWDR intermediate, in date, chained), the identifiers
against the certificate, icon.png and the images, pass.strings, and pass.json
through Apple's rules.

Options:
  --root FILE   a trusted root (PEM or DER; for real passes Apple Root CA, AppleIncRootCertificate.cer, which issued WWDR G4); the
                chain must end at one. Repeat for several. Without: checked up to the WWDR.
  --at DATE     judge the certificates as of this moment instead of now (ISO 8601, such
                as 2024-03-01 or 2024-03-01T12:00:00Z; "signing-time" = the package's own
                signing time): an old pass as it was when it was signed
  --allow-http  an http:// webServiceURL is a warning, not an error (passes from a
                development server, such as \`passmint serve\` on localhost)
  --json        print the report as JSON: {"file", "ok", "signingTime", "digest", "signer", "wwdr", "issues"}
  -h, --help    this text

Exit codes: 0 Wallet would accept it (warnings allowed); 1 it has errors; 2 usage error.

Example:
  passmint verify event.pkpass --root AppleIncRootCertificate.cer
`;

/** `passmint verify`: verifyPass with a readable summary. */
export const verify: Command = {
  name: 'verify',
  summary: 'Check a .pkpass as Wallet does (like signpass -v, plus pass.json rules)',
  usage: USAGE,
  run: runVerify,
};

async function runVerify(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseCommandLine(args, {
    root: { type: 'string', multiple: true },
    at: { type: 'string' },
    'allow-http': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined) throw new UsageError('name the .pkpass file to verify');
  if (extra.length > 0) throw new UsageError(`one .pkpass at a time (also given: ${extra.join(' ')})`);
  const bytes = readInput(io, file, 'the .pkpass');
  const roots = stringOptions(parsed, 'root').map((root) => {
    const content = readInput(io, root, 'the root certificate');
    return new TextDecoder('latin1').decode(content.subarray(0, 4096)).includes('-----BEGIN') ? new TextDecoder().decode(content) : content;
  });

  const allowHttp = flag(parsed, 'allow-http');
  const atText = stringOption(parsed, 'at');
  let at = atText === undefined || atText === 'signing-time' ? undefined : parseAt(atText);
  if (atText === 'signing-time') at = (await verifyPass(bytes, { allowHttp })).signingTime;
  const report = await verifyPass(bytes, { allowHttp, ...(roots.length === 0 ? {} : { roots }), ...(at === undefined ? {} : { at }) });
  if (flag(parsed, 'json')) {
    io.stdout(`${JSON.stringify({ file, ...report, ...(at === undefined ? {} : { at }) }, null, 2)}\n`);
  } else {
    io.stdout(summary(file, report, roots.length > 0, at));
  }
  return report.ok ? EXIT_OK : EXIT_FAILED;
}

/** An `--at` date: ISO 8601, a date alone meaning its midnight UTC. */
function parseAt(text: string): Date {
  const date = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(text) ? new Date(text) : undefined;
  if (date === undefined || Number.isNaN(date.getTime()))
    throw new UsageError(`--at takes an ISO 8601 date such as 2024-03-01 or 2024-03-01T12:00:00Z, or "signing-time" (got ${JSON.stringify(text)})`);
  return date;
}

function summary(file: string, report: PassVerification, withRoots: boolean, at: Date | undefined): string {
  const lines = [`${file}: ${report.ok ? 'valid' : 'INVALID'} (${countIssues(report.issues)})${at === undefined ? '' : ` as of ${formatDate(at)}`}`];
  const { signer, wwdr } = report;
  if (signer !== undefined) {
    lines.push(`  signed by:    ${signer.subject}`);
    lines.push(`  pass type:    ${signer.passTypeIdentifier ?? '(none)'}, team ${signer.teamIdentifier ?? '(none)'}`);
    lines.push(`  certificate:  valid ${formatDate(signer.notBefore)} to ${formatDate(signer.notAfter)}`);
  }
  if (wwdr !== undefined) lines.push(`  WWDR:         ${wwdr.subject}, valid until ${formatDate(wwdr.notAfter)}`);
  if (report.signingTime !== undefined)
    lines.push(`  signed at:    ${formatDate(report.signingTime)}${report.digest === undefined ? '' : ` (${report.digest})`}`);
  if (!withRoots) lines.push("  trust:        chain checked up to the WWDR only (give --root AppleIncRootCertificate.cer to check it to Apple's root)");
  for (const issue of report.issues) lines.push(`  ${issue.severity} ${issue.code} ${cliMessage(issue)}${issue.path === '' ? '' : ` (at ${issue.path})`}`);
  return `${lines.join('\n')}\n`;
}
