// manifest.json: every other file's path → lowercase hex SHA-1 of its bytes.
// Written once per pass and signed as written; the bytes stored are the bytes signed.

import type { Issue } from '../issues.js';
import { parseJsonText } from '../json-text.js';
import { manifestPointer } from './paths.js';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Lowercase hexadecimal of some bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let index = 0; index < bytes.length; index++) out += HEX[bytes[index]!];
  return out;
}

/**
 * The manifest's bytes, entries in the given order. Written by hand, not
 * through an object: JSON.stringify would move integer-like names ("1") first.
 */
export function writeManifest(entries: readonly (readonly [string, string])[]): Uint8Array {
  let text = '{';
  entries.forEach(([path, hash], index) => {
    text += `${index === 0 ? '' : ','}\n  ${JSON.stringify(path)} : "${hash}"`;
  });
  return new TextEncoder().encode(`${text}\n}\n`);
}

const SHA1_HEX = /^[0-9a-fA-F]{40}$/;

/**
 * A manifest's entries (hashes lowercased), or the `invalid-manifest` issues
 * that stop it from being one. It is read as Apple's reader reads pass.json
 * (the same parser reads both): a comma after the last entry is a
 * `trailing-comma` warning, a path given twice a `duplicate-key` warning
 * (the last hash counts, as in `JSON.parse`).
 */
export function readManifest(bytes: Uint8Array): { entries: Map<string, string>; issues: Issue[] } {
  const entries = new Map<string, string>();
  const issues: Issue[] = [];
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    issues.push({ severity: 'error', code: 'invalid-manifest', message: 'manifest.json is not UTF-8 JSON', path: '/manifest.json' });
    return { entries, issues };
  }
  const parsed = parseJsonText(text);
  if (!('value' in parsed)) {
    issues.push({ severity: 'error', code: 'invalid-manifest', message: 'manifest.json is not UTF-8 JSON', path: '/manifest.json' });
    return { entries, issues };
  }
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push({ severity: 'error', code: 'invalid-manifest', message: 'manifest.json is not a JSON object', path: '/manifest.json' });
    return { entries, issues };
  }
  for (const issue of parsed.issues) issues.push({ ...issue, message: `manifest.json: ${issue.message}`, path: `/manifest.json${issue.path}` });
  for (const [path, hash] of Object.entries(value)) {
    if (typeof hash === 'string' && SHA1_HEX.test(hash)) entries.set(path, hash.toLowerCase());
    else
      issues.push({
        severity: 'error',
        code: 'invalid-manifest',
        message: `The manifest entry for ${JSON.stringify(path)} is not a hex SHA-1`,
        path: manifestPointer(path),
      });
  }
  return { entries, issues };
}
