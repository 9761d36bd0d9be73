import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../src/cli/io.js';

/** An io that records what a command writes, rooted in `cwd`. */
export function captureIo(cwd: string, env: Record<string, string> = {}): { io: CliIo; stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: (text) => void (out += text), stderr: (text) => void (err += text), cwd, env },
    stdout: () => out,
    stderr: () => err,
  };
}

/** A fresh temporary folder, and a function that removes it. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `passmint-cli-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
