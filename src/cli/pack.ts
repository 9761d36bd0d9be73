import { existsSync, statSync } from 'node:fs';
import type { Issue } from '../index.js';
import { createPassSigner, PackError, packPass, SignerError, type PassSigner } from '../pkpass/index.js';
import { flag, parseCommandLine, stringOption } from './args.js';
import { formatDate } from './certificate-info.js';
import type { Command } from './command.js';
import { readInput, resolvePath, writeOutput } from './files.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { countIssues, formatIssue, locateIssue, readJsonSource, type JsonSource } from './json-source.js';
import { readPassFolder } from './pass-folder.js';
import { PASSPHRASE_HELP, PASSPHRASE_OPTIONS, readPassphrase } from './passphrase-option.js';
import { UsageError } from './usage-error.js';

const USAGE = `Usage: passmint pack <folder> --cert <file> --key <file> --wwdr <file> [options]

Signs a pass folder into a .pkpass, like Apple's \`signpass -p\`. The folder
holds pass.json, the images (icon.png is required) and xx.lproj/ folders.
Dotfiles (.DS_Store) are ignored; symbolic links are refused. Everything Wallet
would refuse is checked before signing: the pass (Apple's rules), its
passTypeIdentifier/teamIdentifier against the certificate, certificate dates,
the images.

Options:
  --cert FILE             the Pass Type ID certificate, PEM or DER (see \`passmint cert\`)
  --key FILE              its private key, PEM (PKCS #8 or PKCS #1; encrypted needs a passphrase)
  --wwdr FILE             Apple's WWDR intermediate certificate (G4), PEM or DER
${PASSPHRASE_HELP}
  -o, --out FILE          where to write (default: <folder>.pkpass beside the folder)
  --digest sha256|sha1    the signature's digest (default sha256; sha1 is signpass's)
  --allow-http            accept an http:// webServiceURL (development devices only)
  -h, --help              this text

Exit codes: 0 written; 1 the pass, the files or the certificates have errors
(nothing written); 2 usage error.

Example:
  passmint pack event.pass --cert certificate.pem --key key.pem --wwdr AppleWWDRCAG4.cer -o event.pkpass
`;

/** `passmint pack`: a pass folder → a signed .pkpass. */
export const pack: Command = {
  name: 'pack',
  summary: 'Sign a pass folder into a .pkpass (like signpass -p)',
  usage: USAGE,
  run: runPack,
};

