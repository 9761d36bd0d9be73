import type { Issue, IssueCode, Severity } from '../issues.js';
import { DerError } from './asn1/der-error.js';
import { digestOfOid } from './cms/digest-algorithms.js';
import { readSignedData, type SignerInfo } from './cms/read.js';
import type { DigestName, HashName } from './crypto/contract.js';
import { digest, rsaVerify } from './crypto/index.js';
import { OID } from './oids.js';
import type { Certificate } from './x509/certificate.js';
import { readCertificateInput } from './x509/certificate-input.js';
import { formatDate, issuerProblem, validityProblem } from './x509/chain.js';
import { equalBytes, type Name, nameValue, sameName } from './x509/name.js';
import { isDevelopmentName } from './x509/development.js';
import { wwdrGeneration } from './x509/wwdr-generation.js';

/**
 * What `checkSignature` found: the issues (every path `/signature`; none
 * means the signature is good) and what it could read, for the caller's own
 * checks (a pass's identifiers against `signer`).
 *
 * @example
 * ```ts
 * const check: SignatureCheck = await checkSignature(signature, manifest);
 * check.signer?.passTypeIdentifier; // 'pass.com.example.test'
 * ```
 */
export interface SignatureCheck {
  readonly issues: readonly Issue[];
  readonly signingTime?: Date;
  readonly digest?: DigestName;
  readonly signer?: {
    readonly passTypeIdentifier?: string;
    readonly teamIdentifier?: string;
    readonly subject: string;
    readonly notBefore: Date;
    readonly notAfter: Date;
  };
  readonly wwdr?: { readonly subject: string; readonly notAfter: Date };
}

/**
 * Options of `checkSignature`.
 *
 * @example
 * ```ts
 * const options: CheckSignatureOptions = { roots: [appleRootPem], at: new Date() };
 * ```
 */
export interface CheckSignatureOptions {
  /** Trusted root certificates (PEM or DER); the WWDR must chain to one. Without them no root is checked. */
  readonly roots?: readonly (string | Uint8Array)[];
  /** When to judge validity, besides the signing time (default: now). */
  readonly at?: Date;
}

const SIGNATURE_HASHES: Readonly<Record<string, HashName>> = {
  [OID.sha1WithRSAEncryption]: 'sha1',
  [OID.sha256WithRSAEncryption]: 'sha256',
  [OID.sha384WithRSAEncryption]: 'sha384',
  [OID.sha512WithRSAEncryption]: 'sha512',
};

const MAX_WWDR_CANDIDATES = 8;

const G4_HINT =
  "Pass Type ID certificates issued after 27 January 2022 chain to Apple's WWDR G4 (https://www.apple.com/certificateauthority/AppleWWDRCAG4.cer).";

/**
 * Checks a pass's detached CMS signature over `content` (the manifest bytes)
 * as Wallet does: the structure (BER tolerated), the content's digest against
 * the signed messageDigest, the RSA signature over the signed attributes as
 * found, the signer certificate and the WWDR intermediate embedded, the
 * WWDR's root when `roots` are given, validity at the signing time and at
 * `at`, and that a signing time is there. Never throws.
 *
 * @example
 * ```ts
 * const check = await checkSignature(signature, manifest, { roots: [appleRootPem] });
 * if (check.issues.length > 0) console.error(check.issues.map((issue) => issue.code)); // ['digest-mismatch']
 * ```
 */
export async function checkSignature(signature: Uint8Array, content: Uint8Array, options?: CheckSignatureOptions): Promise<SignatureCheck> {
  return checkDetachedSignature(signature, content, options, 'manifest');
}

/** {@link checkSignature} over any content; `what` names it in messages ('manifest', 'personalization token'). */
export async function checkDetachedSignature(
  signature: Uint8Array,
  content: Uint8Array,
  options: CheckSignatureOptions | undefined,
  what: string,
): Promise<SignatureCheck> {
  try {
    return await check(signature, content, options ?? {}, what);
  } catch (error) {
    // The checks below turn every expected failure into an issue; this is the
    // promise kept for anything unforeseen in hostile bytes.
    const reason = error instanceof Error ? error.message : String(error);
    return { issues: [issue('invalid-signature', `The signature could not be checked: ${reason}.`)] };
  }
}

function issue(code: IssueCode, message: string, severity: Severity = 'error'): Issue {
  return { severity, code, message, path: '/signature' };
}

