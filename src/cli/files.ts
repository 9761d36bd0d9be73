import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliIo } from './io.js';
import { UsageError } from './usage-error.js';

/** A path from the command line, resolved against the command's working directory. */
export function resolvePath(io: CliIo, path: string): string {
  return resolve(io.cwd, path);
}

/**
 * The bytes of a file named on the command line. A file that cannot be read is
 * a usage error whose message says which file and why.
 *
 * @example
 * ```ts
 * const bytes = readInput(io, 'pass.pkpass', 'the .pkpass to verify');
 * ```
 */
export function readInput(io: CliIo, path: string, what: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(resolvePath(io, path)));
  } catch (error) {
    throw new UsageError(`Cannot read ${what} ${path}: ${reason(error)}`);
  }
}

/** A text file (UTF-8; a leading byte-order mark is dropped, as editors hide it). */
export function readTextInput(io: CliIo, path: string, what: string): string {
  // TextDecoder drops a leading BOM by default (ignoreBOM: false).
  return new TextDecoder('utf-8').decode(readInput(io, path, what));
}

/**
 * Writes a file named on the command line; `mode` (for example 0o600 for a
 * private key) is applied even when the file already existed.
 */
export function writeOutput(io: CliIo, path: string, data: string | Uint8Array, mode?: number): string {
  const target = resolvePath(io, path);
  try {
    writeFileSync(target, data, mode === undefined ? {} : { mode });
    if (mode !== undefined) chmodSync(target, mode);
  } catch (error) {
    throw new UsageError(`Cannot write ${path}: ${reason(error)}`);
  }
  return target;
}

/** A short reason for a failed file operation ("no such file", "permission denied" …). */
export function reason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
