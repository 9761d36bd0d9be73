import type { Issue, IssueCode } from '../issues.js';
import { encodeSignedData, signedAttributes } from './cms/encode.js';
import type { DigestName, RsaSigningKey } from './crypto/contract.js';
import { digest, importRsaSigningKey, rsaVerify } from './crypto/index.js';
import { readPrivateKey } from './keys/private-key.js';
import { OID } from './oids.js';
import { SignerError } from './signer-error.js';
import type { Certificate } from './x509/certificate.js';
import { readCertificateInput } from './x509/certificate-input.js';
import { formatDate, issuerProblem, validityProblem } from './x509/chain.js';
import { equalBytes, nameValue } from './x509/name.js';
import { wwdrGeneration } from './x509/wwdr-generation.js';

/**
 * What `createPassSigner` needs: the Pass Type ID certificate, its private key
 * and Apple's WWDR intermediate that issued it.
 *
 * @example
 * ```ts
 * const options: PassSignerOptions = {
 *   certificate: readFileSync('pass.pem', 'utf8'),
 *   privateKey: readFileSync('pass.key', 'utf8'),
 *   wwdr: readFileSync('AppleWWDRCAG4.cer'),
 * };
 * ```
 */
export interface PassSignerOptions {
  /** PEM (text or bytes) or DER. */
  readonly certificate: string | Uint8Array;
  /** PEM PKCS #8, PEM PKCS #1 ("BEGIN RSA PRIVATE KEY"), PEM encrypted PKCS #8 (with `passphrase`), or DER of any of them. */
  readonly privateKey: string | Uint8Array;
  /** PEM or DER: the WWDR intermediate named as the certificate's issuer (G4 for certificates issued after 27 January 2022). */
  readonly wwdr: string | Uint8Array;
  /** Decrypts an encrypted private key. */
  readonly passphrase?: string;
  /** When to judge the certificates' validity (default: now). */
  readonly at?: Date;
}

/**
 * How one signature is made.
 *
 * @example
 * ```ts
 * const options: SignOptions = { signingTime: new Date('2026-01-01T00:00:00Z'), digest: 'sha1' };
 * ```
 */
export interface SignOptions {
  /** The signingTime attribute (default: now); whole seconds are kept. */
  readonly signingTime?: Date;
  /** The digest of content and attributes (default `'sha256'`; `'sha1'` is what Apple's own tool writes). */
  readonly digest?: DigestName;
}

/**
 * Signs pass manifests with one Pass Type ID certificate. Made by
 * `createPassSigner`, which has checked the certificate, key and WWDR.
 *
 * @example
 * ```ts
 * const signer: PassSigner = await createPassSigner({ certificate, privateKey, wwdr });
 * signer.passTypeIdentifier; // 'pass.com.example.test'
 * const signature = await signer.sign(manifestBytes);
 * ```
 */
export interface PassSigner {
  /** The certificate subject's UID. */
  readonly passTypeIdentifier: string;
  /** The certificate subject's OU. */
  readonly teamIdentifier: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly wwdrNotAfter: Date;
  /** The certificate, DER. */
  readonly certificate: Uint8Array;
  /** The WWDR intermediate, DER. */
  readonly wwdr: Uint8Array;
  /** Detached CMS SignedData, DER, over `content`. */
  sign(content: Uint8Array, options?: SignOptions): Promise<Uint8Array>;
}

const PROBE: Uint8Array = new TextEncoder().encode('passmint: does this key sign for its certificate?');

const G4_HINT =
  "Certificates issued after 27 January 2022 chain to Apple's WWDR G4 (https://www.apple.com/certificateauthority/AppleWWDRCAG4.cer, valid until 2030-12-10); older ones to the G1 intermediate, which expired on 2023-02-07.";

