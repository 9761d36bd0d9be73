import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { crc32 } from '../../src/pkpass/crc32.js';
import { readZip } from '../../src/pkpass/zip-read.js';
import { dosDateTime, writeZip, zipEntry } from '../../src/pkpass/zip-write.js';
import { png, tempDir, unzipEntry, unzipNames, unzipTest } from './helpers.js';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const codes = (result: { issues: readonly { code: string }[] }): string[] => result.issues.map((issue) => issue.code);
const date = new Date('2026-05-07T10:30:44Z');

function sample(): Uint8Array {
  return writeZip(
    [
      zipEntry('pass.json', text(JSON.stringify({ a: 'x'.repeat(500) })), true),
      zipEntry('icon.png', png(29, 29), false),
      zipEntry('de.lproj/pass.strings', text('"a" = "b";'), true),
      zipEntry('é.txt', text('accent'), true),
    ],
    date,
  );
}

/** A zip with `count` empty stored entries and whatever the EOCD count field is told. */
function manyEntries(count: number, countField = Math.min(count, 0xffff)): Uint8Array {
  const entries = Array.from({ length: Math.min(count, 0xffff) }, (_, index) => zipEntry(`f${index}`, new Uint8Array(), false));
  const bytes = writeZip(entries, date);
  new DataView(bytes.buffer).setUint16(bytes.length - 22 + 8, countField, true);
  new DataView(bytes.buffer).setUint16(bytes.length - 22 + 10, countField, true);
  return bytes;
}

