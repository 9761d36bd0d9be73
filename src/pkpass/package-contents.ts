// The first steps readPass and verifyPass share: the archive, its names, pass.json.

import type { Issue } from '../issues.js';
import { checkPath } from './paths.js';
import { type ReadLimits, readZip } from './zip-read.js';

/** An archive opened as a pass bundle, with what stood in the way. */
export interface OpenedPackage {
  readonly files: Map<string, Uint8Array>;
  readonly issues: Issue[];
  /** pass.json parsed; `undefined` when missing or not JSON (an issue says which). */
  readonly pass?: unknown;
}

/** Opens an archive: zip issues, unsafe names (left out of `files`), pass.json. */
export function openPackage(bytes: Uint8Array, limits: ReadLimits = {}): OpenedPackage {
  const { files, issues } = readZip(bytes, limits);
  for (const name of [...files.keys()]) {
    const unsafe = checkPath(name);
    if (unsafe === undefined) continue;
    issues.push(unsafe);
    files.delete(name);
  }
  if (issues.some((issue) => issue.code === 'invalid-zip' && issue.path === '')) return { files, issues };
  const passBytes = files.get('pass.json');
  if (passBytes === undefined) {
    // Unless reading failed where pass.json may have been (an unnamed entry, the whole archive).
    if (!issues.some((issue) => issue.path === '/pass.json' || issue.path === '')) {
      issues.push({ severity: 'error', code: 'missing-pass-json', message: 'The package has no pass.json', path: '/pass.json' });
    }
    return { files, issues };
  }
  try {
    const pass: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(passBytes));
    return { files, issues, pass };
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${error.message}` : ' (not UTF-8)';
    issues.push({ severity: 'error', code: 'invalid-json', message: `pass.json is not JSON${reason}`, path: '/pass.json' });
    return { files, issues };
  }
}
