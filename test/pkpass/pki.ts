// A throwaway PKI for the pkpass tests, made by the real `openssl` command in a
// temporary folder: a root CA, a "WWDR" intermediate it signed, and a Pass Type
// ID certificate the WWDR signed, shaped like Apple's. RSA keys are generated
// once per test run (2048-bit keygen is the slow part); certificates, per test
// process, and those for variants (expired, not yet valid, other subject, other
// WWDR) reuse them.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';
import { createPassSigner, type PassSigner } from '../../src/pkpass/signer.js';

const exec = promisify(execFile);

export const PASS_TYPE_IDENTIFIER = 'pass.com.example.test';
export const TEAM_IDENTIFIER = 'A93A5CM278';
export const PASSPHRASE = 'secret';
export const PASS_SUBJECT = `/UID=${PASS_TYPE_IDENTIFIER}/CN=Pass Type ID: ${PASS_TYPE_IDENTIFIER}/OU=${TEAM_IDENTIFIER}/O=Example/C=US`;
export const WWDR_SUBJECT = '/C=US/O=Example Test CA/OU=G4/CN=Test Worldwide Developer Relations Certification Authority';
export const ROOT_SUBJECT = '/C=US/O=Example Test CA/CN=Test Root CA';

const DAY = 86_400_000;

/** A certificate as PEM and DER, with the file openssl commands can read. */
export interface TestCertificate {
  readonly pem: string;
  readonly der: Uint8Array;
  readonly path: string;
}

/** The default PKI, or a variant of it (same keys, same root). */
export interface Pki {
  /** The temporary folder holding every file (removed when the test process exits). */
  readonly dir: string;
  readonly rootPem: string;
  readonly rootDer: Uint8Array;
  readonly rootPath: string;
  readonly wwdrPem: string;
  readonly wwdrDer: Uint8Array;
  readonly wwdrPath: string;
  /** The Pass Type ID certificate. */
  readonly certPem: string;
  readonly certDer: Uint8Array;
  readonly certPath: string;
  /** The certificate's private key: PKCS #8 PEM. */
  readonly keyPem: string;
  /** The same key as PKCS #8 DER. */
  readonly keyDer: Uint8Array;
  readonly keyPath: string;
  /** The same key as PKCS #1 PEM ("BEGIN RSA PRIVATE KEY"). */
  readonly keyPkcs1Pem: string;
  /** The same key as encrypted PKCS #8 (PBES2, PBKDF2-HMAC-SHA256, AES-256-CBC), passphrase `secret`. */
  readonly encryptedKeyPem: string;
  readonly passphrase: string;
  /** A second RSA key that belongs to no certificate here (for key-mismatch). */
  readonly otherKeyPem: string;
  /** A self-signed root that signed nothing here (for untrusted-chain). */
  readonly otherRootPem: string;
  readonly passTypeIdentifier: string;
  readonly teamIdentifier: string;
  readonly certNotBefore: Date;
  readonly certNotAfter: Date;
  readonly wwdrNotAfter: Date;
}

/** What a variant changes; everything else is the default PKI's. */
export interface PkiOptions {
  /** The pass certificate's subject, in `openssl -subj` form. */
  readonly subject?: string;
  readonly notBefore?: Date;
  readonly notAfter?: Date;
  /** Issue a new WWDR (same key, same subject unless given) with these dates. */
  readonly wwdrNotBefore?: Date;
  readonly wwdrNotAfter?: Date;
  readonly wwdrSubject?: string;
  /** Extensions section for the pass certificate (default `pass_ext`). */
  readonly extensions?: 'pass_ext' | 'no_key_usage_ext';
}

const CONFIG = `
[ ca ]
default_ca = issuer
[ issuer ]
database = index.txt
new_certs_dir = .
serial = serial.txt
default_md = sha256
policy = any
unique_subject = no
copy_extensions = none
email_in_dn = no
[ any ]
commonName = optional
[ ca_ext ]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ pass_ext ]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = 1.2.840.113635.100.4.14
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ no_key_usage_ext ]
basicConstraints = critical,CA:false
subjectKeyIdentifier = hash
`;