describe('writeZip', () => {
  test('crc32 is the standard CRC-32', () => {
    expect(crc32(text('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });

  test('unzip -t passes, names keep their order, contents extract unchanged', () => {
    const bytes = sample();
    const check = unzipTest(bytes);
    expect(check.status).toBe(0);
    expect(check.output).toContain('No errors detected');
    expect(unzipNames(bytes)).toEqual(['pass.json', 'icon.png', 'de.lproj/pass.strings', 'é.txt']);
    expect(new TextDecoder().decode(unzipEntry(bytes, 'de.lproj/pass.strings'))).toBe('"a" = "b";');
    expect(unzipEntry(bytes, 'icon.png')).toEqual(png(29, 29));
  });

  test('local headers carry sizes and CRC (no data descriptor flag), dated from the given time', () => {
    const bytes = sample();
    const view = new DataView(bytes.buffer);
    const { time, date: day } = dosDateTime(date);
    expect(view.getUint32(0, true)).toBe(0x04034b50);
    expect(view.getUint16(6, true) & 0x0008).toBe(0);
    expect(view.getUint16(8, true)).toBe(8); // pass.json deflated
    expect(view.getUint32(14, true)).toBe(crc32(text(JSON.stringify({ a: 'x'.repeat(500) }))));
    expect(view.getUint32(22, true)).toBe(JSON.stringify({ a: 'x'.repeat(500) }).length);
    expect([view.getUint16(10, true), view.getUint16(12, true)]).toEqual([time, day]);
    // 10:30:44 → hours 10, minutes 30, seconds/2 22; 2026-05-07 → 46, 5, 7
    expect(time).toBe((10 << 11) | (30 << 5) | 22);
    expect(day).toBe((46 << 9) | (5 << 5) | 7);
  });

  test('the same entries and date give the same bytes', () => {
    expect(sample()).toEqual(sample());
  });

  test('non-ASCII names set the UTF-8 flag (bit 11); ASCII names do not', () => {
    const bytes = sample();
    const names = readZip(bytes).files;
    expect([...names.keys()]).toContain('é.txt');
    const view = new DataView(bytes.buffer);
    expect(view.getUint16(6, true) & 0x0800).toBe(0);
  });

  test('fflate zipSync, for the record, also writes sizes in its local headers and flags 0', () => {
    const bytes = zipSync({ 'a.txt': text('hello hello hello hello') });
    const view = new DataView(bytes.buffer);
    expect(view.getUint16(6, true)).toBe(0);
    expect(view.getUint32(22, true)).toBe(23);
  });
});

describe('readZip', () => {
  test('reads what writeZip wrote', () => {
    const { files, issues } = readZip(sample());
    expect(issues).toEqual([]);
    expect([...files.keys()]).toEqual(['pass.json', 'icon.png', 'de.lproj/pass.strings', 'é.txt']);
    expect(files.get('icon.png')).toEqual(png(29, 29));
  });

  test('reads Info-ZIP archives streamed with data descriptors and directory entries', () => {
    const { dir, done } = tempDir();
    try {
      mkdirSync(join(dir, 'src/de.lproj'), { recursive: true });
      writeFileSync(join(dir, 'src/pass.json'), '{"a":1}'.repeat(100));
      writeFileSync(join(dir, 'src/de.lproj/pass.strings'), '"a" = "b";');
      const bytes = new Uint8Array(execFileSync('sh', ['-c', 'cd src && zip -q -r - . | cat'], { cwd: dir }));
      expect(Buffer.from(bytes).includes(Buffer.from([0x50, 0x4b, 0x07, 0x08]))).toBe(true); // data descriptors in use
      const { files, issues } = readZip(bytes);
      expect(issues).toEqual([]);
      expect([...files.keys()].sort()).toEqual(['de.lproj/pass.strings', 'pass.json']);
      expect(new TextDecoder().decode(files.get('pass.json'))).toBe('{"a":1}'.repeat(100));
    } finally {
      done();
    }
  });

  test('reads fflate archives', () => {
    const { files, issues } = readZip(zipSync({ 'pass.json': text('{}'), 'x/y.png': png(2, 2) }));
    expect(issues).toEqual([]);
    expect(files.get('x/y.png')).toEqual(png(2, 2));
  });

  test('not a zip, empty, or random bytes: invalid-zip', () => {
    expect(codes(readZip(new Uint8Array()))).toEqual(['invalid-zip']);
    expect(codes(readZip(text('PK not really')))).toEqual(['invalid-zip']);
    expect(codes(readZip('zip' as unknown as Uint8Array))).toEqual(['invalid-zip']);
  });

  test('every truncation of an archive is an issue, never an exception', () => {
    const bytes = sample();
    for (let length = 0; length < bytes.length; length++) {
      const result = readZip(bytes.subarray(0, length));
      expect(result.issues.length).toBeGreaterThan(0);
      expect(codes(result).every((code) => code === 'invalid-zip')).toBe(true);
    }
  });

  test('a zip bomb (100 MB of zeros in about 100 KB) is refused by its declared size', () => {
    const bomb = writeZip([zipEntry('background.png', new Uint8Array(100 * 1024 * 1024), true)], date);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const result = readZip(bomb);
    expect(codes(result)).toEqual(['zip-limit-exceeded']);
    expect(result.issues[0]?.path).toBe('/background.png');
    // With the size limits lifted the ratio limit still holds it.
    expect(codes(readZip(bomb, { maxEntrySize: 1e9, maxTotalSize: 1e9 }))).toEqual(['zip-limit-exceeded']);
  });

  test('a zip bomb that lies about its size is stopped while inflating', () => {
    const bomb = writeZip([zipEntry('pass.json', new Uint8Array(100 * 1024 * 1024), true)], date);
    const view = new DataView(bomb.buffer);
    const central = view.getUint32(bomb.length - 22 + 16, true);
    view.setUint32(22, 1000, true); // local header
    view.setUint32(central + 24, 1000, true); // central directory
    const result = readZip(bomb);
    expect(codes(result)).toEqual(['invalid-zip']);
    expect(result.issues[0]?.message).toContain('declared size');
    expect(result.files.size).toBe(0);
  });

  test('entries over the total limit are refused once the sum passes it', () => {
    const bytes = writeZip(
      [zipEntry('a', new Uint8Array(600), false), zipEntry('b', new Uint8Array(600), false), zipEntry('c', new Uint8Array(10), false)],
      date,
    );
    const result = readZip(bytes, { maxTotalSize: 1000 });
    expect(codes(result)).toEqual(['zip-limit-exceeded']);
    expect([...result.files.keys()]).toEqual(['a', 'c']);
  });

  test('60,000 tiny entries: zip-limit-exceeded from the count, before reading any', () => {
    const result = readZip(manyEntries(60_000));
    expect(codes(result)).toEqual(['zip-limit-exceeded']);
    expect(result.files.size).toBe(0);
  });

  test('100,000 tiny entries (a count of 0xffff, as zip64 writes it): zip-limit-exceeded', () => {
    expect(codes(readZip(manyEntries(100_000, 0xffff)))).toEqual(['zip-limit-exceeded']);
    expect(codes(readZip(manyEntries(100_000, 0xffff), { maxEntries: 1e6 }))).toEqual(['invalid-zip']);
  });

  test('a central directory claiming more entries than fit: invalid-zip', () => {
    const bytes = sample();
    new DataView(bytes.buffer).setUint16(bytes.length - 22 + 8, 900, true);
    new DataView(bytes.buffer).setUint16(bytes.length - 22 + 10, 900, true);
    const result = readZip(bytes);
    expect(codes(result)).toEqual(['invalid-zip']);
    expect(result.issues[0]?.message).toContain('900');
  });

  test('duplicate names: duplicate-entry, the first one kept', () => {
    const bytes = writeZip([zipEntry('icon.png', text('one'), false), zipEntry('icon.png', text('two'), false)], date);
    const result = readZip(bytes);
    expect(result.issues).toMatchObject([{ code: 'duplicate-entry', path: '/icon.png' }]);
    expect(new TextDecoder().decode(result.files.get('icon.png'))).toBe('one');
  });

  test('a 64 KB name: unsafe-path, without reading it', () => {
    const bytes = writeZip([zipEntry('a'.repeat(65_535), text('x'), false), zipEntry('ok', text('y'), false)], date);
    const result = readZip(bytes);
    expect(result.issues).toMatchObject([{ code: 'unsafe-path', path: '' }]);
    expect([...result.files.keys()]).toEqual(['ok']);
  });

  test('a name that is not UTF-8: unsafe-path', () => {
    const bytes = writeZip([zipEntry('ab', text('x'), false)], date);
    bytes[30] = 0xff; // local name
    bytes[bytes.length - 22 - 2 - 46 + 46] = 0xff; // central name
    expect(codes(readZip(bytes))).toEqual(['unsafe-path']);
  });

  test('a CRC that does not match: invalid-zip', () => {
    const bytes = writeZip([zipEntry('a', text('hello'), false)], date);
    bytes[31 + 1] = 0x21; // the data ('e' → '!'), after the 30-byte header and the 1-byte name
    expect(readZip(bytes).issues).toMatchObject([{ code: 'invalid-zip', path: '/a' }]);
  });

  test('symbolic links (zip -y) are unsafe-path; encrypted entries (zip -P) are invalid-zip', () => {
    const { dir, done } = tempDir();
    try {
      writeFileSync(join(dir, 'target'), 'secret');
      symlinkSync('/etc/passwd', join(dir, 'link'));
      execFileSync('zip', ['-q', '-y', 'links.zip', 'link', 'target'], { cwd: dir });
      execFileSync('zip', ['-q', '-P', 'pw', 'locked.zip', 'target'], { cwd: dir });
      expect(readZip(new Uint8Array(readFileSync(join(dir, 'links.zip')))).issues).toMatchObject([{ code: 'unsafe-path', path: '/link' }]);
      expect(readZip(new Uint8Array(readFileSync(join(dir, 'locked.zip')))).issues).toMatchObject([{ code: 'invalid-zip', path: '/target' }]);
    } finally {
      done();
    }
  });

  test('entries that share their bytes (overlapping, the smallest bombs) are invalid-zip', () => {
    const one = zipEntry('a', text('hello'), false);
    const bytes = writeZip([one, one], date);
    // Point the second central record at the first local header.
    const view = new DataView(bytes.buffer);
    const central = view.getUint32(bytes.length - 22 + 16, true);
    view.setUint32(central + 46 + 1 + 42, 0, true);
    const result = readZip(bytes);
    expect(codes(result)).toContain('duplicate-entry');
    const renamed = writeZip([zipEntry('a', text('hello'), false), zipEntry('b', text('hello'), false)], date);
    const v2 = new DataView(renamed.buffer);
    const c2 = v2.getUint32(renamed.length - 22 + 16, true);
    v2.setUint32(c2 + 46 + 1 + 42, 0, true);
    expect(codes(readZip(renamed))).toEqual(['invalid-zip']); // the local header names another file
  });
});

describe('crc32', () => {
  test('agrees with node:zlib on any bytes, every length and alignment', async () => {
    const { crc32: zlibCrc32 } = await import('node:zlib');
    const fc = (await import('fast-check')).default;
    const { RUNS } = await import('../arbitraries.js');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.nat({ max: 7 }), (bytes, offset) => {
        const shifted = new Uint8Array(bytes.length + offset).subarray(offset);
        shifted.set(bytes);
        expect(crc32(shifted)).toBe(zlibCrc32(bytes) >>> 0);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('declared sizes are never trusted', () => {
  test('a 1 KB archive that claims 4 GB: refused by the limits, or, with limits lifted, read for what it holds', () => {
    const bytes = writeZip([zipEntry('pass.json', new TextEncoder().encode('{"a":1}'.repeat(100)), true)], new Date('2026-01-01T00:00:00Z'));
    const view = new DataView(bytes.buffer);
    const central = view.getUint32(bytes.length - 22 + 16, true);
    view.setUint32(22, 0xfffffffe, true);
    view.setUint32(central + 24, 0xfffffffe, true);
    expect(bytes.length).toBeLessThan(1024);
    expect(readZip(bytes).issues).toMatchObject([{ code: 'zip-limit-exceeded', path: '/pass.json' }]);
    // No 4 GB buffer: the entry inflates to its 700 real bytes, which are not the declared size.
    expect(readZip(bytes, { maxEntrySize: 2 ** 33, maxTotalSize: 2 ** 33, maxRatio: 2 ** 33 }).issues).toMatchObject([
      { code: 'invalid-zip', path: '/pass.json' },
    ]);
  });
});
