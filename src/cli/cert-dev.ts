import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createDevelopmentIdentity, DEVELOPMENT_TEAM_IDENTIFIER } from '../pkpass/index.js';
import { formatDate } from './certificate-info.js';
import { resolvePath, writeOutput } from './files.js';
import { EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { UsageError } from './usage-error.js';

/** What `passmint cert --dev` is given. */
export interface DevIdentityRequest {
  readonly passTypeIdentifier: string | undefined;
  readonly teamIdentifier: string | undefined;
  readonly outDir: string;
  readonly force: boolean;
}

/**
 * `passmint cert --dev <pass type>`: a development identity (stand-in root and
 * WWDR, a Pass Type ID certificate and its key) in four PEM files, made with
 * the library's own X.509 writer (no openssl needed), so a first pass can be
 * packed and verified without an Apple account.
 *
 * @example
 * ```ts
 * await writeDevIdentity({ passTypeIdentifier: 'pass.com.example.event', teamIdentifier: undefined, outDir: 'keys', force: false }, io);
 * ```
 */
export async function writeDevIdentity(request: DevIdentityRequest, io: CliIo): Promise<ExitCode> {
  const { passTypeIdentifier, outDir } = request;
  if (passTypeIdentifier === undefined) throw new UsageError('name the pass type identifier: passmint cert --dev pass.com.example.event');
  if (!/^pass\.[\x21-\x7e]+$/.test(passTypeIdentifier)) {
    throw new UsageError(`a pass type identifier starts with "pass." and holds no spaces (pass.com.example.event), not ${JSON.stringify(passTypeIdentifier)}`);
  }
  const teamIdentifier = request.teamIdentifier ?? DEVELOPMENT_TEAM_IDENTIFIER;
  if (!/^[A-Z0-9]{10}$/.test(teamIdentifier))
    throw new UsageError(`--team takes ten upper-case letters and digits, like Apple's team identifiers (A93A5CM278), not ${JSON.stringify(teamIdentifier)}`);
  const paths = { certificate: join(outDir, 'certificate.pem'), key: join(outDir, 'key.pem'), wwdr: join(outDir, 'wwdr.pem'), root: join(outDir, 'root.pem') };
  if (!request.force) {
    for (const path of Object.values(paths)) {
      if (existsSync(resolvePath(io, path))) throw new UsageError(`${path} already exists; move it away, choose another folder with -o, or pass --force`);
    }
  }
  try {
    mkdirSync(resolvePath(io, outDir), { recursive: true });
  } catch (error) {
    throw new UsageError(`cannot create ${outDir}: ${(error as Error).message}`);
  }

  const identity = await createDevelopmentIdentity({ passTypeIdentifier, teamIdentifier });
  writeOutput(io, paths.certificate, identity.certificate);
  writeOutput(io, paths.key, identity.privateKey, 0o600);
  writeOutput(io, paths.wwdr, identity.wwdr);
  writeOutput(io, paths.root, identity.root);

  const width = Math.max(...Object.values(paths).map((path) => path.length));
  const column = (path: string): string => path.padEnd(width);
  io.stdout(
    [
      `Wrote a development identity for ${passTypeIdentifier}, team ${teamIdentifier}: NOT ACCEPTED BY IPHONES.`,
      `  ${column(paths.certificate)}  the pass certificate (UID ${passTypeIdentifier}, OU ${teamIdentifier}), valid until ${formatDate(identity.notAfter)}`,
      `  ${column(paths.key)}  its private key (PKCS #8, unencrypted, mode 0600)`,
      `  ${column(paths.wwdr)}  a stand-in for Apple's WWDR intermediate`,
      `  ${column(paths.root)}  the stand-in root that issued it (for verify --root)`,
      "Use it to try passmint: pack, verify, the service. Wallet on an iPhone refuses what it signs (the root is not Apple's);",
      'ship passes signed with your Pass Type ID certificate from Apple instead (passmint cert Certificates.p12). Next:',
      `  passmint pack <folder> --cert ${paths.certificate} --key ${paths.key} --wwdr ${paths.wwdr}`,
      `  passmint verify <folder>.pkpass --root ${paths.root}`,
      '',
    ].join('\n'),
  );
  return EXIT_OK;
}
