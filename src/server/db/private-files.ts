// The data folder belongs to the service's user alone: folders 0700, files
// 0600, whatever the umask of the process that made them.
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folders: read, write and enter by the owner only. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** Files: read and write by the owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `folder` and everything under it the owner's alone (folders 0700,
 * files 0600); symbolic links are left as they are, and not followed.
 *
 * @example
 * ```ts
 * restrictFolder('./passmint-data');
 * ```
 */
export function restrictFolder(folder: string): void {
  const stat = lstatSync(folder);
  if (stat.isSymbolicLink()) return;
  if (!stat.isDirectory()) {
    if ((stat.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(folder, PRIVATE_FILE_MODE);
    return;
  }
  if ((stat.mode & 0o777) !== PRIVATE_FOLDER_MODE) chmodSync(folder, PRIVATE_FOLDER_MODE);
  for (const name of readdirSync(folder)) restrictFolder(join(folder, name));
}

/**
 * Runs `work` with a umask that keeps every file it creates the owner's
 * alone (group and others bits cleared), then puts the umask back. Where the
 * umask cannot be changed (a worker thread), `work` runs as it is.
 *
 * @example
 * ```ts
 * const db = await withPrivateUmask(() => PGlite.create({ dataDir }));
 * ```
 */
export async function withPrivateUmask<TResult>(work: () => Promise<TResult>): Promise<TResult> {
  let previous: number | undefined;
  try {
    previous = process.umask(0o077);
  } catch {
    previous = undefined;
  }
  try {
    return await work();
  } finally {
    if (previous !== undefined) process.umask(previous);
  }
}