async function check(signature: Uint8Array, content: Uint8Array, options: CheckSignatureOptions, what: string): Promise<SignatureCheck> {
  if (!(signature instanceof Uint8Array) || signature.length === 0) {
    return { issues: [issue('missing-signature', 'The pass has no signature: sign the manifest with the Pass Type ID certificate.')] };
  }
  if (!(content instanceof Uint8Array)) return { issues: [issue('invalid-signature', `There is no signed content (${what}) to check the signature against.`)] };
  const at = options.at instanceof Date && !Number.isNaN(options.at.getTime()) ? options.at : new Date();

  let signedData;
  try {
    signedData = readSignedData(signature);
  } catch (error) {
    if (error instanceof DerError) return { issues: [issue('invalid-signature', `The signature is not a CMS SignedData: ${error.message}.`)] };
    throw error;
  }

  const issues: Issue[] = [];
  // A pass's signature is detached; one that carries content signed that content, which must be the bytes checked.
  if (signedData.content !== undefined && !equalBytes(signedData.content, content)) {
    issues.push(
      issue(
        'signed-content-mismatch',
        `The signature carries its own signed content (${signedData.content.length} bytes), which differs from the ${what} (${content.length} bytes): it signed something else. Sign the ${what}'s exact bytes, detached.`,
      ),
    );
  }
  if (signedData.contentType !== OID.data)
    issues.push(issue('invalid-signature', `The signature's content type is ${signedData.contentType}, not data (${OID.data}).`));
  for (const problem of signedData.unreadableCertificates) issues.push(issue('invalid-signature', `The signature holds an unreadable ${problem}.`));
  const signerInfo = signedData.signerInfos[0];
  if (signerInfo === undefined) {
    issues.push(issue('invalid-signature', 'The signature holds no SignerInfo: nobody signed it.'));
    return { issues };
  }
  if (signedData.signerInfos.length > 1) {
    issues.push(
      issue(
        'invalid-signature',
        `The signature holds ${signedData.signerInfos.length} SignerInfos; a pass has one, and only the first was checked.`,
        'warning',
      ),
    );
  }

  const digestName = digestOfOid(signerInfo.digestAlgorithm);
  if (digestName === undefined) {
    issues.push(issue('invalid-signature', `The signature uses digest ${signerInfo.digestAlgorithm}; passes are signed with SHA-1 or SHA-256.`));
  }

  const signer = findSigner(signerInfo, signedData.certificates);
  if (signer === undefined) {
    issues.push(issue('missing-certificate', "The signature does not carry the signer's certificate (the Pass Type ID certificate it names)."));
  }

  // The signed attributes, or (without them, as `openssl smime -noattr` writes) the content itself.
  const attributes = signerInfo.signedAttributes;
  const signingTime = attributes?.signingTime;
  if (signingTime === undefined) {
    issues.push(
      issue(
        'missing-signing-time',
        'The signature has no signing time; Wallet refuses such a pass. Sign with signed attributes (contentType, signingTime, messageDigest).',
      ),
    );
  }
  if (digestName !== undefined) {
    if (attributes !== undefined) {
      if (attributes.contentType === undefined) issues.push(issue('invalid-signature', 'The signed attributes have no contentType.'));
      else if (attributes.contentType !== signedData.contentType) {
        issues.push(
          issue('invalid-signature', `The signed contentType (${attributes.contentType}) differs from the content's type (${signedData.contentType}).`),
        );
      }
      if (attributes.messageDigest === undefined) issues.push(issue('invalid-signature', 'The signed attributes have no messageDigest.'));
      else if (!equalBytes(attributes.messageDigest, await digest(digestName, content))) {
        issues.push(
          issue('digest-mismatch', `The signed ${digestName.toUpperCase()} digest does not match the ${what}: the ${what} was changed after it was signed.`),
        );
      }
    }
    if (signer !== undefined) {
      const hash = signerInfo.signatureAlgorithm === OID.rsaEncryption ? digestName : SIGNATURE_HASHES[signerInfo.signatureAlgorithm];
      if (hash === undefined || signer.rsa === undefined) {
        issues.push(
          issue('invalid-signature', `The signature algorithm ${signerInfo.signatureAlgorithm} is not RSA PKCS #1 v1.5 (rsaEncryption), which passes use.`),
        );
      } else if (!(await rsaVerify(signer.spki, hash, attributes?.signedBytes ?? content, signerInfo.signature))) {
        issues.push(
          issue(
            'signature-mismatch',
            attributes === undefined
              ? "The RSA signature does not verify under the signer's certificate."
              : "The RSA signature over the signed attributes does not verify under the signer's certificate: the attributes were changed, or another key signed.",
          ),
        );
      }
    }
  }

  const wwdr = signer === undefined ? undefined : await findWwdr(signer, signedData.certificates, issues);
  if (wwdr !== undefined && options.roots !== undefined) await checkRoot(wwdr, options.roots, issues);
  if (signer !== undefined && (isDevelopmentName(signer.subject) || isDevelopmentName(signer.issuer))) {
    issues.push(
      issue(
        'development-certificate',
        "Signed with a passmint development identity (`passmint cert --dev`): its WWDR and root are stand-ins, not Apple's, so Wallet on an iPhone refuses the pass. Sign with your Pass Type ID certificate from Apple to ship it.",
        'warning',
      ),
    );
  }

  for (const [certificate, what] of [
    [signer, 'pass certificate'],
    [wwdr, 'WWDR certificate'],
  ] as const) {
    if (certificate !== undefined) checkValidity(certificate, what, at, signingTime, issues);
  }

  return {
    issues,
    ...(signingTime === undefined ? {} : { signingTime }),
    ...(digestName === undefined ? {} : { digest: digestName }),
    ...(signer === undefined ? {} : { signer: describeSigner(signer) }),
    ...(wwdr === undefined ? {} : { wwdr: { subject: wwdr.subject.text, notAfter: wwdr.notAfter } }),
  };
}

