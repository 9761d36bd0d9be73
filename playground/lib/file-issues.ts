import type { Issue } from '../../src/index.js';
import { type BundleFile, checkFilesForPass, imageSlot } from '../../src/index.js';

/** An image of the page as the file checks need it: its bundle path and pixel size. */
export interface ImageFile {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/**
 * What packPass would say about the pass and these files, before any signing:
 * the same check (`missing-icon`, `unused-image`, `image-size`), so the Issues
 * list shows from the first screen every file problem signing would stop at.
 *
 * @example
 * ```ts
 * fileIssues(pass, []); // [{ severity: 'error', code: 'missing-icon', path: '/icon.png', … }]
 * ```
 */
export function fileIssues(pass: unknown, files: Iterable<ImageFile>): Issue[] {
  const bundle: BundleFile[] = [];
  for (const file of files) {
    const slot = imageSlot(file.path);
    // The hash is not read by the checks: the files are hashed when they are packed.
    bundle.push({
      path: file.path,
      bytes: file.bytes,
      sha1: '',
      ...(slot === undefined ? {} : { image: { name: slot.image, scale: slot.scale, size: { width: file.width, height: file.height } } }),
    });
  }
  const issues: Issue[] = [];
  checkFilesForPass(pass, bundle, issues);
  return issues;
}
