// prepareFiles: a template's files hashed, checked and compressed once, so
// each pass made from them costs its own pass.json, manifest and signature.

import type { Issue } from '../issues.js';
import { type BundleFile, caseCollisions, inspectFile } from './bundle-files.js';
import { PackError } from './pack-error.js';
import { preview } from './paths.js';
import { deflated, type ZipEntry, zipEntry } from './zip-write.js';

/**
 * Files keyed by bundle path: `icon.png`, `logo@2x.png`, `de.lproj/pass.strings` …
 *
 * @example
 * ```ts
 * const files: PassFiles = { 'icon.png': icon, 'de.lproj/pass.strings': encodePassStrings({ Seat: 'Sitzplatz' }) };
 * ```
 */
export type PassFiles = Readonly<Record<string, Uint8Array>> | ReadonlyMap<string, Uint8Array>;

/** One prepared file: checked, hashed and laid out for the zip both ways. */
export interface PreparedFile extends BundleFile {
  /** Deflated when that saves space (PNGs rarely gain: they are usually stored). */
  readonly compressed: ZipEntry;
  readonly stored: ZipEntry;
}

/**
 * Files ready to be packed into many passes (see {@link prepareFiles}).
 * Holds the warnings found while preparing them; `packPass` reports them again.
 *
 * @example
 * ```ts
 * const prepared = await prepareFiles({ 'icon.png': icon, 'icon@2x.png': icon2x });
 * prepared.paths; // ['icon.png', 'icon@2x.png']
 * ```
 */
export class PreparedFiles {
  /** The files, sorted by path (the order they take in every package). */
  readonly files: readonly PreparedFile[];
  /** Issues found while preparing: warnings only, unless made through packPass with raw files. */
  readonly issues: readonly Issue[];

  /** @internal Use {@link prepareFiles}. */
  constructor(files: readonly PreparedFile[], issues: readonly Issue[]) {
    this.files = files;
    this.issues = issues;
  }

  /** The bundle paths, sorted. */
  get paths(): string[] {
    return this.files.map((file) => file.path);
  }
}

/**
 * Hashes, checks and compresses a pass's files once, for many passes:
 * `packPass(pass, prepared, signer)` then costs only the pass's own
 * `pass.json`, its manifest and its signature. Paths must be safe and not
 * reserved, images PNG, `pass.strings` readable — otherwise a
 * {@link PackError} with every issue. The checks that need the pass (icon,
 * images of the style, sizes) run in `packPass`.
 *
 * @example
 * ```ts
 * const prepared = await prepareFiles({ 'icon.png': icon, 'logo.png': logo, 'de.lproj/pass.strings': strings });
 * for (const pass of passes) await packPass(pass, prepared, signer);
 * ```
 */
export async function prepareFiles(files: PassFiles): Promise<PreparedFiles> {
  const prepared = await prepare(files);
  if (prepared.issues.some((issue) => issue.severity === 'error')) throw new PackError('The files cannot be packed', prepared.issues);
  return prepared;
}

/** {@link prepareFiles} without the throw: errors are kept in `issues`. */
export async function prepare(files: PassFiles): Promise<PreparedFiles> {
  const issues: Issue[] = [];
  // Copied: a caller reusing its buffers after prepareFiles must not change what was hashed.
  const pairs = listFiles(files, issues).map(([path, bytes]): [string, Uint8Array] => [path, bytes instanceof Uint8Array ? bytes.slice() : bytes]);
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Each file's issues in a list of its own, joined in path order: the order does not depend on which digest resolves first.
  const perFile = pairs.map((): Issue[] => []);
  const checked = await Promise.all(pairs.map(([path, bytes], index) => inspectFile(path, bytes, perFile[index]!)));
  for (const list of perFile) for (const issue of list) issues.push(issue);
  caseCollisions(
    pairs.map(([path]) => path),
    issues,
  );
  const out: PreparedFile[] = [];
  for (const file of checked) {
    if (file === undefined) continue;
    const stored = zipEntry(file.path, file.bytes, false);
    // PNG data is deflated already: storing it saves the time and loses nothing.
    const compressed = file.image === undefined ? deflated(stored) : stored;
    out.push({ ...file, compressed, stored });
  }
  return new PreparedFiles(out, issues);
}

function listFiles(files: PassFiles, issues: Issue[]): [string, Uint8Array][] {
  if (files instanceof Map) {
    const pairs: [string, Uint8Array][] = [];
    for (const [key, value] of files as ReadonlyMap<unknown, Uint8Array>) {
      if (typeof key === 'string') pairs.push([key, value]);
      else issues.push({ severity: 'error', code: 'invalid-type', message: 'A file name must be a string', path: '' });
    }
    return pairs;
  }
  if (typeof files !== 'object' || files === null) {
    issues.push({ severity: 'error', code: 'invalid-type', message: 'The files must be an object or a Map of bundle paths to bytes', path: '' });
    return [];
  }
  const pairs: [string, Uint8Array][] = [];
  for (const key of Object.keys(files)) {
    const value = Object.getOwnPropertyDescriptor(files, key)?.value as unknown;
    if (value === undefined) issues.push({ severity: 'error', code: 'invalid-type', message: `The content of ${preview(key)} is not set`, path: `/${key}` });
    else pairs.push([key, value as Uint8Array]);
  }
  return pairs;
}