function findSigner(signerInfo: SignerInfo, certificates: readonly Certificate[]): Certificate | undefined {
  const { sid } = signerInfo;
  if ('subjectKeyIdentifier' in sid) {
    return certificates.find(
      (certificate) => certificate.subjectKeyIdentifier !== undefined && equalBytes(certificate.subjectKeyIdentifier, sid.subjectKeyIdentifier),
    );
  }
  return certificates.find((certificate) => equalBytes(certificate.serial, sid.serial) && sameName(certificate.issuer, sid.issuer));
}

async function findWwdr(signer: Certificate, certificates: readonly Certificate[], issues: Issue[]): Promise<Certificate | undefined> {
  const named = certificates.filter((candidate) => candidate !== signer && sameName(signer.issuer, candidate.subject));
  if (named.length === 0) {
    const hint = wwdrGeneration(signer.issuer) === 'G4' ? ` ${G4_HINT}` : '';
    // Another intermediate carried (often G1 or G3 where G4 is needed) is the wrong one, not a missing one.
    const carried = certificates.filter((candidate) => candidate !== signer && !sameName(candidate.subject, candidate.issuer));
    if (carried.length > 0) {
      const names = carried.slice(0, 3).map((candidate) => `"${candidate.subject.text}"${describeGeneration(candidate.subject)}`);
      issues.push(
        issue(
          'wrong-wwdr',
          `The signature carries ${names.join(', ')}, but the pass certificate was issued by "${signer.issuer.text}"${describeGeneration(signer.issuer)}: carry that intermediate instead.${hint}`,
        ),
      );
    } else {
      issues.push(
        issue('missing-wwdr', `The signature does not carry the WWDR intermediate that issued the pass certificate ("${signer.issuer.text}").${hint}`),
      );
    }
    return undefined;
  }
  // Each candidate costs an RSA verification; a pass carries one, so a few are plenty.
  for (const candidate of named.slice(0, MAX_WWDR_CANDIDATES)) if ((await issuerProblem(signer, candidate)) === undefined) return candidate;
  issues.push(
    issue(
      'untrusted-chain',
      `The pass certificate's signature does not verify under the WWDR certificate carried ("${named[0]?.subject.text ?? ''}"): it has the issuer's name but not its key.`,
    ),
  );
  return undefined;
}

async function checkRoot(wwdr: Certificate, roots: readonly (string | Uint8Array)[], issues: Issue[]): Promise<void> {
  const readable: Certificate[] = [];
  for (const [index, root] of (Array.isArray(roots) ? roots : []).entries()) {
    const certificate = readCertificateInput(root);
    if (typeof certificate === 'string') issues.push(issue('untrusted-chain', `Trusted root ${index} ${certificate}.`));
    else readable.push(certificate);
  }
  for (const root of readable) {
    if (equalBytes(root.der, wwdr.der) || (await issuerProblem(wwdr, root)) === undefined) return;
  }
  issues.push(
    issue(
      'untrusted-chain',
      `The WWDR certificate "${wwdr.subject.text}" (issued by "${wwdr.issuer.text}") does not chain to any trusted root given (${readable.map((root) => `"${root.subject.text}"`).join(', ') || 'none readable'}).`,
    ),
  );
}

function checkValidity(certificate: Certificate, what: string, at: Date, signingTime: Date | undefined, issues: Issue[]): void {
  const now = validityProblem(certificate, at);
  const then = signingTime === undefined ? undefined : validityProblem(certificate, signingTime);
  const name = `The ${what} "${certificate.subject.text}"`;
  if (now === 'certificate-expired' || then === 'certificate-expired') {
    const when = now === 'certificate-expired' ? `at ${formatDate(at)}` : `when signed (${formatDate(signingTime as Date)})`;
    issues.push(issue('certificate-expired', `${name} expired on ${formatDate(certificate.notAfter)}: it was not valid ${when}.`));
  }
  if (now === 'certificate-not-yet-valid' || then === 'certificate-not-yet-valid') {
    const when = then === 'certificate-not-yet-valid' ? `when signed (${formatDate(signingTime as Date)})` : `at ${formatDate(at)}`;
    issues.push(issue('certificate-not-yet-valid', `${name} is valid only from ${formatDate(certificate.notBefore)}: it was not valid ${when}.`));
  }
}

function describeGeneration(name: Name): string {
  const generation = wwdrGeneration(name);
  return generation === undefined ? '' : ` (WWDR ${generation})`;
}

function describeSigner(signer: Certificate): NonNullable<SignatureCheck['signer']> {
  const passTypeIdentifier = nameValue(signer.subject, OID.userId);
  const teamIdentifier = nameValue(signer.subject, OID.organizationalUnit);
  return {
    ...(passTypeIdentifier === undefined ? {} : { passTypeIdentifier }),
    ...(teamIdentifier === undefined ? {} : { teamIdentifier }),
    subject: signer.subject.text,
    notBefore: signer.notBefore,
    notAfter: signer.notAfter,
  };
}
