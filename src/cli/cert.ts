import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { flag, parseCommandLine, stringOption } from './args.js';
import { writeDevIdentity } from './cert-dev.js';
import { certificateInfo, formatDate, type CertificateInfo } from './certificate-info.js';
import type { Command } from './command.js';
import { readInput, resolvePath, writeOutput } from './files.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { PASSPHRASE_HELP, PASSPHRASE_OPTIONS, readPassphrase } from './passphrase-option.js';
import { Pkcs12Error } from './pkcs12/pkcs12-error.js';
import { readPkcs12, type Pkcs12Contents } from './pkcs12/read-pkcs12.js';
import { UsageError } from './usage-error.js';

const USAGE = `Usage: passmint cert <file.p12> [--passphrase-env VAR | --passphrase-file FILE] [-o DIR] [--force]
       passmint cert --dev <pass type identifier> [--team ID] [-o DIR] [--force]

Turns the .p12 that Keychain Access exports (certificate + private key) into the
two PEM files \`passmint pack\` takes:
  certificate.pem  the Pass Type ID certificate
  key.pem          its private key, PKCS #8, unencrypted, readable by you only (mode 0600)
Reads every encryption Keychain and OpenSSL write, including the legacy
RC2-40/3DES that OpenSSL 3 refuses without -legacy. Prints the certificate's
pass type identifier (UID), team identifier (OU) and expiry.

With --dev, makes a development identity instead, to try signing without an
Apple account: certificate.pem and key.pem (a Pass Type ID certificate shaped
like Apple's: UID = the pass type, OU = the team), wwdr.pem (a stand-in for
Apple's WWDR intermediate) and root.pem (the stand-in root, for verify --root).
Every subject says "passmint development identity - not accepted by iPhones":
Wallet on an iPhone refuses passes it signs.

Options:
${PASSPHRASE_HELP}
                          (neither: the .p12 is opened with an empty passphrase)
  -o, --out DIR           write the files into DIR (default: the current folder)
      --force             overwrite the files if they exist
      --dev               make a development identity for the pass type given (see above)
      --team ID           with --dev: the team identifier, ten upper-case letters and digits (default DEVTEAM123)
  -h, --help              this text

Exit codes: 0 written; 1 the .p12 cannot be opened (wrong passphrase, damaged,
no key); 2 usage error.

Examples:
  P12_PASSPHRASE=… passmint cert Certificates.p12 --passphrase-env P12_PASSPHRASE -o keys/
  passmint cert --dev pass.com.example.event -o keys/
`;

/** `passmint cert`: certificate.pem and key.pem out of a Keychain .p12. */
export const cert: Command = {
  name: 'cert',
  summary: 'Extract certificate.pem and key.pem from a Keychain .p12 export, or make a development identity (--dev)',
  usage: USAGE,
  run: runCert,
};