interface Keys {
  readonly dir: string;
  readonly root: string;
  readonly wwdr: string;
  readonly pass: string;
  readonly other: string;
}

let keys: Promise<Keys> | undefined;
const folders: string[] = [];

// Vitest workers do not always see a process 'exit'; remove the folder after
// the test file that made it, and start afresh if the module outlives the file.
afterAll(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  keys = undefined;
  base = undefined;
  defaultSigner = undefined;
  made.clear();
});
const made = new Map<string, Promise<Pki>>();
let counter = 0;

/** Runs openssl; rejects with its stderr on failure. */
export async function openssl(args: readonly string[], cwd?: string): Promise<string> {
  const { stdout } = await exec('openssl', [...args], { cwd, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' });
  return stdout;
}

/** The bytes of the first PEM block in `pem`. */
export function pemToDer(pem: string): Uint8Array {
  const body = /-----BEGIN [^-]+-----([\s\S]*?)-----END/.exec(pem)?.[1] ?? '';
  return new Uint8Array(Buffer.from(body.replace(/\s+/g, ''), 'base64'));
}

function generateKeys(): Promise<Keys> {
  keys ??= (async () => {
    // The keys are made once per test run (the run's folder, test/global-setup.ts) and copied into each
    // process's folder; outside `vitest run`, once per process. Certificates are issued per process.
    const cache = process.env['PASSMINT_TEST_CACHE'];
    // Under the run's folder when there is one: a file after the first in a shared worker (the afterAll
    // above belongs to the first) leaves its folder to the run's teardown.
    const dir = mkdtempSync(join(cache ?? tmpdir(), 'passmint-pki-'));
    folders.push(dir);
    writeFileSync(join(dir, 'ca.cnf'), CONFIG);
    const names = ['root', 'wwdr', 'pass', 'other'] as const;
    const shared = cache === undefined ? undefined : join(cache, 'pkpass-keys');
    if (shared !== undefined && !existsSync(shared)) {
      const making = mkdtempSync(`${shared}-`);
      await Promise.all(names.map((name) => openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', `${name}.key`], making)));
      try {
        // Renamed once whole; when another process got there first, its keys are used.
        renameSync(making, shared);
      } catch {
        rmSync(making, { recursive: true, force: true });
      }
    }
    if (shared === undefined) {
      await Promise.all(names.map((name) => openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', `${name}.key`], dir)));
    } else {
      for (const name of names) copyFileSync(join(shared, `${name}.key`), join(dir, `${name}.key`));
    }
    const path = (name: string): string => join(dir, `${name}.key`);
    return { dir, root: path('root'), wwdr: path('wwdr'), pass: path('pass'), other: path('other') };
  })();
  return keys;
}

function stamp(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

interface IssueOptions {
  readonly subject: string;
  readonly key: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly extensions: string;
  /** The issuer's certificate and key; absent for a self-signed certificate. */
  readonly issuer?: { readonly cert: string; readonly key: string };
}

/** Issues one certificate with `openssl ca` (which, unlike `x509 -req`, takes explicit start and end dates). */
async function issue(options: IssueOptions): Promise<TestCertificate> {
  const { dir } = await generateKeys();
  const work = join(dir, `issue-${++counter}`);
  mkdirSync(work);
  writeFileSync(join(work, 'index.txt'), '');
  await openssl(['req', '-new', '-key', options.key, '-subj', options.subject, '-out', 'request.csr'], work);
  const signing = options.issuer === undefined ? ['-selfsign', '-keyfile', options.key] : ['-cert', options.issuer.cert, '-keyfile', options.issuer.key];
  await openssl(
    [
      'ca',
      '-batch',
      '-config',
      join(dir, 'ca.cnf'),
      ...signing,
      '-in',
      'request.csr',
      '-out',
      'certificate.pem',
      '-startdate',
      stamp(options.notBefore),
      '-enddate',
      stamp(options.notAfter),
      '-extfile',
      join(dir, 'ca.cnf'),
      '-extensions',
      options.extensions,
      '-preserveDN',
      '-rand_serial',
      '-notext',
    ],
    work,
  );
  const path = join(work, 'certificate.pem');
  const pem = readFileSync(path, 'utf8');
  return { pem, der: pemToDer(pem), path };
}

interface Base {
  readonly keys: Keys;
  readonly root: TestCertificate;
  readonly otherRoot: TestCertificate;
  readonly wwdr: TestCertificate;
  readonly wwdrNotAfter: Date;
  readonly keyPem: string;
  readonly keyPkcs1Pem: string;
  readonly encryptedKeyPem: string;
  readonly otherKeyPem: string;
}

let base: Promise<Base> | undefined;

function makeBase(): Promise<Base> {
  base ??= (async () => {
    const k = await generateKeys();
    const now = Date.now();
    const caStart = new Date(now - 5 * 365 * DAY);
    const caEnd = new Date(now + 10 * 365 * DAY);
    const wwdrNotAfter = new Date(Math.floor((now + 8 * 365 * DAY) / 1000) * 1000);
    const [root, otherRoot, keyPkcs1Pem, encryptedKeyPem] = await Promise.all([
      issue({ subject: ROOT_SUBJECT, key: k.root, notBefore: caStart, notAfter: caEnd, extensions: 'ca_ext' }),
      issue({ subject: '/C=US/O=Somebody Else/CN=Unrelated Root CA', key: k.other, notBefore: caStart, notAfter: caEnd, extensions: 'ca_ext' }),
      openssl(['rsa', '-in', k.pass, '-traditional']),
      openssl(['pkcs8', '-topk8', '-in', k.pass, '-v2', 'aes-256-cbc', '-v2prf', 'hmacWithSHA256', '-passout', `pass:${PASSPHRASE}`]),
    ]);
    const wwdr = await issue({
      subject: WWDR_SUBJECT,
      key: k.wwdr,
      notBefore: caStart,
      notAfter: wwdrNotAfter,
      extensions: 'ca_ext',
      issuer: { cert: root.path, key: k.root },
    });
    return {
      keys: k,
      root,
      otherRoot,
      wwdr,
      wwdrNotAfter,
      keyPem: readFileSync(k.pass, 'utf8'),
      keyPkcs1Pem,
      encryptedKeyPem,
      otherKeyPem: readFileSync(k.other, 'utf8'),
    };
  })();
  return base;
}

/**
 * The test PKI: by default (cached per test process) a valid chain root → WWDR →
 * Pass Type ID certificate; with options a variant sharing the keys and the root.
 */
export function makePki(options: PkiOptions = {}): Promise<Pki> {
  const key = JSON.stringify(options);
  let pki = made.get(key);
  if (pki === undefined) {
    pki = buildPki(options);
    made.set(key, pki);
  }
  return pki;
}

async function buildPki(options: PkiOptions): Promise<Pki> {
  const b = await makeBase();
  const now = Date.now();
  let wwdr = b.wwdr;
  let wwdrNotAfter = b.wwdrNotAfter;
  if (options.wwdrNotAfter !== undefined || options.wwdrNotBefore !== undefined || options.wwdrSubject !== undefined) {
    wwdrNotAfter = options.wwdrNotAfter ?? b.wwdrNotAfter;
    wwdr = await issue({
      subject: options.wwdrSubject ?? WWDR_SUBJECT,
      key: b.keys.wwdr,
      notBefore: options.wwdrNotBefore ?? new Date(now - 5 * 365 * DAY),
      notAfter: wwdrNotAfter,
      extensions: 'ca_ext',
      issuer: { cert: b.root.path, key: b.keys.root },
    });
  }
  const certNotBefore = new Date(Math.floor((options.notBefore?.getTime() ?? now - 365 * DAY) / 1000) * 1000);
  const certNotAfter = new Date(Math.floor((options.notAfter?.getTime() ?? now + 365 * DAY) / 1000) * 1000);
  const cert = await issue({
    subject: options.subject ?? PASS_SUBJECT,
    key: b.keys.pass,
    notBefore: certNotBefore,
    notAfter: certNotAfter,
    extensions: options.extensions ?? 'pass_ext',
    issuer: { cert: wwdr.path, key: b.keys.wwdr },
  });
  return {
    dir: b.keys.dir,
    rootPem: b.root.pem,
    rootDer: b.root.der,
    rootPath: b.root.path,
    wwdrPem: wwdr.pem,
    wwdrDer: wwdr.der,
    wwdrPath: wwdr.path,
    certPem: cert.pem,
    certDer: cert.der,
    certPath: cert.path,
    keyPem: b.keyPem,
    keyDer: pemToDer(b.keyPem),
    keyPath: b.keys.pass,
    keyPkcs1Pem: b.keyPkcs1Pem,
    encryptedKeyPem: b.encryptedKeyPem,
    passphrase: PASSPHRASE,
    otherKeyPem: b.otherKeyPem,
    otherRootPem: b.otherRoot.pem,
    passTypeIdentifier: PASS_TYPE_IDENTIFIER,
    teamIdentifier: TEAM_IDENTIFIER,
    certNotBefore,
    certNotAfter,
    wwdrNotAfter,
  };
}

/**
 * A second intermediate from the same root that did not issue the pass
 * certificate: by default with its own name and key (an unrelated WWDR); with
 * `sameName`, an impostor with the real WWDR's subject but another key.
 */
export async function otherWwdr(options: { readonly sameName?: boolean } = {}): Promise<TestCertificate> {
  const b = await makeBase();
  const now = Date.now();
  return issue({
    subject: options.sameName === true ? WWDR_SUBJECT : '/C=US/O=Example Test CA/OU=G3/CN=Other Intermediate Certification Authority',
    key: b.keys.other,
    notBefore: new Date(now - 365 * DAY),
    notAfter: new Date(now + 365 * DAY),
    extensions: 'ca_ext',
    issuer: { cert: b.root.path, key: b.keys.root },
  });
}

let defaultSigner: Promise<PassSigner> | undefined;

/** `createPassSigner` over the default PKI (PKCS #8 key), made once per test process. */
export function signer(): Promise<PassSigner> {
  defaultSigner ??= makePki().then((pki) => createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem }));
  return defaultSigner;
}

/**
 * Runs `openssl cms -verify` on a detached signature over `content`, trusting
 * `rootPem` (default: the PKI's root). Resolves with openssl's exit code and stderr.
 */
export async function opensslVerify(
  signature: Uint8Array,
  content: Uint8Array,
  rootPath?: string,
): Promise<{ readonly code: number; readonly stderr: string }> {
  const pki = await makePki();
  const work = join(pki.dir, `verify-${++counter}`);
  mkdirSync(work);
  writeFileSync(join(work, 'signature'), signature);
  writeFileSync(join(work, 'content'), content);
  try {
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
        'content',
        '-CAfile',
        rootPath ?? pki.rootPath,
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { cwd: work },
    );
    return { code: 0, stderr: '' };
  } catch (error) {
    const failure = error as { code?: number; stderr?: string };
    return { code: failure.code ?? -1, stderr: failure.stderr ?? '' };
  }
}

/** `openssl cms -cmsout -print` of a DER CMS. */
export async function opensslPrint(signature: Uint8Array): Promise<string> {
  const pki = await makePki();
  const path = join(pki.dir, `print-${++counter}.der`);
  writeFileSync(path, signature);
  return openssl(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', path]);
}
