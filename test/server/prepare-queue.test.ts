import { randomBytes } from 'node:crypto';
import { inflateSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { PackError } from '../../src/pkpass/pack-error.js';
import { prepareFiles } from '../../src/pkpass/prepare.js';
import { encodePassStrings } from '../../src/pkpass/strings.js';
import { createPrepareQueue } from '../../src/server/build/prepare-queue.js';
import { png } from '../pkpass/helpers.js';

const text = new TextEncoder().encode('a line of notes that compresses well\n'.repeat(20_000)); // 740 KB
const files = new Map<string, Uint8Array>([
  ['icon.png', png(29, 29)],
  ['icon@2x.png', new Uint8Array([...png(58, 58), ...new Uint8Array(300_000)])],
  ['de.lproj/pass.strings', encodePassStrings({ Seat: 'Sitzplatz' })],
  ['notes.txt', text],
  ['noise.bin', new Uint8Array(randomBytes(400_000))],
]);

describe('createPrepareQueue', () => {
  test('prepares what prepareFiles prepares: same files, hashes, issues; large files compressed in a worker inflate back', async () => {
    const expected = await prepareFiles(files);
    const prepared = await createPrepareQueue().prepare(files);
    expect(prepared.paths).toEqual(expected.paths);
    expect(prepared.issues).toEqual(expected.issues);
    for (const [index, file] of prepared.files.entries()) {
      const other = expected.files[index]!;
      expect([file.path, file.sha1, file.stored]).toEqual([other.path, other.sha1, other.stored]);
      const compressed = file.compressed;
      expect(compressed.method === 8 ? inflateSync(compressed.data) : compressed.data).toEqual(file.bytes);
    }
    const byPath = new Map(prepared.files.map((file) => [file.path, file]));
    // Deflated where that saves space (the text), stored where it does not (PNG, noise).
    expect([byPath.get('notes.txt')!.compressed.method, byPath.get('icon@2x.png')!.compressed.method, byPath.get('noise.bin')!.compressed.method]).toEqual([
      8, 0, 0,
    ]);
  });

  test('files Wallet refuses: a PackError with the issues prepareFiles reports', async () => {
    const bad = new Map([...files, ['logo.png', new Uint8Array(300_000)]]);
    const expected = await prepareFiles(bad).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(expected).toBeInstanceOf(PackError);
    await expect(createPrepareQueue().prepare(bad)).rejects.toMatchObject({ name: 'PackError', issues: (expected as PackError).issues });
  });

  test('bundles queued together are prepared one after the other, each whole', async () => {
    const queue = createPrepareQueue();
    const [first, second] = await Promise.all([queue.prepare(files), queue.prepare(new Map([['icon.png', png(29, 29)]]))]);
    expect([first.paths.length, second.paths]).toEqual([5, ['icon.png']]);
  });
});