/**
 * Checks a Pass Type ID certificate, its private key and the WWDR intermediate,
 * and returns a signer for pass manifests. The key is imported once per digest
 * and reused for every signature.
 *
 * Throws `SignerError` whose issues (paths `/certificate`, `/privateKey`,
 * `/wwdr`) say what is wrong and what to do: `invalid-certificate`,
 * `not-pass-certificate`, `invalid-key`, `wrong-passphrase`, `key-mismatch`,
 * `wrong-wwdr`, `certificate-expired`, `certificate-not-yet-valid`.
 *
 * @example
 * ```ts
 * const signer = await createPassSigner({
 *   certificate: readFileSync('pass.pem', 'utf8'),
 *   privateKey: readFileSync('pass.key', 'utf8'),
 *   wwdr: readFileSync('AppleWWDRCAG4.cer'),
 * });
 * const signature = await signer.sign(new TextEncoder().encode('{}'), { digest: 'sha1' });
 * ```
 */
export async function createPassSigner(options: PassSignerOptions): Promise<PassSigner> {
  const issues: Issue[] = [];
  const fail = (code: IssueCode, path: string, message: string): void => {
    issues.push({ severity: 'error', code, path, message });
  };
  const given = (options ?? {}) as Partial<PassSignerOptions>;
  if (given.at !== undefined && !(given.at instanceof Date && !Number.isNaN(given.at.getTime()))) {
    throw new TypeError('createPassSigner(): `at` must be a valid Date');
  }
  const at = given.at ?? new Date();

  const certificate = readCertificateInput(given.certificate);
  if (typeof certificate === 'string') fail('invalid-certificate', '/certificate', `The certificate ${certificate}.`);
  const wwdr = readCertificateInput(given.wwdr);
  if (typeof wwdr === 'string') fail('invalid-certificate', '/wwdr', `The WWDR certificate ${wwdr}.`);
  const key =
    typeof given.privateKey === 'string' || given.privateKey instanceof Uint8Array
      ? await readPrivateKey(given.privateKey, given.passphrase)
      : { code: 'invalid-key' as const, message: 'The private key is missing: give it as PEM text or DER bytes.' };
  if ('code' in key) fail(key.code, '/privateKey', key.message);

  let passTypeIdentifier: string | undefined;
  let teamIdentifier: string | undefined;
  if (typeof certificate !== 'string') {
    const subject = certificate.subject.text;
    passTypeIdentifier = nameValue(certificate.subject, OID.userId);
    teamIdentifier = nameValue(certificate.subject, OID.organizationalUnit);
    if (passTypeIdentifier === undefined) {
      const swapped = typeof wwdr !== 'string' && nameValue(wwdr.subject, OID.userId) !== undefined;
      fail(
        'not-pass-certificate',
        '/certificate',
        swapped
          ? `The certificate "${subject}" is not a Pass Type ID certificate, but the one given as \`wwdr\` is: certificate and wwdr look swapped.`
          : `The certificate "${subject}" has no UID (pass type identifier) in its subject, so it is not a Pass Type ID certificate; create one under Certificates, Identifiers & Profiles → Identifiers → Pass Type IDs.`,
      );
    } else if (teamIdentifier === undefined) {
      fail(
        'not-pass-certificate',
        '/certificate',
        `The certificate "${subject}" has no OU (team identifier) in its subject, so it is not a Pass Type ID certificate Apple issued.`,
      );
    }
    if (certificate.rsa === undefined) {
      fail(
        'invalid-certificate',
        '/certificate',
        `The certificate "${subject}" does not hold an RSA key; Apple issues Pass Type ID certificates with RSA 2048 keys.`,
      );
    } else if (!('code' in key) && !(equalBytes(certificate.rsa.modulus, key.modulus) && equalBytes(certificate.rsa.exponent, key.exponent))) {
      fail(
        'key-mismatch',
        '/privateKey',
        `The private key does not belong to the certificate "${subject}" (their public keys differ); use the key exported with this certificate (a .p12 from Keychain holds both).`,
      );
    }
    checkValidity(certificate, at, '/certificate', 'certificate', fail);
  }

  if (typeof wwdr !== 'string') {
    if (typeof certificate !== 'string') {
      const problem = await issuerProblem(certificate, wwdr);
      const givenWwdr = `The WWDR certificate given ("${wwdr.subject.text}", valid until ${formatDate(wwdr.notAfter)})`;
      // The G4 download link helps only a certificate that chains to G4.
      const hint = wwdrGeneration(certificate.issuer) === 'G4' ? ` ${G4_HINT}` : '';
      if (problem === 'name') {
        fail('wrong-wwdr', '/wwdr', `${givenWwdr} did not issue the certificate, whose issuer is "${certificate.issuer.text}"; give that one.${hint}`);
      } else if (problem === 'signature') {
        fail(
          'wrong-wwdr',
          '/wwdr',
          `${givenWwdr} has the name of the certificate's issuer but not its key: the certificate's signature does not verify under it. Download "${certificate.issuer.text}" again from Apple.${hint}`,
        );
      }
    }
    checkValidity(wwdr, at, '/wwdr', 'WWDR certificate', fail);
  }

  if (issues.length > 0 || typeof certificate === 'string' || typeof wwdr === 'string' || 'code' in key) {
    throw new SignerError('The pass signer cannot be created', issues);
  }

  const keys = new Map<DigestName, Promise<RsaSigningKey>>();
  const keyFor = (name: DigestName): Promise<RsaSigningKey> => {
    let imported = keys.get(name);
    if (imported === undefined) {
      imported = importRsaSigningKey(key.pkcs8, name);
      keys.set(name, imported);
    }
    return imported;
  };
  let probe: Uint8Array;
  try {
    probe = await (await keyFor('sha256')).sign(PROBE);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SignerError('The pass signer cannot be created', [
      { severity: 'error', code: 'invalid-key', path: '/privateKey', message: `The private key cannot be imported (${reason}).` },
    ]);
  }
  // Equal public halves do not prove a sound private half (a damaged file can
  // keep n and e): one signature checked now saves every pass made with it.
  if (!(await rsaVerify(certificate.spki, 'sha256', PROBE, probe))) {
    throw new SignerError('The pass signer cannot be created', [
      {
        severity: 'error',
        code: 'invalid-key',
        path: '/privateKey',
        message: "The private key is damaged: its signatures do not verify under its certificate's public key. Export the key again.",
      },
    ]);
  }

  return Object.freeze({
    passTypeIdentifier: passTypeIdentifier as string,
    teamIdentifier: teamIdentifier as string,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    wwdrNotAfter: wwdr.notAfter,
    certificate: certificate.der,
    wwdr: wwdr.der,
    async sign(content: Uint8Array, signOptions: SignOptions = {}): Promise<Uint8Array> {
      if (!(content instanceof Uint8Array)) throw new TypeError('sign(content): content must be a Uint8Array');
      const digestName = signOptions.digest ?? 'sha256';
      if (digestName !== 'sha1' && digestName !== 'sha256') throw new TypeError(`sign(): digest must be 'sha1' or 'sha256', not ${String(digestName)}`);
      const signingTime = signOptions.signingTime ?? new Date();
      if (!(signingTime instanceof Date) || Number.isNaN(signingTime.getTime())) throw new TypeError('sign(): signingTime must be a valid Date');
      const attributes = signedAttributes(await digest(digestName, content), signingTime);
      const signature = await (await keyFor(digestName)).sign(attributes);
      return encodeSignedData({ signer: certificate, wwdr, digest: digestName, signedAttributes: attributes, signature });
    },
  });
}

function checkValidity(certificate: Certificate, at: Date, path: string, what: string, fail: (code: IssueCode, path: string, message: string) => void): void {
  const problem = validityProblem(certificate, at);
  const name = `The ${what} "${certificate.subject.text}"`;
  const renew =
    path === '/wwdr'
      ? `download the current WWDR intermediate from https://www.apple.com/certificateauthority/. ${G4_HINT}`
      : 'create a new Pass Type ID certificate (Certificates, Identifiers & Profiles → Identifiers → your Pass Type ID) and export it with its key.';
  if (problem === 'certificate-expired') fail(problem, path, `${name} expired on ${formatDate(certificate.notAfter)} (checked at ${formatDate(at)}); ${renew}`);
  else if (problem === 'certificate-not-yet-valid') {
    fail(problem, path, `${name} is not valid until ${formatDate(certificate.notBefore)} (checked at ${formatDate(at)}); check the clock, or wait until then.`);
  }
}
