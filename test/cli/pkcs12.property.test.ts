import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Pkcs12Error } from '../../src/cli/pkcs12/pkcs12-error.js';
import { readPkcs12 } from '../../src/cli/pkcs12/read-pkcs12.js';
import { RUNS } from '../arbitraries.js';
import { tempDir } from './io.js';
import { hasLegacyProvider, makeIdentity, openssl } from './openssl.js';

// Hostile .p12 files: whatever the bytes, readPkcs12 returns or throws a
// Pkcs12Error — never another error, never a hang. The fixtures use one
// iteration so that each case costs microseconds; without a MAC the damage
// reaches the decryption and the bag parsing, which a MAC would stop first.
let dir: string;
let remove: () => void;
const fixtures: Uint8Array[] = [];

beforeAll(() => {
  ({ dir, remove } = tempDir('p12-property'));
  const identity = makeIdentity(dir);
  const variants = [['-nomac'], ['-nomac', '-certpbe', 'PBE-SHA1-3DES'], [], ...(hasLegacyProvider() ? [['-nomac', '-legacy']] : [])];
  variants.forEach((options, index) => {
    const name = `fuzz-${index}.p12`;
    openssl(
      dir,
      'pkcs12',
      '-export',
      '-in',
      identity.certificate,
      '-inkey',
      identity.key,
      '-passout',
      'pass:secret',
      '-noiter',
      '-nomaciter',
      '-out',
      name,
      ...options,
    );
    fixtures.push(new Uint8Array(readFileSync(join(dir, name))));
  });
});
afterAll(() => remove());

function outcome(bytes: Uint8Array): string {
  try {
    const contents = readPkcs12(bytes, 'secret');
    return `read ${contents.certificates.length} ${contents.keys.length}`;
  } catch (error) {
    if (error instanceof Pkcs12Error) return error.code;
    throw error;
  }
}

describe('readPkcs12 on damaged files', () => {
  test('the fixtures themselves read: one certificate, one key', () => {
    expect(fixtures.map(outcome)).toEqual(fixtures.map(() => 'read 1 1'));
  });

  test('any changed bytes: a result or a Pkcs12Error', () => {
    fc.assert(
      fc.property(
        fc.nat(fixtures.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        (which, changes) => {
          const bytes = new Uint8Array(fixtures[which] as Uint8Array);
          for (const [position, value] of changes) bytes[position % bytes.length] = value;
          expect(outcome(bytes)).toMatch(/^(read \d+ \d+|wrong-passphrase|invalid-pkcs12|unsupported)$/);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('any prefix: a Pkcs12Error', () => {
    fc.assert(
      fc.property(fc.nat(fixtures.length - 1), fc.nat(), (which, cut) => {
        const bytes = fixtures[which] as Uint8Array;
        expect(outcome(bytes.subarray(0, cut % bytes.length))).toMatch(/^(wrong-passphrase|invalid-pkcs12|unsupported)$/);
      }),
      { numRuns: RUNS },
    );
  });
});
