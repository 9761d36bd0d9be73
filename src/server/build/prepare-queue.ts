// A template's files prepared (hashed, checked, compressed) off the hot path:
// one bundle at a time, one file at a time, the event loop free between
// files, large files compressed in a worker thread, so a large bundle never
// holds up other requests for longer than hashing one file.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Issue } from '../../issues.js';
import { caseCollisions, inspectFile } from '../../pkpass/bundle-files.js';
import { PackError } from '../../pkpass/pack-error.js';
import { type PreparedFile, PreparedFiles, prepare } from '../../pkpass/prepare.js';
import { type ZipEntry, zipEntry } from '../../pkpass/zip-write.js';
import { deflateOffThread, IN_PLACE_BYTES } from './deflate-off-thread.js';

/**
 * Prepares bundles in order, one at a time.
 *
 * @example
 * ```ts
 * const queue: PrepareQueue = createPrepareQueue();
 * const prepared = await queue.prepare(new Map([['icon.png', icon]]));
 * ```
 */
export interface PrepareQueue {
  /** Like `prepareFiles`, file by file, after the bundles queued before it; a {@link PackError} for files Wallet refuses. */
  prepare(files: ReadonlyMap<string, Uint8Array>): Promise<PreparedFiles>;
}

/**
 * Makes a queue.
 *
 * @example
 * ```ts
 * const queue = createPrepareQueue();
 * ```
 */
export function createPrepareQueue(): PrepareQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    prepare(files) {
      const run = tail.then(() => prepareByFile(files));
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

async function prepareByFile(files: ReadonlyMap<string, Uint8Array>): Promise<PreparedFiles> {
  const paths = [...files.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const prepared: PreparedFile[] = [];
  const issues: Issue[] = [];
  for (const path of paths) {
    await nextTurn();
    const bytes = files.get(path)!;
    if (bytes.byteLength < IN_PLACE_BYTES) {
      const one = await prepare(new Map([[path, bytes]]));
      prepared.push(...one.files);
      issues.push(...one.issues);
      continue;
    }
    // A large file: checked and hashed here, compressed in a worker thread (when it is not a PNG, which is stored).
    const file = await inspectFile(path, bytes, issues);
    if (file === undefined) continue;
    const stored = zipEntry(file.path, file.bytes, false);
    const data = file.image === undefined ? await deflateOffThread(file.bytes, 6) : undefined;
    const compressed: ZipEntry = data !== undefined && data.byteLength < stored.size ? { ...stored, method: 8, data } : stored;
    prepared.push({ ...file, compressed, stored });
  }
  caseCollisions(paths, issues);
  if (issues.some((issue) => issue.severity === 'error')) throw new PackError('The files cannot be packed', issues);
  return new PreparedFiles(prepared, issues);
}

/**
 * The issues of one uploaded file that do not depend on a pass (path, PNG,
 * `pass.strings`, `personalization.json`): hashed and read, not compressed.
 *
 * @example
 * ```ts
 * const issues = await fileIssues('icon.png', bytes); // [] for a PNG
 * ```
 */
export async function fileIssues(path: string, bytes: Uint8Array): Promise<Issue[]> {
  const issues: Issue[] = [];
  await inspectFile(path, bytes, issues);
  return issues;
}
