// Bundle paths: what a caller may name a file, and how an issue points at it.
//
// Issue paths follow one convention across packPass, readPass and verifyPass:
// the bundle is a tree whose leaves are files, and a path is an RFC 6901 JSON
// Pointer into it — '/icon.png', '/de.lproj/pass.strings'. The contents of
// the two JSON files continue below them: '/pass.json/generic/primaryFields/0'
// (what validatePass reports at '/generic/primaryFields/0'),
// '/manifest.json/de.lproj~1pass.strings' (a manifest key is one token).

import type { Issue } from '../issues.js';
import { joinPointer } from '../issues.js';

/** The three names the library writes itself. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['pass.json', 'manifest.json', 'signature']);

/** Longest path accepted, in UTF-16 code units (Apple's own limit for a path is 1024 bytes). */
export const MAX_PATH_LENGTH = 1024;
/** Longest segment: the usual file-system limit for one name. */
const MAX_SEGMENT_LENGTH = 255;

/** The issue path of a file of the bundle: its segments as JSON Pointer tokens. */
export function filePointer(path: string): string {
  return `/${path.includes('~') ? path.replace(/~/g, '~0') : path}`;
}

/** The issue path of a location inside pass.json (`pointer` as validatePass reports it). */
export function passJsonPointer(pointer: string): string {
  return `/pass.json${pointer}`;
}

/** The issue path of a manifest entry. */
export function manifestPointer(key: string): string {
  return joinPointer('/manifest.json', key);
}

// C0 and C1 controls, DEL, and the characters that change the way a name is displayed or compared.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/**
 * Why `path` cannot be a file of a pass, or `undefined` when it can: no
 * absolute path, no `.`/`..`/empty segment, no backslash, no control or
 * bidirectional-override character, no NUL, no name longer than the limits.
 */
export function unsafePathReason(path: string): string | undefined {
  if (path.length === 0) return 'the path is empty';
  if (path.length > MAX_PATH_LENGTH) return `the path is longer than ${MAX_PATH_LENGTH} characters`;
  if (path.includes('\\')) return 'the path holds a backslash';
  if (UNSAFE_CHARACTERS.test(path)) return 'the path holds a control or formatting character';
  if (path.startsWith('/')) return 'the path is absolute';
  if (/^[A-Za-z]:/.test(path)) return 'the path starts with a drive letter';
  for (const segment of path.split('/')) {
    if (segment === '') return 'the path has an empty segment';
    if (segment === '.' || segment === '..') return `the path has a "${segment}" segment`;
    if (segment.length > MAX_SEGMENT_LENGTH) return `a segment is longer than ${MAX_SEGMENT_LENGTH} characters`;
  }
  return undefined;
}

/** The `unsafe-path` issue for `path`, or `undefined` when it is safe. */
export function checkPath(path: string): Issue | undefined {
  const reason = unsafePathReason(path);
  if (reason === undefined) return undefined;
  return { severity: 'error', code: 'unsafe-path', message: `Unsafe file name ${preview(path)}: ${reason}`, path: filePointer(path.slice(0, MAX_PATH_LENGTH)) };
}

/** A short, printable rendering of a name for a message. */
export function preview(name: string): string {
  const short = name.length > 60 ? `${name.slice(0, 60)}…` : name;
  return JSON.stringify(short);
}

/** A `.lproj` folder name: a language, optionally with script and region (`de`, `pt-BR`, `zh-Hans`, `en_GB`). */
export const LPROJ: RegExp = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*\.lproj$/;
