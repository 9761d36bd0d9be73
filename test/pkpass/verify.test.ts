import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { toHex, writeManifest } from '../../src/pkpass/manifest.js';
import { packPass } from '../../src/pkpass/pack.js';
import { readPass } from '../../src/pkpass/read.js';
import { verifyPass } from '../../src/pkpass/verify.js';
import { readZip } from '../../src/pkpass/zip-read.js';
import { writeZip, zipEntry } from '../../src/pkpass/zip-write.js';
import { genericPass } from '../pass/passes.js';
import { imageSet, opensslSigner, png, rezip, sha1Hex, tempDir } from './helpers.js';
import { makePki, signer, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER } from './pki.js';

const pass = { ...genericPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER };
const signingTime = new Date();
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const located = (report: { issues: readonly { severity: string; code: string; path: string }[] }) =>
  report.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);

let packed: Promise<Uint8Array> | undefined;
async function good(): Promise<Uint8Array> {
  packed ??= signer().then((s) => packPass(pass, { ...imageSet(), 'de.lproj/pass.strings': text('"a" = "b";') }, s, { signingTime }));
  return packed;
}

/** Rewrites the manifest for the current files and signs it again: a package consistent but for what the test changed. */
async function resign(files: Map<string, Uint8Array>): Promise<void> {
  const entries = [...files].filter(([name]) => name !== 'manifest.json' && name !== 'signature').map(([name, bytes]) => [name, sha1Hex(bytes)] as const);
  const manifest = writeManifest(entries);
  files.set('manifest.json', manifest);
  files.set('signature', await (await signer()).sign(manifest, { signingTime }));
}
async function rezipSigned(change: (files: Map<string, Uint8Array>) => void): Promise<Uint8Array> {
  let copy = new Map<string, Uint8Array>();
  rezip(await good(), (files) => {
    change(files);
    copy = files;
  });
  await resign(copy);
  return rezip(await good(), (files) => {
    files.clear();
    for (const [name, bytes] of copy) files.set(name, bytes);
  });
}

