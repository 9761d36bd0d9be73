import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-files.js';

const LOCK_FILE = 'passmint.pid';

// Folders this process holds: its own pid in a lock file is no proof (a pid is reused across runs).
const held = new Set<string>();

/**
 * Claims a PGlite data folder for this process: PGlite is PostgreSQL in one
 * process, and two processes writing one folder would corrupt it. The lock
 * is a file holding the owner's pid, created exclusively; one left by a
 * process that no longer runs (killed with SIGKILL) is taken over. Throws
 * when a running process holds the folder. Returns the release function.
 * The folder is made (or made again) the owner's alone (0700), and the lock
 * file too (0600), whatever the umask.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  chmodSync(dataDir, PRIVATE_FOLDER_MODE);
  const path = join(resolve(dataDir), LOCK_FILE);
  if (held.has(path)) throw new Error(`The data folder ${dataDir} is in use by process ${process.pid} (this one).`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held.add(path);
      return () => {
        held.delete(path);
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
    const owner = Number(readOwner(path));
    if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
      throw new Error(
        `The data folder ${dataDir} is in use by process ${owner}. One process per PGlite folder; to run several, use PostgreSQL (DATABASE_URL).`,
      );
    }
    // Left by a process that is gone (or by this one): take it over.
    try {
      unlinkSync(path);
    } catch {
      // Another starter took it over first; the next attempt finds out whose it is.
    }
  }
  throw new Error(`The data folder ${dataDir} is being opened by another process at the same moment.`);
}

function readOwner(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
