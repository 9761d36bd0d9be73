// .pkpasses: several passes in one download (iOS 15+).

import { PackError } from './pack-error.js';
import { checkPath, preview } from './paths.js';
import { writeZip, zipEntry } from './zip-write.js';

/** Most passes in one .pkpasses bundle, and most bytes (Apple's limits). */
export const MAX_PASSES = 10;
export const MAX_PASSES_BYTES: number = 150 * 1024 * 1024;

/**
 * Bundles 1 to 10 signed `.pkpass` files into one `.pkpasses` file (at most
 * 150 MB), served as {@link PKPASSES_MIME_TYPE}; Wallet offers to add them all.
 * Entries are named `pass-1.pkpass` … unless given as `[name, bytes]` pairs.
 * Throws a {@link PackError} `too-many-passes` outside those limits
 * (`unsafe-path`, `duplicate-entry` for bad names).
 *
 * @example
 * ```ts
 * const bundle = packPasses([await packPass(a, files, signer), await packPass(b, files, signer)]);
 * ```
 */
export function packPasses(
  pkpasses: readonly Uint8Array[] | readonly (readonly [string, Uint8Array])[],
  options: { readonly date?: Date } = {},
): Uint8Array<ArrayBuffer> {
  const named = pkpasses.map((entry, index) => (entry instanceof Uint8Array ? ([`pass-${index + 1}.pkpass`, entry] as const) : entry));
  const total = named.reduce((sum, [, bytes]) => sum + (bytes instanceof Uint8Array ? bytes.length : 0), 0);
  if (named.length === 0 || named.length > MAX_PASSES || total > MAX_PASSES_BYTES) {
    const message =
      named.length === 0
        ? 'A .pkpasses bundle needs at least one pass'
        : named.length > MAX_PASSES
          ? `A .pkpasses bundle holds at most ${MAX_PASSES} passes, not ${named.length}`
          : `A .pkpasses bundle holds at most 150 MB, not ${total} bytes`;
    throw new PackError('The passes cannot be bundled', [{ severity: 'error', code: 'too-many-passes', message, path: '' }]);
  }
  const seen = new Set<string>();
  const issues = [];
  for (const [name, bytes] of named) {
    const unsafe = typeof name === 'string' ? checkPath(name) : undefined;
    if (typeof name !== 'string' || !(bytes instanceof Uint8Array))
      issues.push({ severity: 'error' as const, code: 'invalid-type' as const, message: 'Each pass is bytes (a Uint8Array), named by a string', path: '' });
    else if (unsafe !== undefined) issues.push(unsafe);
    else if (seen.has(name))
      issues.push({ severity: 'error' as const, code: 'duplicate-entry' as const, message: `${preview(name)} is given twice`, path: `/${name}` });
    seen.add(name);
  }
  if (issues.length > 0) throw new PackError('The passes cannot be bundled', issues);
  // A .pkpass is deflated already: store it.
  return writeZip(
    named.map(([name, bytes]) => zipEntry(name, bytes, false)),
    options.date ?? new Date(),
  );
}
