import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reason } from './files.js';
import { UsageError } from './usage-error.js';

/** What {@link readPassFolder} found: the files by bundle path, and what it left out and why. */
export interface PassFolder {
  /** Every file but pass.json, by bundle path (`icon.png`, `de.lproj/pass.strings`). */
  readonly files: Map<string, Uint8Array>;
  /** Files and folders refused (symbolic links) — packing stops for these. */
  readonly refused: readonly string[];
  /** Notes on what was skipped on purpose (a stale manifest.json or signature, other non-files). */
  readonly skipped: readonly string[];
}

// pack writes these itself; copies left over from an unpacked .pkpass are stale.
const WRITTEN_BY_PACK = new Set(['manifest.json', 'signature']);

/**
 * Reads a folder laid out like the input of Apple's `signpass -p`: pass.json,
 * images, `xx.lproj/` folders. Dotfiles and dot-folders (`.DS_Store`, `.git`)
 * are ignored; symbolic links are refused (Wallet's checker refuses a pass
 * holding one, and following one could pack a file from outside the folder).
 *
 * @example
 * ```ts
 * const { files, refused } = readPassFolder('/passes/event');
 * ```
 */
export function readPassFolder(folder: string): PassFolder {
  const files = new Map<string, Uint8Array>();
  const refused: string[] = [];
  const skipped: string[] = [];
  const walk = (directory: string, prefix: string): void => {
    let names: string[];
    try {
      names = readdirSync(directory).sort();
    } catch (error) {
      throw new UsageError(`cannot read the folder ${directory}: ${reason(error)}`);
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const path = prefix + name;
      const full = join(directory, name);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) refused.push(path);
      else if (stat.isDirectory()) walk(full, `${path}/`);
      else if (!stat.isFile()) skipped.push(`${path}: not a regular file, skipped`);
      else if (prefix === '' && WRITTEN_BY_PACK.has(name)) skipped.push(`${path}: ignored, pack writes its own`);
      else if (!(prefix === '' && name === 'pass.json')) files.set(path, new Uint8Array(readFileSync(full)));
    }
  };
  walk(folder, '');
  return { files, refused, skipped };
}
