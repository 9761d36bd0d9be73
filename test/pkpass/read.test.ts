import { describe, expect, test } from 'vitest';
import type { Issue } from '../../src/issues.js';
import { PackError } from '../../src/pkpass/pack-error.js';
import { packPass } from '../../src/pkpass/pack.js';
import { readPass } from '../../src/pkpass/read.js';
import { encodePassStrings } from '../../src/pkpass/strings.js';
import { writeZip, zipEntry } from '../../src/pkpass/zip-write.js';
import { genericPass } from '../pass/passes.js';
import { imageSet, png, rezip, sha1Hex } from './helpers.js';
import { signer, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER } from './pki.js';

const pass = { ...genericPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER };
const signingTime = new Date('2026-05-07T10:30:00Z');
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const zip = (entries: [string, Uint8Array][]): Uint8Array =>
  writeZip(
    entries.map(([name, bytes]) => zipEntry(name, bytes, true)),
    signingTime,
  );

async function refusal(bytes: Uint8Array, options = {}): Promise<string[]> {
  try {
    await readPass(bytes, options);
  } catch (error) {
    expect(error).toBeInstanceOf(PackError);
    return (error as PackError).issues.map((issue: Issue) => `${issue.code} ${issue.path}`);
  }
  throw new Error('expected a PackError');
}

describe('readPass', () => {
  test('gives the parts back: pass, files (not the three the library writes), manifest, signature, strings by language', async () => {
    const files: Record<string, Uint8Array> = {
      ...imageSet(),
      'de.lproj/pass.strings': encodePassStrings({ Seat: 'Sitzplatz' }),
      'fr.lproj/pass.strings': text('"Seat" = "Siège";'),
    };
    const bytes = await packPass(pass, files, await signer(), { signingTime });
    const pkg = await readPass(bytes);
    expect(pkg.pass).toEqual(pass);
    expect(new Map([...pkg.files].sort())).toEqual(new Map(Object.entries(files).sort()));
    expect(pkg.manifest?.get('icon.png')).toBe(sha1Hex(files['icon.png']!));
    expect(pkg.manifest?.size).toBe(Object.keys(files).length + 1);
    expect(pkg.signature?.[0]).toBe(0x30); // a DER SEQUENCE
    expect(pkg.strings).toEqual(
      new Map([
        ['de', new Map([['Seat', 'Sitzplatz']])],
        ['fr', new Map([['Seat', 'Siège']])],
      ]),
    );
    // Packing what was read gives the same package.
    expect(await packPass(pkg.pass, pkg.files, await signer(), { signingTime })).toEqual(bytes);
  });

  test('an unsigned bundle reads too: no manifest, no signature', async () => {
    const pkg = await readPass(
      zip([
        ['pass.json', text('{"a":1}')],
        ['icon.png', png(29, 29)],
      ]),
    );
    expect(pkg.pass).toEqual({ a: 1 });
    expect(pkg.manifest).toBeUndefined();
    expect(pkg.signature).toBeUndefined();
  });

  test('no pass.json, pass.json not JSON or not an object: missing-pass-json, invalid-json', async () => {
    expect(await refusal(zip([['icon.png', png(1, 1)]]))).toEqual(['missing-pass-json /pass.json']);
    expect(await refusal(zip([['pass.json', text('{')]]))).toEqual(['invalid-json /pass.json']);
    expect(await refusal(zip([['pass.json', text('[1]')]]))).toEqual(['invalid-json /pass.json']);
    expect(await refusal(zip([['pass.json', new Uint8Array([0x7b, 0xff, 0x7d])]]))).toEqual(['invalid-json /pass.json']);
  });

  test('names with ../, NUL, absolute paths: unsafe-path, never written anywhere', async () => {
    const bytes = zip([
      ['pass.json', text('{}')],
      ['../../etc/cron.d/x', text('x')],
      ['a\u0000.png', text('x')],
      ['/abs', text('x')],
    ]);
    expect(await refusal(bytes)).toEqual(['unsafe-path /../../etc/cron.d/x', 'unsafe-path /a\u0000.png', 'unsafe-path //abs']);
  });

  test('a zip bomb: zip-limit-exceeded; lower limits apply as given', async () => {
    const bomb = writeZip([zipEntry('pass.json', text('{}'), true), zipEntry('background.png', new Uint8Array(100 * 1024 * 1024), true)], signingTime);
    expect(await refusal(bomb)).toEqual(['zip-limit-exceeded /background.png']);
    const small = zip([
      ['pass.json', text('{}')],
      ['icon.png', png(29, 29)],
    ]);
    expect(await refusal(small, { maxEntries: 1 })).toEqual(['zip-limit-exceeded ']);
    expect(await refusal(small, { maxEntrySize: 10 })).toEqual(['zip-limit-exceeded /icon.png']);
  });

  test('duplicate names, a broken manifest, unreadable strings: duplicate-entry, invalid-manifest, invalid-strings', async () => {
    const bytes = writeZip(
      [
        zipEntry('pass.json', text('{}'), false),
        zipEntry('pass.json', text('{"evil":1}'), false),
        zipEntry('manifest.json', text('{"a": 1}'), false),
        zipEntry('de.lproj/pass.strings', text('"a'), false),
      ],
      signingTime,
    );
    expect(await refusal(bytes)).toEqual(['duplicate-entry /pass.json', 'invalid-manifest /manifest.json/a', 'invalid-strings /de.lproj/pass.strings']);
  });

  test('a truncated package: invalid-zip', async () => {
    const bytes = await packPass(pass, imageSet(), await signer(), { signingTime });
    expect(await refusal(bytes.subarray(0, bytes.length - 1))).toEqual(['invalid-zip ']);
    expect(await refusal(bytes.subarray(0, 100))).toEqual(['invalid-zip ']);
  });

  test('a package changed after signing still reads (verifyPass is the judge)', async () => {
    const bytes = rezip(await packPass(pass, imageSet(), await signer(), { signingTime }), (files) => files.set('icon.png', png(30, 30)));
    expect((await readPass(bytes)).files.get('icon.png')).toEqual(png(30, 30));
  });
});