async function runPack(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseCommandLine(args, {
    cert: { type: 'string' },
    key: { type: 'string' },
    wwdr: { type: 'string' },
    ...PASSPHRASE_OPTIONS,
    out: { type: 'string', short: 'o' },
    digest: { type: 'string' },
    'allow-http': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  const [folder, ...extra] = parsed.positionals;
  if (folder === undefined) throw new UsageError('name the pass folder to pack (it holds pass.json and icon.png)');
  if (extra.length > 0) throw new UsageError(`one folder at a time (also given: ${extra.join(' ')})`);
  const certFile = stringOption(parsed, 'cert');
  const keyFile = stringOption(parsed, 'key');
  const wwdrFile = stringOption(parsed, 'wwdr');
  if (certFile === undefined) throw new UsageError('give the Pass Type ID certificate with --cert <file> (PEM or DER; `passmint cert` makes one from a .p12)');
  if (keyFile === undefined) throw new UsageError('give its private key with --key <file> (PEM; `passmint cert` makes one from a .p12)');
  if (wwdrFile === undefined)
    throw new UsageError("give Apple's WWDR intermediate with --wwdr <file> (AppleWWDRCAG4.cer from https://www.apple.com/certificateauthority/)");
  const digest = stringOption(parsed, 'digest') ?? 'sha256';
  if (digest !== 'sha256' && digest !== 'sha1') throw new UsageError(`--digest is sha256 or sha1, not "${digest}"`);
  if (!isDirectory(resolvePath(io, folder))) throw new UsageError(`${folder} is not a folder; pack takes a folder holding pass.json and the images`);

  const passFile = `${folder.replace(/\/+$/, '')}/pass.json`;
  if (!existsSync(resolvePath(io, passFile))) {
    io.stderr(`${passFile}: error missing-pass-json the folder has no pass.json (\`passmint render … -o ${passFile}\` makes one from a template)\n`);
    return EXIT_FAILED;
  }
  const passSource = readJsonSource(io, passFile, 'pass.json');
  const content = readPassFolder(resolvePath(io, folder));
  const certificate = keyMaterial(readInput(io, certFile, 'the certificate'));
  const privateKey = keyMaterial(readInput(io, keyFile, 'the private key'));
  const wwdr = keyMaterial(readInput(io, wwdrFile, 'the WWDR certificate'));
  const passphrase = readPassphrase(parsed, io);

  for (const note of content.skipped) io.stderr(`${folder}/${note}\n`);
  if (content.refused.length > 0) {
    for (const path of content.refused)
      io.stderr(`${folder}/${path}: error symbolic-link symbolic links are refused (Wallet rejects a pass holding one); copy the file in instead\n`);
    return EXIT_FAILED;
  }
  // pass.json's own text: a syntax error stops here, a duplicate key is a warning shown with the others.
  for (const issue of passSource.json.issues) io.stderr(`${formatIssue(locateIssue(passSource, issue))}\n`);
  if (passSource.json.issues.some((issue) => issue.severity === 'error')) return EXIT_FAILED;

  let signer: PassSigner;
  try {
    signer = await createPassSigner({ certificate, privateKey, wwdr, ...(passphrase === undefined ? {} : { passphrase }) });
  } catch (error) {
    if (!(error instanceof SignerError)) throw error;
    const files: Readonly<Record<string, string>> = { '/certificate': certFile, '/privateKey': keyFile, '/wwdr': wwdrFile };
    for (const issue of error.issues) io.stderr(`${files[issue.path] ?? (issue.path || 'signer')}: ${issue.severity} ${issue.code} ${issue.message}\n`);
    if (error.issues.some((issue) => issue.code === 'wrong-passphrase'))
      io.stderr("Give the key's passphrase with --passphrase-env VAR or --passphrase-file FILE.\n");
    if (typeof certificate === 'string' && certificate.includes('PRIVATE KEY-----'))
      io.stderr(`${certFile} holds a private key: are --cert and --key swapped?\n`);
    return EXIT_FAILED;
  }

  const report = (issues: readonly Issue[]): void => {
    for (const issue of issues) io.stderr(`${bundleIssue(folder, passSource, issue)}\n`);
  };
  let bytes: Uint8Array;
  try {
    bytes = await packPass(passSource.json.value, content.files, signer, {
      digest,
      allowHttp: flag(parsed, 'allow-http'),
      onWarnings: report,
    });
  } catch (error) {
    if (!(error instanceof PackError)) throw error;
    report(error.issues);
    io.stderr(`Not packed: ${countIssues(error.issues)}.\n`);
    if (error.issues.some((issue) => issue.code === 'identity-mismatch')) {
      io.stderr(
        `This certificate signs ${signer.passTypeIdentifier} passes of team ${signer.teamIdentifier}: put those in pass.json, ` +
          "or sign with the certificate of the pass's own pass type (`passmint cert` extracts it from its .p12).\n",
      );
    }
    return EXIT_FAILED;
  }
  const out = stringOption(parsed, 'out') ?? `${folder.replace(/\/+$/, '')}.pkpass`;
  writeOutput(io, out, bytes);
  io.stdout(
    `Wrote ${out} (${bytes.length} bytes, ${content.files.size + 1} files + manifest + signature, ${digest}).\n` +
      `  signed as ${signer.passTypeIdentifier} (team ${signer.teamIdentifier}); certificate valid until ${formatDate(signer.notAfter)}, WWDR until ${formatDate(signer.wwdrNotAfter)}\n`,
  );
  return EXIT_OK;
}

/** PEM stays text (the signer reads PEM from strings); anything else is DER bytes. */
function keyMaterial(bytes: Uint8Array): string | Uint8Array {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  return text.includes('-----BEGIN') ? new TextDecoder().decode(bytes) : bytes;
}

/**
 * One pack issue as a line: inside pass.json at its line and column, otherwise
 * at the bundle file (`folder/icon.png`).
 */
function bundleIssue(folder: string, passSource: JsonSource, issue: Issue): string {
  if (issue.path === '/pass.json' || issue.path.startsWith('/pass.json/')) {
    return formatIssue(locateIssue(passSource, issue, issue.path.slice('/pass.json'.length), issue.offset));
  }
  const file = issue.path === '' ? folder : `${folder.replace(/\/+$/, '')}${issue.path.replace(/~1/g, '/').replace(/~0/g, '~')}`;
  return `${file}: ${issue.severity} ${issue.code} ${issue.message}`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
