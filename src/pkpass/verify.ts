// verifyPass: what Wallet checks when it opens a .pkpass, as a report.

import type { Report } from '../issues.js';
import { toReport } from '../issues.js';
import { validatePass } from '../pass/validate.js';
import { type BundleFile, caseCollisions, inspectFile } from './bundle-files.js';
import type { DigestName } from './crypto/contract.js';
import { digest } from './crypto/index.js';
import { readManifest, toHex } from './manifest.js';
import { openPackage } from './package-contents.js';
import { checkFilesForPass, checkIdentity } from './pass-checks.js';
import { filePointer, manifestPointer, passJsonPointer, RESERVED_NAMES } from './paths.js';
import { checkSignature } from './signature-check.js';
import type { ReadLimits } from './zip-read.js';

/**
 * Options of {@link verifyPass}.
 *
 * @example
 * ```ts
 * const options: VerifyOptions = { roots: [appleRootCaG3Pem], at: new Date() };
 * ```
 */
export interface VerifyOptions extends ReadLimits {
  /** Trusted root certificates (PEM or DER): the chain must end at one of them. Without roots the chain is checked up to the WWDR only. */
  readonly roots?: readonly (string | Uint8Array)[];
  /** The time certificates must be valid at. Default: now. */
  readonly at?: Date;
  /** Accept an `http://` `webServiceURL` (a development server) with a warning, as `validatePass` does. */
  readonly allowHttp?: boolean;
}

/**
 * What {@link verifyPass} found: the report, and what the signature says
 * about who signed and when, when it could be read.
 *
 * @example
 * ```ts
 * const report: PassVerification = await verifyPass(bytes);
 * report.signer?.passTypeIdentifier; // 'pass.com.example.event'
 * ```
 */
export interface PassVerification extends Report {
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
 * Checks a `.pkpass` as Wallet does: the archive (safely, within limits),
 * `pass.json` (JSON, then {@link validatePass}), the manifest (complete,
 * every hash right), the CMS signature over the manifest's bytes (digest,
 * signing time, certificates, chain to the WWDR and to `roots` when given),
 * the identifiers against the certificate's, `icon.png`, PNG images, images
 * the style shows, `pass.strings`. Never throws: every problem is an issue,
 * in a fixed order (archive and names, pass.json as JSON, each file in archive
 * order, icon and images of the style, manifest, signature, identity, pass rules). Paths are bundle paths (`/icon.png`); inside pass.json
 * `/pass.json/…`, inside the manifest `/manifest.json/<path as one token>`,
 * and `/signature` for the signature.
 *
 * @example
 * ```ts
 * const report = await verifyPass(bytes, { roots: [appleRootPem] });
 * if (!report.ok) console.error(report.issues.map((issue) => `${issue.code} at ${issue.path}`));
 * ```
 */
export async function verifyPass(bytes: Uint8Array, options: VerifyOptions = {}): Promise<PassVerification> {
  try {
    return await verify(bytes, options);
  } catch {
    return toReport([{ severity: 'error', code: 'invalid-zip', message: 'The package could not be read', path: '' }]);
  }
}

async function verify(bytes: Uint8Array, options: VerifyOptions): Promise<PassVerification> {
  const { files, issues, pass } = openPackage(bytes, options);
  if (files.size === 0 && issues.length > 0) return toReport(issues);

  // The files: what each one is, as packPass checks them.
  const bundle: BundleFile[] = [];
  for (const [path, content] of files) {
    if (RESERVED_NAMES.has(path)) continue;
    const file = await inspectFile(path, content, issues);
    if (file !== undefined) bundle.push(file);
  }
  caseCollisions([...files.keys()], issues);
  checkFilesForPass(pass, bundle, issues);

  // The manifest: complete, and every hash right.
  const manifestBytes = files.get('manifest.json');
  if (manifestBytes === undefined) {
    issues.push({ severity: 'error', code: 'missing-manifest', message: 'The package has no manifest.json', path: '/manifest.json' });
  } else {
    const manifest = readManifest(manifestBytes);
    for (const issue of manifest.issues) issues.push(issue);
    const passBytes = files.get('pass.json');
    // A manifest that is not an object of hashes lists nothing: "every file missing from it" would say nothing more.
    const badEntries = new Set(manifest.issues.filter((issue) => issue.severity === 'error').map((issue) => issue.path));
    const unreadable = badEntries.has('/manifest.json');
    const hashed = new Map(unreadable ? [] : bundle.map((file) => [file.path, file.sha1]));
    if (passBytes !== undefined && !unreadable) hashed.set('pass.json', await hex(passBytes));
    for (const [path, hash] of hashed) {
      const listed = manifest.entries.get(path);
      if (listed === undefined) {
        if (!badEntries.has(manifestPointer(path))) {
          issues.push({ severity: 'error', code: 'missing-from-manifest', message: `${path} is not listed in manifest.json`, path: filePointer(path) });
        }
      } else if (listed !== hash) {
        issues.push({
          severity: 'error',
          code: 'hash-mismatch',
          message: `The SHA-1 of ${path} is ${hash}, manifest.json says ${listed}`,
          path: filePointer(path),
        });
      }
    }
    for (const path of manifest.entries.keys()) {
      if (path === 'manifest.json' || path === 'signature') {
        const what = path === 'manifest.json' ? 'itself' : 'the signature';
        issues.push({
          severity: 'error',
          code: 'invalid-manifest',
          message: `manifest.json lists ${what}; it lists every file but itself and the signature (which signs it)`,
          path: manifestPointer(path),
        });
      } else if (!files.has(path)) {
        issues.push({
          severity: 'error',
          code: 'missing-file',
          message: `manifest.json lists ${JSON.stringify(path)}, which the package does not hold`,
          path: manifestPointer(path),
        });
      }
    }
  }

  // The signature over the manifest's exact bytes, and who made it.
  const signature = files.get('signature');
  let found: Omit<PassVerification, 'ok' | 'issues'> = {};
  if (signature === undefined) {
    issues.push({ severity: 'error', code: 'missing-signature', message: 'The package has no signature', path: '/signature' });
  } else if (manifestBytes !== undefined) {
    const checked = await checkSignature(signature, manifestBytes, {
      ...(options.roots === undefined ? {} : { roots: options.roots }),
      ...(options.at === undefined ? {} : { at: options.at }),
    });
    for (const issue of checked.issues) issues.push(issue);
    const { signingTime, digest, signer, wwdr } = checked;
    found = {
      ...(signingTime === undefined ? {} : { signingTime }),
      ...(digest === undefined ? {} : { digest }),
      ...(signer === undefined ? {} : { signer }),
      ...(wwdr === undefined ? {} : { wwdr }),
    };
    if (signer !== undefined) checkIdentity(pass, signer, issues);
  }

  // The pass itself, by Apple's rules.
  if (pass !== undefined)
    for (const issue of validatePass(pass, { allowHttp: options.allowHttp === true }).issues) issues.push({ ...issue, path: passJsonPointer(issue.path) });
  return { ...toReport(issues), ...found };
}

async function hex(bytes: Uint8Array): Promise<string> {
  return toHex(await digest('sha1', bytes));
}
