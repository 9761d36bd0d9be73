import type { Issue, Pass } from '../../src/index.js';
import { readPass, verifyPass } from '../../src/pkpass/index.js';
import type { PassVerification } from '../../src/pkpass/index.js';

// Loaded with import() when the first .pkpass is dropped: verifyPass and the
// package reader stay out of the first page load.

/** One file of an inspected package. */
export interface InspectedFile {
  readonly path: string;
  readonly size: number;
  /** What manifest.json says about it: listed with the right hash, the wrong one, or not listed. */
  readonly manifest: 'ok' | 'mismatch' | 'unlisted' | 'n/a';
}

/** Everything the inspector shows about one package. */
export interface Inspection {
  readonly name: string;
  /** Whether the chain was checked up to a root the person gave (else only up to the WWDR in the package). */
  readonly rootChecked: boolean;
  readonly size: number;
  readonly report: PassVerification;
  /** pass.json, when the package could be read. */
  readonly pass?: Pass;
  readonly files: readonly InspectedFile[];
  /** The package's files (images, lproj folders) by path, for the preview and for editing. */
  readonly contents: ReadonlyMap<string, Uint8Array>;
  readonly readIssues: readonly Issue[];
  /** Each language's pass.strings, by language: key → text. */
  readonly strings: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

async function sha1Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Verifies a package as Wallet would (verifyPass, up to `roots` when given) and
 * opens it (readPass) for the preview and the file list. Never throws.
 *
 * @example
 * ```ts
 * const { inspectPackage } = await import('./inspect.js');
 * const inspection = await inspectPackage('ticket.pkpass', bytes);
 * ```
 */
export async function inspectPackage(name: string, bytes: Uint8Array, roots: readonly Uint8Array[] = []): Promise<Inspection> {
  const report = await verifyPass(bytes, roots.length === 0 ? {} : { roots });
  try {
    const opened = await readPass(bytes);
    const files: InspectedFile[] = [];
    const all = new Map<string, Uint8Array>(opened.files);
    // pass.json's bytes are not kept by readPass: its hash is judged by verifyPass's report.
    const passHash = report.issues.find((issue) => issue.path === '/pass.json' && (issue.code === 'hash-mismatch' || issue.code === 'missing-from-manifest'));
    files.push({
      path: 'pass.json',
      size: Number.NaN,
      manifest: opened.manifest === undefined ? 'n/a' : passHash === undefined ? 'ok' : passHash.code === 'hash-mismatch' ? 'mismatch' : 'unlisted',
    });
    for (const [path, data] of opened.files) {
      const listed = opened.manifest?.get(path);
      files.push({
        path,
        size: data.length,
        manifest: opened.manifest === undefined ? 'n/a' : listed === undefined ? 'unlisted' : listed === (await sha1Hex(data)) ? 'ok' : 'mismatch',
      });
    }
    if (opened.manifestBytes !== undefined) files.push({ path: 'manifest.json', size: opened.manifestBytes.length, manifest: 'n/a' });
    if (opened.signature !== undefined) files.push({ path: 'signature', size: opened.signature.length, manifest: 'n/a' });
    return {
      name,
      rootChecked: roots.length > 0,
      size: bytes.length,
      report,
      pass: opened.pass as unknown as Pass,
      files,
      contents: all,
      readIssues: [],
      strings: opened.strings,
    };
  } catch (error) {
    const issues = typeof error === 'object' && error !== null && 'issues' in error ? (error as { issues: readonly Issue[] }).issues : [];
    return { name, rootChecked: roots.length > 0, size: bytes.length, report, files: [], contents: new Map(), readIssues: issues, strings: new Map() };
  }
}
