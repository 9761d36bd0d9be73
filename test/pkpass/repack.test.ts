// readPass → packPass loses nothing: every file comes back byte for byte, and
// what a parse and re-serialization of pass.json would change (a repeated key,
// a number beyond a double's precision) is reported instead of changed silently.
import { describe, expect, test } from 'vitest';
import { checkNumberFidelity } from '../../src/pkpass/json-fidelity.js';
import { packPass } from '../../src/pkpass/pack.js';
import { readPass } from '../../src/pkpass/read.js';
import { verifyPass } from '../../src/pkpass/verify.js';
import type { Issue } from '../../src/issues.js';
import { storeCardPass } from '../pass/passes.js';
import { imageSet, png, rezip, sha1Hex, unzipAll } from './helpers.js';
import { signer, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER } from './pki.js';
import { writeManifest } from '../../src/pkpass/manifest.js';

const pass = { ...storeCardPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER };
const signingTime = new Date();
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const located = (issues: readonly Issue[]) => issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);

/** A package whose pass.json is `json` exactly, its manifest and signature made again over it. */
async function withPassJson(json: string): Promise<Uint8Array> {
  const base = await packPass(pass, { 'icon.png': png(29, 29), 'strip.png': png(375, 144) }, await signer(), { signingTime });
  const files = new Map<string, Uint8Array>();
  rezip(base, (entries) => {
    for (const [name, bytes] of entries) files.set(name, bytes);
  });
  files.set('pass.json', text(json));
  const manifest = writeManifest(
    [...files].filter(([name]) => name !== 'manifest.json' && name !== 'signature').map(([name, bytes]) => [name, sha1Hex(bytes)] as const),
  );
  files.set('manifest.json', manifest);
  files.set('signature', await (await signer()).sign(manifest, { signingTime }));
  return rezip(base, (entries) => {
    entries.clear();
    for (const [name, bytes] of files) entries.set(name, bytes);
  });
}

describe('repacking: readPass → packPass', () => {
  test('keeps every file byte for byte: images, localized files, personalization, files Wallet does not read', async () => {
    const files: Record<string, Uint8Array> = {
      ...imageSet(),
      'strip.png': png(375, 144),
      'de.lproj/pass.strings': text('"a" = "b";'),
      'de.lproj/logo.png': png(160, 50),
      'personalization.json': text('{"requiredPersonalizationFields":["PKPassPersonalizationFieldEmailAddress"],"description":"Join"}'),
      'personalizationLogo@2x.png': png(300, 80),
      'notes/readme.txt': text('kept, though Wallet never reads it'),
      'extra.bin': new Uint8Array([0, 1, 2, 255]),
    };
    const original = await packPass(pass, files, await signer(), { signingTime });
    const pkg = await readPass(original);
    expect(pkg.warnings).toEqual([]);
    const repacked = await packPass(pkg.pass, pkg.files, await signer(), { signingTime });
    const before = unzipAll(original);
    const after = unzipAll(repacked);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [name, bytes] of before) if (name !== 'signature') expect(after.get(name), name).toEqual(bytes);
  });

  test("a pass.json with a trailing comma (as Apple's sample boarding pass has) is read, with a trailing-comma warning", async () => {
    const json = JSON.stringify(pass, null, 2).replace(/\n}$/, ',\n}');
    const pkg = await readPass(await withPassJson(json));
    expect(pkg.pass).toEqual(pass);
    expect(located(pkg.warnings)).toEqual(['warning trailing-comma /pass.json/storeCard']);
  });

  test('a repeated key: duplicate-key warning from readPass and verifyPass (the pass holds the last one)', async () => {
    const json = JSON.stringify(pass).replace(/^\{/, '{"description":"first",');
    const bytes = await withPassJson(json);
    const pkg = await readPass(bytes);
    expect(located(pkg.warnings)).toEqual(['warning duplicate-key /pass.json/description']);
    const report = await verifyPass(bytes);
    expect(report.ok).toBe(true);
    expect(located(report.issues)).toEqual(['warning duplicate-key /pass.json/description']);
  });

  test('an integer beyond 2^53: lossy-json, located, instead of a silent change on repack', async () => {
    const json = JSON.stringify({ ...pass, userInfo: { memberId: 0, list: [1, 2] } })
      .replace('"memberId":0', '"memberId":12345678901234567890')
      .replace('[1,2]', '[1,9007199254740993]');
    const bytes = await withPassJson(json);
    const pkg = await readPass(bytes);
    expect(located(pkg.warnings)).toEqual(['warning lossy-json /pass.json/userInfo/memberId', 'warning lossy-json /pass.json/userInfo/list/1']);
    expect(pkg.warnings[0]?.message).toContain('12345678901234567000');
    expect(located((await verifyPass(bytes)).issues)).toEqual([
      'warning lossy-json /pass.json/userInfo/memberId',
      'warning lossy-json /pass.json/userInfo/list/1',
    ]);
  });
});

describe('checkNumberFidelity', () => {
  const check = (json: string): string[] => {
    const issues: Issue[] = [];
    checkNumberFidelity(json, '', issues);
    return issues.map((issue) => issue.path);
  };

  test('spellings that keep the value are not losses', () => {
    expect(check('{"a": 1.0, "b": 1e2, "c": 0.10, "d": -0, "e": 9007199254740991, "f": 0.1, "g": 1.5e-7, "h": 123456789012345.6}')).toEqual([]);
  });

  test('too many digits, beyond 2^53, overflow, keys with / and ~, strings that look like numbers', () => {
    expect(check('{"a/b": {"c~d": [0, 9007199254740993]}, "s": "12345678901234567890", "x": 1e400, "y": 0.1000000000000000055511151231257827}')).toEqual([
      '/a~1b/c~0d/1',
      '/x',
      '/y',
    ]);
  });
});
