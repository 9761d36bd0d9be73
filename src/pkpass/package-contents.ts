// The first steps readPass and verifyPass share: the archive, its names, pass.json.

import type { Issue } from '../issues.js';
import { parseJsonText } from '../json-text.js';
import { checkNumberFidelity } from './json-fidelity.js';
import { checkPath, passJsonPointer } from './paths.js';
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
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(passBytes);
  } catch {
    issues.push({ severity: 'error', code: 'invalid-json', message: 'pass.json is not JSON (not UTF-8)', path: '/pass.json' });
    return { files, issues };
  }
  // Read as Apple's reader reads it: a trailing comma is a warning, a repeated key a warning (one of the two is lost).
  const parsed = parseJsonText(text);
  for (const issue of parsed.issues) {
    if (issue.code === 'invalid-json') issues.push({ ...issue, message: `pass.json is not JSON: ${issue.message}`, path: '/pass.json' });
    else issues.push({ ...issue, message: `pass.json: ${issue.message}`, path: passJsonPointer(issue.path) });
  }
  if (!('value' in parsed)) return { files, issues };
  checkNumberFidelity(text, '/pass.json', issues);
  return { files, issues, pass: parsed.value };
}
