// What the certificate and secret tests share: a second pass type (another team) from the test PKI, its .p12
// made by openssl, a template and pass of a pass type, and the signer of a downloaded .pkpass as openssl reads it.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readPass } from '../../src/pkpass/read.js';
import { png } from '../pkpass/helpers.js';
import { makePki, type Pki } from '../pkpass/pki.js';
import type { Service } from './harness.js';

const exec = promisify(execFile);

export const FIRST_TYPE = 'pass.com.example.test';
export const FIRST_TEAM = 'A93A5CM278';
export const SECOND_TYPE = 'pass.com.example.second';
export const SECOND_TEAM = 'B1B2C3D4E5';
export const subjectOf = (passType: string, team: string): string => `/UID=${passType}/CN=Pass Type ID: ${passType}/OU=${team}/O=Example/C=US`;

/** A Pass Type ID certificate shaped like Apple's (pass-signing and TLS client usages: it signs passes and APNs takes it), its own key. */
export interface PassIdentity {
  readonly passTypeIdentifier: string;
  readonly teamIdentifier: string;
  readonly certPem: string;
  readonly certPath: string;
  readonly keyPem: string;
  readonly keyPath: string;
  readonly notAfter: Date;
  /** The test PKI it chains to (its WWDR issued it). */
  readonly pki: Pki;
}

const EXTENSIONS = `[ apple_pass ]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = clientAuth, 1.2.840.113635.100.4.14
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;

const stamp = (date: Date): string => `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
let issued = 0;

/** Issues a Pass Type ID certificate from the test PKI's WWDR (openssl ca), with a new RSA key; valid a year unless `notAfter` says. */
export async function issuePass(passTypeIdentifier: string, teamIdentifier: string, options: { readonly notAfter?: Date } = {}): Promise<PassIdentity> {
  const pki = await makePki();
  const work = join(pki.dir, `identity-${process.pid}-${++issued}`);
  mkdirSync(work);
  writeFileSync(join(work, 'index.txt'), '');
  writeFileSync(join(work, 'ext.cnf'), EXTENSIONS);
  const notAfter = new Date(Math.floor((options.notAfter?.getTime() ?? Date.now() + 365 * 86_400_000) / 1000) * 1000);
  const run = (args: readonly string[]) => exec('openssl', [...args], { cwd: work });
  await run([
    'req',
    '-new',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'key.pem',
    '-subj',
    subjectOf(passTypeIdentifier, teamIdentifier),
    '-out',
    'request.csr',
  ]);
  await run([
    'ca',
    '-batch',
    '-config',
    join(pki.dir, 'ca.cnf'),
    '-cert',
    pki.wwdrPath,
    '-keyfile',
    join(pki.dir, 'wwdr.key'),
    '-in',
    'request.csr',
    '-out',
    'certificate.pem',
    '-startdate',
    stamp(new Date(Date.now() - 86_400_000)),
    '-enddate',
    stamp(notAfter),
    '-extfile',
    'ext.cnf',
    '-extensions',
    'apple_pass',
    '-preserveDN',
    '-rand_serial',
    '-notext',
  ]);
  return {
    passTypeIdentifier,
    teamIdentifier,
    certPem: readFileSync(join(work, 'certificate.pem'), 'utf8'),
    certPath: join(work, 'certificate.pem'),
    keyPem: readFileSync(join(work, 'key.pem'), 'utf8'),
    keyPath: join(work, 'key.pem'),
    notAfter,
    pki,
  };
}

/** The identity as a .p12 (OpenSSL 3's default: AES, PBKDF2), base64, with the WWDR inside. */
export async function p12Of(identity: PassIdentity, password: string): Promise<string> {
  const out = `${identity.certPath}.p12`;
  await exec('openssl', [
    'pkcs12',
    '-export',
    '-in',
    identity.certPath,
    '-inkey',
    identity.keyPath,
    '-certfile',
    identity.pki.wwdrPath,
    '-passout',
    `pass:${password}`,
    '-out',
    out,
  ]);
  return readFileSync(out).toString('base64');
}

/** A template of `passType` with its icon; its id. */
export async function templateOf(service: Service, passType: string): Promise<{ id: number; warnings?: { code: string }[] }> {
  const created = await service.call('POST', '/v1/templates', {
    name: `Card ${passType}`,
    formatVersion: 1,
    passType,
    description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
    placeholder: ['n'],
  });
  if (created.status !== 201) throw new Error(`template: ${created.status} ${JSON.stringify(created.body)}`);
  await service.call('PUT', `/v1/templates/${created.body.id}/files/icon.png`, png(29, 29));
  return created.body;
}

/**
 * The subject of the certificate that signed a .pkpass, as `openssl cms -verify` reads it (the signature
 * checked against the PKI's root), or the verification's error.
 */
export async function signerSubject(pkpass: Uint8Array, identity: PassIdentity): Promise<string> {
  const pki = identity.pki;
  const bundle = await readPass(pkpass);
  const dir = mkdtempSync(join(pki.dir, 'verify-'));
  writeFileSync(join(dir, 'signature'), bundle.signature!);
  writeFileSync(join(dir, 'manifest'), bundle.manifestBytes!);
  await exec(
    'openssl',
    [
      'cms',
      '-verify',
      '-binary',
      '-inform',
      'DER',
      '-in',
      'signature',
      '-content',
      'manifest',
      '-CAfile',
      pki.rootPath,
      '-purpose',
      'any',
      '-signer',
      'signer.pem',
      '-out',
      '/dev/null',
    ],
    { cwd: dir },
  );
  const { stdout } = await exec('openssl', ['x509', '-in', 'signer.pem', '-noout', '-subject', '-enddate', '-nameopt', 'compat'], { cwd: dir });
  return stdout.trim();
}

/** What {@link signerSubject} prints for the identity's own certificate. */
export async function subjectLine(identity: PassIdentity): Promise<string> {
  const { stdout } = await exec('openssl', ['x509', '-in', identity.certPath, '-noout', '-subject', '-enddate', '-nameopt', 'compat']);
  return stdout.trim();
}