async function runCert(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseCommandLine(args, {
    ...PASSPHRASE_OPTIONS,
    out: { type: 'string', short: 'o' },
    force: { type: 'boolean' },
    dev: { type: 'boolean' },
    team: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  const [file, ...extra] = parsed.positionals;
  if (flag(parsed, 'dev')) {
    if (extra.length > 0) throw new UsageError(`one pass type identifier at a time (also given: ${extra.join(' ')})`);
    for (const option of ['passphrase-env', 'passphrase-file'] as const) {
      if (stringOption(parsed, option) !== undefined) throw new UsageError(`--${option} opens a .p12; --dev makes a new identity and takes none`);
    }
    return writeDevIdentity(
      { passTypeIdentifier: file, teamIdentifier: stringOption(parsed, 'team'), outDir: stringOption(parsed, 'out') ?? '.', force: flag(parsed, 'force') },
      io,
    );
  }
  if (stringOption(parsed, 'team') !== undefined) throw new UsageError('--team goes with --dev (a .p12 certificate carries its own team)');
  if (file === undefined) throw new UsageError('name the .p12 file to read');
  if (extra.length > 0) throw new UsageError(`one .p12 at a time (also given: ${extra.join(' ')})`);
  const passphrase = readPassphrase(parsed, io) ?? '';
  const outDir = stringOption(parsed, 'out') ?? '.';
  const certificatePath = join(outDir, 'certificate.pem');
  const keyPath = join(outDir, 'key.pem');
  if (!flag(parsed, 'force')) {
    for (const path of [certificatePath, keyPath]) {
      if (existsSync(resolvePath(io, path))) throw new UsageError(`${path} already exists; move it away, choose another folder with -o, or pass --force`);
    }
  }

  let contents: Pkcs12Contents;
  try {
    contents = readPkcs12(readInput(io, file, 'the .p12'), passphrase);
  } catch (error) {
    if (!(error instanceof Pkcs12Error)) throw error;
    io.stderr(`${file}: ${error.message}\n${adviceFor(error)}`);
    return EXIT_FAILED;
  }

  const pair = pairOf(contents);
  if (typeof pair === 'string') {
    io.stderr(`${file}: ${pair}\n`);
    return EXIT_FAILED;
  }
  const { certificate, key } = pair;
  try {
    mkdirSync(resolvePath(io, outDir), { recursive: true });
  } catch (error) {
    throw new UsageError(`cannot create ${outDir}: ${(error as Error).message}`);
  }
  writeOutput(io, certificatePath, certificate.toString());
  writeOutput(io, keyPath, key.export({ type: 'pkcs8', format: 'pem' }) as string, 0o600);

  const info = infoOf(certificate);
  const lines = [`Wrote ${certificatePath} (certificate) and ${keyPath} (private key, unencrypted PKCS #8, mode 0600).`];
  if (info === undefined) {
    lines.push("Warning: passmint cannot read this certificate's names (createPassSigner will refuse it too).");
  } else {
    lines.push(
      `  certificate:          ${info.commonName ?? '(no common name)'}`,
      `  pass type identifier: ${info.passTypeIdentifier ?? '(none: the subject has no UID)'}`,
      `  team identifier:      ${info.teamIdentifier ?? '(none: the subject has no OU)'}`,
      `  valid until:          ${formatDate(info.notAfter)}${info.notAfter.getTime() < Date.now() ? '  EXPIRED: make a new one in the Apple Developer portal' : ''}`,
    );
    if (info.passTypeIdentifier?.startsWith('pass.') !== true) {
      lines.push('Warning: this is not a Pass Type ID certificate (its subject UID is not a pass type identifier); Wallet refuses passes signed with it.');
    }
  }
  const others = contents.certificates.length - 1;
  if (others > 0)
    lines.push(`The .p12 also holds ${others} other certificate${others === 1 ? '' : 's'}, not written (pack needs only Apple's WWDR intermediate).`);
  lines.push(
    'Keep key.pem secret (do not commit it). Next:',
    `  passmint pack <folder> --cert ${certificatePath} --key ${keyPath} --wwdr AppleWWDRCAG4.cer`,
    '  (Apple WWDR G4 intermediate: https://www.apple.com/certificateauthority/)',
  );
  io.stdout(`${lines.join('\n')}\n`);
  return EXIT_OK;
}

function adviceFor(error: Pkcs12Error): string {
  switch (error.code) {
    case 'wrong-passphrase':
      return 'Give the passphrase chosen when exporting from Keychain, with --passphrase-env VAR or --passphrase-file FILE.\n';
    case 'invalid-pkcs12':
      return 'Export the certificate again from Keychain Access: select it with its private key, File > Export Items…, format "Personal Information Exchange (.p12)".\n';
    case 'unsupported':
      return '';
  }
}

/** The certificate and the key that belong together, or why there is none. */
function pairOf(contents: Pkcs12Contents): { certificate: X509Certificate; key: KeyObject } | string {
  if (contents.keys.length === 0) {
    return 'The .p12 holds no private key. In Keychain Access, expand the certificate, select it together with its private key and export both.';
  }
  let certificates: X509Certificate[];
  let keys: KeyObject[];
  try {
    certificates = contents.certificates.map((entry) => new X509Certificate(entry.der));
    keys = contents.keys.map((entry) => createPrivateKey({ key: Buffer.from(entry.pkcs8), format: 'der', type: 'pkcs8' }));
  } catch {
    return 'The .p12 opens, but a certificate or key inside it cannot be read: export it again from Keychain Access.';
  }
  const pairs: { certificate: X509Certificate; key: KeyObject }[] = [];
  for (const key of keys) {
    for (const certificate of certificates) if (certificate.checkPrivateKey(key)) pairs.push({ certificate, key });
  }
  if (pairs.length === 0) {
    return contents.certificates.length === 0
      ? 'The .p12 holds a private key but no certificate. Export the certificate with its key from Keychain Access.'
      : "The .p12's private key belongs to none of its certificates.";
  }
  // Several identities in one export: the Pass Type ID one is what is wanted.
  return pairs.find((pair) => infoOf(pair.certificate)?.passTypeIdentifier?.startsWith('pass.') === true) ?? (pairs[0] as (typeof pairs)[number]);
}

/** The certificate's names as the library reads them; `undefined` when it cannot. */
function infoOf(certificate: X509Certificate): CertificateInfo | undefined {
  try {
    return certificateInfo(new Uint8Array(certificate.raw));
  } catch {
    return undefined;
  }
}
