// The zip reader for hostile input. Parses the central directory itself
// (fflate's unzipSync trusts declared sizes) and inflates through fflate's
// streaming Inflate in slices small enough that no slice can expand past the
// entry's declared size by more than a bounded margin: a 1 KB archive that
// claims 4 GB allocates nothing of the sort, and one that lies about its size
// is stopped as soon as its output passes what it declared.

import { Inflate } from 'fflate';
import type { Issue } from '../issues.js';
import { concatBytes } from '../concat-bytes.js';
import { crc32 } from './crc32.js';
import { filePointer, preview } from './paths.js';

/**
 * Limits for reading an archive: anything beyond them is `zip-limit-exceeded`.
 *
 * @example
 * ```ts
 * await readPass(bytes, { maxTotalSize: 5_000_000 });
 * ```
 */
export interface ReadLimits {
  /** Most entries (default 1,000; a pass has a few dozen). */
  readonly maxEntries?: number;
  /** Most bytes of all entries together, uncompressed (default 50 MB). */
  readonly maxTotalSize?: number;
  /** Most bytes of one entry, uncompressed (default 20 MB). */
  readonly maxEntrySize?: number;
  /** Highest compression ratio of an entry over 1 MB uncompressed (default 200; deflate tops out near 1,032). */
  readonly maxRatio?: number;
  /** Longest entry name in bytes (default 1,024). */
  readonly maxNameLength?: number;
}

const DEFAULTS: Required<ReadLimits> = {
  maxEntries: 1000,
  maxTotalSize: 50 * 1024 * 1024,
  maxEntrySize: 20 * 1024 * 1024,
  maxRatio: 200,
  maxNameLength: 1024,
};

/** What reading an archive gives: its files (directories left out) and what went wrong. */
export interface ZipContents {
  /** Files by name, in the archive's order. */
  readonly files: Map<string, Uint8Array>;
  readonly issues: Issue[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
// Deflate cannot expand one input byte into more than 258 × 4 output bytes
// (a length-258 match per 2-bit code at best); a slice of input is bounded by that.
const MAX_EXPANSION = 1032;

const containerIssue = (message: string): ZipContents => ({
  files: new Map(),
  issues: [{ severity: 'error', code: 'invalid-zip', message, path: '' }],
});

/**
 * Reads a zip archive within `limits`. Never throws on any bytes: broken
 * archives, lying sizes, zip bombs, duplicates and encrypted entries come
 * back as issues (`invalid-zip`, `zip-limit-exceeded`, `duplicate-entry`,
 * `unsafe-path` for symbolic links and undecodable names); entries with an
 * issue are left out of `files`.
 *
 * @example
 * ```ts
 * const { files, issues } = readZip(bytes);
 * ```
 */
export function readZip(bytes: Uint8Array, limits: ReadLimits = {}): ZipContents {
  const limit = { ...DEFAULTS, ...definedOnly(limits) };
  if (!(bytes instanceof Uint8Array)) return containerIssue('The package is not bytes (a Uint8Array)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEnd(bytes, view);
  if (end < 0) return containerIssue('Not a zip archive: no end of central directory record');
  const count = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0 || view.getUint16(end + 8, true) !== count) {
    return containerIssue('Multi-disk zip archives are not supported');
  }
  // 0xffff entries means "see the zip64 record": at least that many, over any sane limit.
  if (count > limit.maxEntries) {
    const counted = count === 0xffff ? 'at least 65,535' : String(count);
    return { files: new Map(), issues: [limitIssue(`The archive has ${counted} entries, more than the limit of ${limit.maxEntries}`, '')] };
  }
  if (count === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
    return containerIssue('Zip64 archives are not supported (a pass is far smaller than 4 GB)');
  }
  if (directoryOffset + directorySize > end) return containerIssue('The central directory lies outside the archive');
  if (count * 46 > directorySize)
    return containerIssue(`The central directory claims ${count} entries but only has room for ${Math.floor(directorySize / 46)}`);

  const files = new Map<string, Uint8Array>();
  const issues: Issue[] = [];
  const spans: [number, number][] = [];
  let total = 0;
  let at = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > directoryOffset + directorySize || view.getUint32(at, true) !== 0x02014b50) {
      issues.push({ severity: 'error', code: 'invalid-zip', message: `Central directory record ${index} is broken`, path: '' });
      return { files, issues };
    }
    const madeBy = view.getUint16(at + 4, true);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const recordLength = 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const external = view.getUint32(at + 38, true);
    const localOffset = view.getUint32(at + 42, true);
    if (at + recordLength > directoryOffset + directorySize) {
      issues.push({ severity: 'error', code: 'invalid-zip', message: `Central directory record ${index} runs past the directory`, path: '' });
      return { files, issues };
    }
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    at += recordLength;

    if (nameLength > limit.maxNameLength) {
      issues.push({
        severity: 'error',
        code: 'unsafe-path',
        message: `Entry ${index} has a name of ${nameLength} bytes, longer than the limit of ${limit.maxNameLength}`,
        path: '',
      });
      continue;
    }
    let name: string;
    try {
      name = utf8.decode(nameBytes);
    } catch {
      issues.push({ severity: 'error', code: 'unsafe-path', message: `Entry ${index} has a name that is not UTF-8`, path: '' });
      continue;
    }
    const path = filePointer(name);
    const fail = (code: 'invalid-zip' | 'zip-limit-exceeded' | 'unsafe-path', message: string): void => {
      issues.push({ severity: 'error', code, message: `${preview(name)}: ${message}`, path });
    };
    if (madeBy >> 8 === 3 && ((external >>> 16) & 0o170000) === 0o120000) {
      fail('unsafe-path', 'the entry is a symbolic link');
      continue;
    }
    if (name.endsWith('/') && size === 0) continue; // a directory entry, as `zip -r` writes them
    if (flags & 0x0001) {
      fail('invalid-zip', 'the entry is encrypted');
      continue;
    }
    if (method !== 0 && method !== 8) {
      fail('invalid-zip', `compression method ${method} is not supported (only stored and deflated)`);
      continue;
    }
    if (files.has(name)) {
      issues.push({ severity: 'error', code: 'duplicate-entry', message: `${preview(name)} appears more than once in the archive`, path });
      continue;
    }
    if (size > limit.maxEntrySize) {
      fail('zip-limit-exceeded', `it declares ${size} bytes, more than the limit of ${limit.maxEntrySize} per entry`);
      continue;
    }
    if (total + size > limit.maxTotalSize) {
      fail('zip-limit-exceeded', `the entries declare more than the limit of ${limit.maxTotalSize} bytes in all`);
      continue;
    }
    if (size > 1024 * 1024 && size > compressedSize * limit.maxRatio) {
      fail('zip-limit-exceeded', `its compression ratio is above the limit of ${limit.maxRatio}`);
      continue;
    }
    if (localOffset + 30 > directoryOffset || view.getUint32(localOffset, true) !== 0x04034b50) {
      fail('invalid-zip', 'its local header is missing');
      continue;
    }
    const localNameLength = view.getUint16(localOffset + 26, true);
    const dataStart = localOffset + 30 + localNameLength + view.getUint16(localOffset + 28, true);
    const dataEnd = dataStart + compressedSize;
    if (dataEnd > directoryOffset) {
      fail('invalid-zip', 'its data runs past the start of the central directory');
      continue;
    }
    if (!sameBytes(bytes.subarray(localOffset + 30, localOffset + 30 + localNameLength), nameBytes)) {
      fail('invalid-zip', 'its local header names another file');
      continue;
    }
    spans.push([localOffset, dataEnd]);
    const data = bytes.subarray(dataStart, dataEnd);
    const content = method === 0 ? (compressedSize === size ? data : undefined) : inflateAtMost(data, size);
    if (content === undefined || content.length !== size) {
      fail('invalid-zip', 'its data does not inflate to the declared size');
      continue;
    }
    if (crc32(content) !== crc) {
      fail('invalid-zip', 'its CRC-32 does not match');
      continue;
    }
    total += size;
    files.set(name, content);
  }
  // Entries sharing bytes are how the smallest zip bombs multiply their output.
  spans.sort((a, b) => a[0] - b[0]);
  for (let index = 1; index < spans.length; index++) {
    if (spans[index]![0] < spans[index - 1]![1]) {
      issues.push({ severity: 'error', code: 'invalid-zip', message: 'Entries of the archive overlap', path: '' });
      break;
    }
  }
  return { files, issues };
}