describe('verifyPass', () => {
  test('a package from packPass: ok, no issue at all, with what the signature says', async () => {
    const pki = await makePki();
    const report = await verifyPass(await good(), { roots: [pki.rootPem] });
    expect(report.issues).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.digest).toBe('sha256');
    expect(report.signingTime?.getTime()).toBe(Math.floor(signingTime.getTime() / 1000) * 1000);
    expect(report.signer).toMatchObject({ passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER });
  });

  test('a package signed by the openssl command verifies; one re-zipped by Info-ZIP (directory entries) too', async () => {
    const pki = await makePki();
    const bytes = await packPass(pass, { ...imageSet(), 'de.lproj/logo.png': png(160, 50) }, await opensslSigner(), { signingTime });
    expect((await verifyPass(bytes, { roots: [pki.rootPem] })).issues).toEqual([]);
    const { dir, done } = tempDir();
    try {
      writeFileSync(join(dir, 'in.pkpass'), bytes);
      execFileSync('unzip', ['-q', 'in.pkpass', '-d', 'x'], { cwd: dir });
      execFileSync('sh', ['-c', 'cd x && zip -q -r ../out.pkpass .'], { cwd: dir });
      expect((await verifyPass(new Uint8Array(readFileSync(join(dir, 'out.pkpass'))), { roots: [pki.rootPem] })).issues).toEqual([]);
    } finally {
      done();
    }
  });

  test('a package made by passkit-generator (node-forge, SHA-1, its own zip writer) reads and verifies', async () => {
    const pki = await makePki();
    const { PKPass } = await import('passkit-generator');
    const make = (json: object) => {
      const buffers = Object.fromEntries(
        Object.entries({ ...imageSet(), 'pass.json': text(JSON.stringify(json)) }).map(([name, bytes]) => [name, Buffer.from(bytes)]),
      );
      return new Uint8Array(new PKPass(buffers, { wwdr: pki.wwdrPem, signerCert: pki.certPem, signerKey: pki.keyPem }, {}).getAsBuffer());
    };
    const { expirationDate: _date, ...undated } = pass;
    const report = await verifyPass(make(undated), { roots: [pki.rootPem] });
    expect(report.issues).toEqual([]);
    expect(report.digest).toBe('sha1');
    // passkit-generator rewrites dates with milliseconds ("…T05:00:00.000Z"), which Wallet refuses.
    expect(located(await verifyPass(make(pass), { roots: [pki.rootPem] }))).toEqual(['error invalid-date /pass.json/expirationDate']);
  });

  test("a root that did not issue the chain: the signature check's issue at /signature", async () => {
    const pki = await makePki();
    const report = await verifyPass(await good(), { roots: [pki.otherRootPem] });
    expect(report.ok).toBe(false);
    expect(report.issues.map((issue) => issue.path)).toEqual(['/signature']);
  });

  test('a file changed after signing: hash-mismatch at the file', async () => {
    const bytes = rezip(await good(), (files) => files.set('icon@2x.png', png(58, 58, 0x10)));
    expect(located(await verifyPass(bytes))).toEqual(['error hash-mismatch /icon@2x.png']);
  });

  test('pass.json changed after signing: hash-mismatch at /pass.json', async () => {
    const bytes = rezip(await good(), (files) => files.set('pass.json', text(JSON.stringify({ ...pass, serialNumber: 'forged' }))));
    expect(located(await verifyPass(bytes))).toEqual(['error hash-mismatch /pass.json']);
  });

  test('a file added, a file removed: missing-from-manifest at the file, missing-file at the manifest entry', async () => {
    const added = rezip(await good(), (files) => files.set('de.lproj/icon.png', png(29, 29)));
    expect(located(await verifyPass(added))).toEqual(['error missing-from-manifest /de.lproj/icon.png']);
    const removed = rezip(await good(), (files) => files.delete('de.lproj/pass.strings'));
    expect(located(await verifyPass(removed))).toEqual(['error missing-file /manifest.json/de.lproj~1pass.strings']);
  });

  test('a manifest that lists itself or the signature: invalid-manifest that says so, not "a file the package does not hold"', async () => {
    const bytes = await good();
    // A manifest over every file, plus the two entries it must never hold, signed.
    let changed = new Map<string, Uint8Array>();
    rezip(bytes, (files) => {
      changed = files;
    });
    const entries = [...changed]
      .filter(([name]) => name !== 'signature' && name !== 'manifest.json')
      .map(([name, content]) => [name, sha1Hex(content)] as const);
    const manifest = writeManifest([...entries, ['manifest.json', 'a'.repeat(40)], ['signature', 'b'.repeat(40)]]);
    changed.set('manifest.json', manifest);
    changed.set('signature', await (await signer()).sign(manifest, { signingTime }));
    const report = await verifyPass(
      rezip(bytes, (files) => {
        files.clear();
        for (const [name, content] of changed) files.set(name, content);
      }),
    );
    expect(located(report)).toEqual(['error invalid-manifest /manifest.json/manifest.json', 'error invalid-manifest /manifest.json/signature']);
    expect(report.issues[0]?.message).toContain('manifest.json lists itself');
    expect(report.issues[1]?.message).toContain('manifest.json lists the signature');
  });

  test('the manifest changed after signing: the signature check fails at /signature', async () => {
    const bytes = rezip(await good(), (files) => files.set('manifest.json', text(`${new TextDecoder().decode(files.get('manifest.json'))} `)));
    const report = await verifyPass(bytes);
    expect(report.ok).toBe(false);
    expect(report.issues.every((issue) => issue.path === '/signature')).toBe(true);
  });

  test('no manifest, no signature, no pass.json: missing-manifest, missing-signature, missing-pass-json', async () => {
    expect(located(await verifyPass(rezip(await good(), (files) => files.delete('manifest.json'))))).toEqual(['error missing-manifest /manifest.json']);
    expect(located(await verifyPass(rezip(await good(), (files) => files.delete('signature'))))).toEqual(['error missing-signature /signature']);
    expect(located(await verifyPass(rezip(await good(), (files) => files.delete('pass.json'))))).toEqual([
      'error missing-pass-json /pass.json',
      'error missing-file /manifest.json/pass.json',
    ]);
  });

  test('a manifest that is not JSON, or holds something else than hex SHA-1s: invalid-manifest', async () => {
    const report = await verifyPass(rezip(await good(), (files) => files.set('manifest.json', text('{nope'))));
    const [first, ...rest] = located(report);
    expect(first).toBe('error invalid-manifest /manifest.json');
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((line) => line.endsWith(' /signature'))).toBe(true);
    const wrongHash = await (async () => {
      let copy = new Map<string, Uint8Array>();
      rezip(await good(), (files) => (copy = files));
      const entries = [...copy]
        .filter(([name]) => name !== 'manifest.json' && name !== 'signature')
        .map(([name, bytes]) => [name, name === 'icon.png' ? 'not-a-hash' : sha1Hex(bytes)] as const);
      const manifest = writeManifest(entries);
      copy.set('manifest.json', manifest);
      copy.set('signature', await (await signer()).sign(manifest, { signingTime }));
      return rezip(await good(), (files) => {
        files.clear();
        for (const [name, bytes] of copy) files.set(name, bytes);
      });
    })();
    expect(located(await verifyPass(wrongHash))).toEqual(['error invalid-manifest /manifest.json/icon.png']);
  });

  test('a signed manifest.json with a trailing comma (read by the parser that reads pass.json): a trailing-comma warning, the package ok', async () => {
    let copy = new Map<string, Uint8Array>();
    rezip(await good(), (files) => (copy = files));
    const manifest = text(new TextDecoder().decode(copy.get('manifest.json')).replace(/\n}\n$/, ',\n}\n'));
    copy.set('manifest.json', manifest);
    copy.set('signature', await (await signer()).sign(manifest, { signingTime }));
    const bytes = rezip(await good(), (files) => {
      files.clear();
      for (const [name, bytes] of copy) files.set(name, bytes);
    });
    const pki = await makePki();
    const report = await verifyPass(bytes, { roots: [pki.rootPem] });
    expect(located(report)).toEqual(['warning trailing-comma /manifest.json/thumbnail@2x.png']);
    expect(report.ok).toBe(true);
    const pkg = await readPass(bytes);
    expect(pkg.warnings.map((issue) => `${issue.code} ${issue.path}`)).toEqual(['trailing-comma /manifest.json/thumbnail@2x.png']);
    expect(pkg.manifest?.size).toBe(copy.size - 2);
  });

  test("identifiers that are not the certificate's (signed by it all the same): identity-mismatch", async () => {
    const bytes = await rezipSigned((files) => files.set('pass.json', text(JSON.stringify({ ...pass, passTypeIdentifier: 'pass.com.example.other' }))));
    expect(located(await verifyPass(bytes))).toEqual(['error identity-mismatch /pass.json/passTypeIdentifier']);
  });

  test("pass.json that is not JSON: invalid-json; a pass Apple's rules refuse: its issues under /pass.json", async () => {
    expect(located(await verifyPass(await rezipSigned((files) => files.set('pass.json', text('{"a":')))))).toEqual(['error invalid-json /pass.json']);
    const bad = await rezipSigned((files) => files.set('pass.json', text(JSON.stringify({ ...pass, formatVersion: 2 }))));
    expect(located(await verifyPass(bad))).toEqual(['error invalid-format-version /pass.json/formatVersion']);
  });

  test('no icon, a non-PNG image, unreadable pass.strings, unused images: missing-icon, not-png, invalid-strings, unused-image', async () => {
    const bytes = await rezipSigned((files) => {
      files.delete('icon.png');
      files.set('logo.png', text('not a png'));
      files.set('de.lproj/pass.strings', text('"a" = '));
      files.set('footer.png', png(10, 10));
    });
    expect(located(await verifyPass(bytes))).toEqual([
      'error invalid-strings /de.lproj/pass.strings',
      'error not-png /logo.png',
      'error missing-icon /icon.png',
      'warning unused-image /footer.png',
    ]);
  });

  test('unsafe names and duplicates in the archive: unsafe-path, duplicate-entry', async () => {
    const entries = [...readZip(await good()).files].map(([name, bytes]) => zipEntry(name, bytes, false));
    const hostile = writeZip([...entries, zipEntry('../../evil.sh', text('x'), false), zipEntry('a\u0000b', text('x'), false), entries[1]!], signingTime);
    expect(located(await verifyPass(hostile))).toEqual([
      'error duplicate-entry /de.lproj/pass.strings',
      'error unsafe-path /../../evil.sh',
      'error unsafe-path /a\u0000b',
    ]);
  });

  test('not a zip, a truncated package, not bytes at all: invalid-zip, never a throw', async () => {
    const bytes = await good();
    expect(located(await verifyPass(text('hello')))).toEqual(['error invalid-zip ']);
    expect(located(await verifyPass(bytes.subarray(0, bytes.length - 30)))).toEqual(['error invalid-zip ']);
    expect(located(await verifyPass(null as unknown as Uint8Array))).toEqual(['error invalid-zip ']);
  });

  test('names such as __proto__ in the archive and the manifest are plain names: no pollution', async () => {
    const bytes = await rezipSigned((files) => files.set('__proto__', text('{"polluted":true}')));
    const withManifestKey = rezip(bytes, (files) =>
      files.set('manifest.json', text('{"__proto__":"0000000000000000000000000000000000000000","constructor":"x"}')),
    );
    const report = await verifyPass(withManifestKey);
    expect(located(report)).toContain('error invalid-manifest /manifest.json/constructor');
    expect(located(report)).toContain('error hash-mismatch /__proto__');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(located(await verifyPass(bytes))).toEqual(['warning unused-file /__proto__']);
  });

  test('a manifest of 300,000 bad entries: one invalid-manifest per entry, no file reported twice', async () => {
    const big = `{${Array.from({ length: 300_000 }, (_, index) => `"f${index}":1`).join(',')}}`;
    const report = await verifyPass(rezip(await good(), (files) => files.set('manifest.json', text(big))));
    const codes = report.issues.map((issue) => issue.code);
    expect(codes.filter((code) => code === 'invalid-manifest')).toHaveLength(300_000);
    expect(codes.filter((code) => code === 'missing-from-manifest')).toHaveLength(8); // pass.json, six images, pass.strings
  });

  test('pass.json nested a million levels deep: a report, not a stack overflow', async () => {
    const deep = writeZip([zipEntry('pass.json', text('['.repeat(1_000_000) + ']'.repeat(1_000_000)), false)], signingTime);
    expect(located(await verifyPass(deep))).toEqual([
      'error missing-icon /icon.png',
      'error missing-manifest /manifest.json',
      'error missing-signature /signature',
      'error invalid-type /pass.json',
    ]);
    const objects = writeZip([zipEntry('pass.json', text(`${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`), false)], signingTime);
    expect(located(await verifyPass(objects))).toContain('error missing-key /pass.json/formatVersion');
  });

  test('the SHA-1 helper agrees with node:crypto', () => {
    expect(toHex(new Uint8Array([0, 15, 255]))).toBe('000fff');
  });
});
