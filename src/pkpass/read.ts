// readPass: a .pkpass opened into its parts, safely.

import type { Issue } from '../issues.js';
import { PackError } from './pack-error.js';
import { openPackage } from './package-contents.js';
import { readManifest } from './manifest.js';
import { LPROJ, filePointer } from './paths.js';
import { parsePassStrings } from './strings.js';
import type { ReadLimits } from './zip-read.js';

/**
 * A pass package's parts. `files` holds every file but the three the library
 * writes, so `packPass(pkg.pass, pkg.files, signer)` packs the same pass again.
 *
 * @example
 * ```ts
 * const pkg = await readPass(bytes);
 * pkg.pass['serialNumber']; pkg.files.get('icon.png'); pkg.strings.get('de')?.get('Seat');
 * ```
 */
export interface PassPackage {
  /** pass.json, parsed (a JSON object; {@link verifyPass} says whether Wallet accepts it). */
  readonly pass: { readonly [key: string]: unknown };
  /** The other files by bundle path, in the archive's order: images, `xx.lproj/…`. */
  readonly files: Map<string, Uint8Array>;
  /** manifest.json, path → lowercase hex SHA-1, when the package has one. */
  readonly manifest?: Map<string, string>;
  /** The exact bytes of manifest.json (the bytes the signature covers). */
  readonly manifestBytes?: Uint8Array;
  /** The detached CMS signature (DER), when the package has one. */
  readonly signature?: Uint8Array;
  /** Each language's pass.strings: `'de'` → key → value. */
  readonly strings: Map<string, Map<string, string>>;
  /**
   * The warnings found while reading: `trailing-comma` in pass.json or
   * manifest.json (read as Apple's reader does), and what writing `pass` again would change —
   * `duplicate-key` (only the last of the repeated members is in `pass`),
   * `lossy-json` (a number JavaScript cannot hold exactly).
   */
  readonly warnings: readonly Issue[];
}

/**
 * Opens a `.pkpass` without trusting it: limits on entries, sizes and
 * compression ratios (a zip bomb is stopped while inflating), unsafe names,
 * duplicates, broken archives. Nothing touches a disk. Throws a
 * {@link PackError} listing the issues when the package cannot be read
 * (`invalid-zip`, `zip-limit-exceeded`, `unsafe-path`, `duplicate-entry`,
 * `missing-pass-json`, `invalid-json`, `invalid-manifest`, `invalid-strings`);
 * it checks neither hashes nor signature — {@link verifyPass} does. A
 * trailing comma in pass.json does not stop it (Apple's reader accepts one);
 * `warnings` says so, and names what a repack would change.
 *
 * @example
 * ```ts
 * const { pass, files } = await readPass(new Uint8Array(await file.arrayBuffer()), { maxTotalSize: 10_000_000 });
 * ```
 */
export async function readPass(bytes: Uint8Array, options: ReadLimits = {}): Promise<PassPackage> {
  const opened = openPackage(bytes, options);
  const issues = opened.issues.filter((issue) => issue.severity === 'error');
  const warnings = opened.issues.filter((issue) => issue.severity === 'warning');
  const manifestBytes = opened.files.get('manifest.json');
  const manifest = manifestBytes === undefined ? undefined : readManifest(manifestBytes);
  if (manifest !== undefined) {
    for (const issue of manifest.issues) (issue.severity === 'error' ? issues : warnings).push(issue);
  }
  const strings = new Map<string, Map<string, string>>();
  const files = new Map<string, Uint8Array>();
  for (const [path, content] of opened.files) {
    if (path === 'pass.json' || path === 'manifest.json' || path === 'signature') continue;
    files.set(path, content);
    const [folder, name, extra] = path.split('/');
    if (name !== 'pass.strings' || extra !== undefined || folder === undefined || !LPROJ.test(folder)) continue;
    const parsed = parsePassStrings(content);
    if (parsed instanceof Map) strings.set(folder.slice(0, -'.lproj'.length), parsed);
    else issues.push({ ...parsed, message: `${path}: ${parsed.message}`, path: filePointer(path) });
  }
  const pass = opened.pass;
  if (pass !== undefined && (typeof pass !== 'object' || pass === null || Array.isArray(pass))) {
    issues.push({ severity: 'error', code: 'invalid-json', message: 'pass.json is not a JSON object', path: '/pass.json' });
  }
  if (issues.length > 0 || typeof pass !== 'object' || pass === null) throw new PackError('The package cannot be read', issues);
  const signature = opened.files.get('signature');
  return {
    pass: pass as { readonly [key: string]: unknown },
    files,
    ...(manifest === undefined || manifestBytes === undefined ? {} : { manifest: manifest.entries, manifestBytes }),
    ...(signature === undefined ? {} : { signature }),
    strings,
    warnings,
  };
}
