import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ImageName } from '../../src/pkpass/images.js';
import { packPass } from '../../src/pkpass/pack.js';
import { readPass } from '../../src/pkpass/read.js';
import { encodePassStrings } from '../../src/pkpass/strings.js';
import { verifyPass } from '../../src/pkpass/verify.js';
import { RUNS } from '../arbitraries.js';
import { validPasses } from '../pass/passes.js';
import { imageSet, opensslVerifyPackage, png, rezip, sha1Hex, unzipAll, unzipTest } from './helpers.js';
import { makePki, signer, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER } from './pki.js';

// Each run signs and verifies (two RSA operations and openssl-free checks): a tenth of the project's runs.
const SIGNED_RUNS = Math.max(20, Math.floor(RUNS / 10));
const signingTime = new Date();

const STYLE_IMAGES: Record<string, ImageName[]> = {
  genericPass: ['logo', 'thumbnail'],
  boardingPass: ['logo', 'footer'],
  eventTicketPass: ['logo', 'background', 'thumbnail'],
  couponPass: ['logo', 'strip'],
  storeCardPass: ['logo', 'strip'],
};

const text = fc.string({
  maxLength: 12,
  unit: fc.oneof(fc.constantFrom('"', '\\', '\n', ';', '=', '/*', 'é', '😀'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })),
});
const strings = fc.uniqueArray(fc.tuple(text, text), { maxLength: 5, selector: ([key]) => key });

/** A valid pass of any style, with its own serial and user info, its images (within Apple's sizes) and localizations. */
const bundle = fc
  .record({
    style: fc.constantFrom(...(Object.keys(validPasses) as (keyof typeof validPasses)[])),
    serialNumber: fc.stringMatching(/^[A-Za-z0-9-]{1,24}$/),
    note: fc.string({ maxLength: 20 }),
    scales: fc.subarray(['', '@2x', '@3x']),
    pick: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    side: fc.integer({ min: 1, max: 15 }),
    languages: fc.subarray(['de', 'fr', 'pt-BR', 'zh-Hans']),
    entries: strings,
    localizedLogo: fc.boolean(),
  })
  .map(({ style, serialNumber, note, scales, pick, side, languages, entries, localizedLogo }) => {
    const pass = { ...validPasses[style], passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER, serialNumber, userInfo: { note } };
    const files: Record<string, Uint8Array> = { 'icon.png': png(29, 29) };
    STYLE_IMAGES[style]!.forEach((image, index) => {
      if (pick[index] !== true) return;
      if (style === 'eventTicketPass' && image !== 'logo') return; // with a strip these would be unused; this style's valid pass needs none
      for (const scale of scales) files[`${image}${scale}.png`] = png(side, side, index * 40);
    });
    const strings = new Map<string, Map<string, string>>();
    for (const language of languages) {
      files[`${language}.lproj/pass.strings`] = encodePassStrings(entries);
      strings.set(language, new Map(entries));
      if (localizedLogo) files[`${language}.lproj/logo.png`] = png(side, side, 7);
    }
    return { pass, files, strings };
  });

describe('pack → read → verify', () => {
  test('random valid passes, files and strings: read back equal, verified without an error', async () => {
    const s = await signer();
    const { rootPem } = await makePki();
    await fc.assert(
      fc.asyncProperty(bundle, async ({ pass, files, strings }) => {
        const bytes = await packPass(pass, files, s, { signingTime });
        const pkg = await readPass(bytes);
        expect(pkg.pass).toEqual(JSON.parse(JSON.stringify(pass)));
        expect(new Map([...pkg.files].sort())).toEqual(new Map(Object.entries(files).sort()));
        expect(pkg.strings).toEqual(strings);
        const report = await verifyPass(bytes, { roots: [rootPem] });
        expect(report.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
      }),
      { numRuns: SIGNED_RUNS },
    );
  });
});

describe('pack, checked by other tools', () => {
  test('random valid passes: unzip -t passes, the manifest matches node:crypto SHA-1s of what unzip extracts, openssl cms -verify accepts the signature', async () => {
    const s = await signer();
    const { rootPath } = await makePki();
    await fc.assert(
      fc.asyncProperty(bundle, async ({ pass, files }) => {
        const bytes = await packPass(pass, files, s, { signingTime });
        expect(unzipTest(bytes).status).toBe(0);
        const extracted = unzipAll(bytes);
        const manifest = JSON.parse(new TextDecoder().decode(extracted.get('manifest.json'))) as Record<string, string>;
        const expected = Object.fromEntries(
          [...extracted].filter(([name]) => name !== 'manifest.json' && name !== 'signature').map(([name, content]) => [name, sha1Hex(content)]),
        );
        expect(manifest).toEqual(expected);
        expect(Object.keys(manifest).sort()).toEqual(['pass.json', ...Object.keys(files)].sort());
        expect(await opensslVerifyPackage(bytes, rootPath)).toBe(0);
      }),
      { numRuns: Math.max(10, Math.floor(RUNS / 50)) },
    );
  });
});

describe('verifyPass on hostile input', () => {
  test('random bytes: a failing report, never a throw', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), async (bytes) => {
        const report = await verifyPass(bytes);
        expect(report.ok).toBe(false);
        expect(report.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: RUNS },
    );
  });

  test('a package with one byte of the archive changed: a report, never a throw', async () => {
    const bytes = await packPass(
      { ...validPasses.genericPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER },
      imageSet(),
      await signer(),
      { signingTime },
    );
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, xor) => {
        const changed = bytes.slice();
        changed[at]! ^= xor;
        const report = await verifyPass(changed);
        expect(typeof report.ok).toBe('boolean');
        expect(Array.isArray(report.issues)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  test('any one-byte change in any signed file (pass.json, images, strings, manifest) is caught', async () => {
    const files = { ...imageSet(), 'de.lproj/pass.strings': encodePassStrings({ Seat: 'Sitzplatz' }) };
    const bytes = await packPass(
      { ...validPasses.genericPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER },
      files,
      await signer(),
      { signingTime },
    );
    const { rootPem } = await makePki();
    const names = ['pass.json', ...Object.keys(files), 'manifest.json'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 255 }),
        async (name, where, xor) => {
          let path = '';
          const changed = rezip(bytes, (entries) => {
            const content = entries.get(name)!.slice();
            const at = Math.floor(where * content.length);
            content[at]! ^= xor;
            entries.set(name, content);
            path = `/${name}`;
          });
          const report = await verifyPass(changed, { roots: [rootPem] });
          expect(report.ok).toBe(false);
          if (name === 'manifest.json') expect(report.issues.some((issue) => issue.path === '/signature')).toBe(true);
          else expect(report.issues).toContainEqual(expect.objectContaining({ code: 'hash-mismatch', path }));
        },
      ),
      { numRuns: SIGNED_RUNS },
    );
  });
});