function limitIssue(message: string, path: string): Issue {
  return { severity: 'error', code: 'zip-limit-exceeded', message, path };
}

function definedOnly(limits: ReadLimits): ReadLimits {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(limits)) if (typeof value === 'number' && value >= 0) out[key] = value;
  return out;
}

/** The offset of the end of central directory record, or -1. */
function findEnd(bytes: Uint8Array, view: DataView): number {
  const last = bytes.length - 22;
  const first = Math.max(0, last - 0xffff);
  for (let at = last; at >= first; at--) {
    if (bytes[at] === 0x50 && view.getUint32(at, true) === 0x06054b50 && at + 22 + view.getUint16(at + 20, true) === bytes.length) return at;
  }
  return -1;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * Inflates raw deflate data, giving up (undefined) as soon as the output
 * passes `size` bytes or the data is broken. Input goes in slices of at most
 * (room left) / 1032 bytes, so one slice never expands far past the budget.
 */
function inflateAtMost(data: Uint8Array, size: number): Uint8Array | undefined {
  // Chunks as they come, joined at the end: memory follows the real output,
  // never the declared size (which a 1 KB archive can set to 4 GB).
  const chunks: Uint8Array[] = [];
  let written = 0;
  let over = false;
  const inflate = new Inflate((chunk) => {
    if (over) return;
    if (written + chunk.length > size) {
      over = true;
      return;
    }
    chunks.push(chunk);
    written += chunk.length;
  });
  try {
    let at = 0;
    while (at < data.length && !over) {
      const slice = Math.min(65536, Math.max(64, Math.floor((size - written) / MAX_EXPANSION)));
      const next = Math.min(data.length, at + slice);
      inflate.push(data.subarray(at, next), next === data.length);
      at = next;
    }
    if (data.length === 0) inflate.push(data, true);
  } catch {
    return undefined;
  }
  if (over) return undefined;
  if (chunks.length === 1) return chunks[0];
  return concatBytes(chunks, written);
}
