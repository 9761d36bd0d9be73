// The zip container, written by hand: a few dozen lines, and every header is
// ours — sizes and CRC in the local headers (no data descriptors, which some
// Wallet versions are not proven to accept), fixed timestamps, fixed order.
// Entries are compressed beforehand (once per template for shared files) and
// only copied here.

import { deflateSync } from 'fflate';
import { crc32 } from './crc32.js';

/** One file, ready to be copied into a zip. */
export interface ZipEntry {
  /** The name's UTF-8 bytes. */
  readonly name: Uint8Array;
  /** Whether the name has non-ASCII characters (general-purpose flag bit 11). */
  readonly utf8: boolean;
  readonly crc: number;
  /** Uncompressed size. */
  readonly size: number;
  /** 0 stored, 8 deflated. */
  readonly method: 0 | 8;
  /** The bytes as stored in the archive (deflated when `method` is 8). */
  readonly data: Uint8Array;
}

const encoder = new TextEncoder();

/**
 * A deflate level, 1 (fastest) to 9 (smallest).
 *
 * @example
 * ```ts
 * const level: DeflateLevel = 1; // per-pass JSON: within 1 % of level 6's size, in half its time
 * ```
 */
export type DeflateLevel = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/**
 * Makes an entry for `bytes`: deflated at `level` (default 6) when `compress`
 * and that saves space, else stored.
 *
 * @example
 * ```ts
 * const entry = zipEntry('pass.json', json, true, 1);
 * ```
 */
export function zipEntry(name: string, bytes: Uint8Array, compress: boolean, level: DeflateLevel = 6): ZipEntry {
  const nameBytes = encoder.encode(name);
  const stored: ZipEntry = { name: nameBytes, utf8: nameBytes.length !== name.length, crc: crc32(bytes), size: bytes.length, method: 0, data: bytes };
  return compress ? deflated(stored, level) : stored;
}

/** A stored entry deflated at `level` (default 6), when that saves space (else the entry itself). */
export function deflated(stored: ZipEntry, level: DeflateLevel = 6): ZipEntry {
  if (stored.method !== 0 || stored.size === 0) return stored;
  const data = deflateSync(stored.data, { level });
  return data.length < stored.size ? { ...stored, method: 8, data } : stored;
}

/** MS-DOS date and time (local-time fields; we write UTC), clamped to 1980–2107. */
export function dosDateTime(date: Date): { time: number; date: number } {
  const ms = date.getTime();
  if (!Number.isFinite(ms) || date.getUTCFullYear() < 1980) return { time: 0, date: (0 << 9) | (1 << 5) | 1 };
  if (date.getUTCFullYear() > 2107) return { time: (23 << 11) | (59 << 5) | 29, date: (127 << 9) | (12 << 5) | 31 };
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    date: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

const LOCAL = 30;
const CENTRAL = 46;
const END = 22;
// Version made by: Unix (3), zip 2.0; external attributes: a regular file, rw-r--r--.
const MADE_BY = (3 << 8) | 20;
const REGULAR_FILE = (0o100644 << 16) >>> 0;

// The 26 bytes a local header (at offset 4) and its central directory entry
// (at offset 6) share, in the same order: version needed, flags (UTF-8 name),
// method, DOS time and date, CRC-32, compressed and uncompressed sizes, name length.
function writeSharedFields(view: DataView, at: number, entry: ZipEntry, time: number, day: number): void {
  view.setUint16(at, entry.method === 8 ? 20 : 10, true);
  view.setUint16(at + 2, entry.utf8 ? 0x0800 : 0, true);
  view.setUint16(at + 4, entry.method, true);
  view.setUint16(at + 6, time, true);
  view.setUint16(at + 8, day, true);
  view.setUint32(at + 10, entry.crc, true);
  view.setUint32(at + 14, entry.data.length, true);
  view.setUint32(at + 18, entry.size, true);
  view.setUint16(at + 22, entry.name.length, true);
}

/**
 * Lays `entries` out as a zip archive, in the given order, every entry dated `date`.
 *
 * @example
 * ```ts
 * const bytes = writeZip([zipEntry('a.txt', data, true)], new Date());
 * ```
 */
export function writeZip(entries: readonly ZipEntry[], date: Date): Uint8Array<ArrayBuffer> {
  let size = END;
  for (const entry of entries) size += LOCAL + CENTRAL + 2 * entry.name.length + entry.data.length;
  if (entries.length > 0xffff || size > 0xffffffff) throw new RangeError('A zip this large needs zip64, which passes never do');
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const { time, date: day } = dosDateTime(date);
  const offsets: number[] = [];
  let at = 0;
  for (const entry of entries) {
    offsets.push(at);
    view.setUint32(at, 0x04034b50, true);
    writeSharedFields(view, at + 4, entry, time, day);
    view.setUint16(at + 28, 0, true);
    out.set(entry.name, at + LOCAL);
    at += LOCAL + entry.name.length;
    out.set(entry.data, at);
    at += entry.data.length;
  }
  const directory = at;
  entries.forEach((entry, index) => {
    view.setUint32(at, 0x02014b50, true);
    view.setUint16(at + 4, MADE_BY, true);
    writeSharedFields(view, at + 6, entry, time, day);
    // extra, comment, disk, internal attributes: 0
    view.setUint32(at + 38, REGULAR_FILE, true);
    view.setUint32(at + 42, offsets[index]!, true);
    out.set(entry.name, at + CENTRAL);
    at += CENTRAL + entry.name.length;
  });
  view.setUint32(at, 0x06054b50, true);
  view.setUint16(at + 8, entries.length, true);
  view.setUint16(at + 10, entries.length, true);
  view.setUint32(at + 12, at - directory, true);
  view.setUint32(at + 16, directory, true);
  return out;
}
