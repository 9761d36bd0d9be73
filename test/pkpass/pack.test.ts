import { describe, expect, test } from 'vitest';
import type { Issue } from '../../src/issues.js';
import { PackError } from '../../src/pkpass/pack-error.js';
import { packPass } from '../../src/pkpass/pack.js';
import { packPasses } from '../../src/pkpass/pack-passes.js';
import { pkpassHeaders, PKPASS_MIME_TYPE, PKPASSES_MIME_TYPE } from '../../src/pkpass/mime.js';
import { prepareFiles } from '../../src/pkpass/prepare.js';
import { encodePassStrings } from '../../src/pkpass/strings.js';
import { readZip } from '../../src/pkpass/zip-read.js';
import { genericPass, eventTicketPass, storeCardPass } from '../pass/passes.js';
import { imageSet, opensslSigner, opensslVerifyPackage, png, sha1Hex, unzipEntry, unzipNames, unzipTest } from './helpers.js';
import { makePki, signer, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER } from './pki.js';

const identity = { passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER };
const pass = { ...genericPass, ...identity };
const signingTime = new Date('2026-05-07T10:30:00Z');
const text = (value: string): Uint8Array => new TextEncoder().encode(value);

/** The issues of the PackError `run` rejects with. */
async function refusal(run: () => Promise<unknown>): Promise<readonly Issue[]> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(PackError);
    return (error as PackError).issues;
  }
  throw new Error('expected a PackError');
}
const located = (issues: readonly Issue[]) => issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);

describe('packPass', () => {
  test('a signed package: unzip -t passes, entries in order, manifest hashes right, openssl cms -verify accepts the signature', async () => {
    const files: Record<string, Uint8Array> = {
      ...imageSet(),
      'de.lproj/pass.strings': encodePassStrings({ Seat: 'Sitzplatz' }),
      'de.lproj/logo.png': png(160, 50, 0x20),
    };
    const bytes = await packPass(pass, files, await signer(), { signingTime });
    expect(unzipTest(bytes).status).toBe(0);
    const names = unzipNames(bytes);
    expect(names).toEqual([
      'pass.json',
      'de.lproj/logo.png',
      'de.lproj/pass.strings',
      'icon.png',
      'icon@2x.png',
      'icon@3x.png',
      'logo.png',
      'logo@2x.png',
      'thumbnail@2x.png',
      'manifest.json',
      'signature',
    ]);
    expect(JSON.parse(new TextDecoder().decode(unzipEntry(bytes, 'pass.json')))).toEqual(pass);
    const manifest = JSON.parse(new TextDecoder().decode(unzipEntry(bytes, 'manifest.json'))) as Record<string, string>;
    const expected = Object.fromEntries(
      names.filter((name) => name !== 'manifest.json' && name !== 'signature').map((name) => [name, sha1Hex(unzipEntry(bytes, name))]),
    );
    expect(manifest).toEqual(expected);
    expect(unzipEntry(bytes, 'icon.png')).toEqual(files['icon.png']);
    expect(await opensslVerifyPackage(bytes, (await makePki()).rootPath)).toBe(0);
  });

  test("SHA-1 signatures (Apple's tool's choice) verify too", async () => {
    const bytes = await packPass(pass, imageSet(), await signer(), { signingTime, digest: 'sha1' });
    expect(await opensslVerifyPackage(bytes, (await makePki()).rootPath)).toBe(0);
  });

  test('deterministic: the same pass, files and signing time give the same bytes, prepared or not', async () => {
    const s = await signer();
    const prepared = await prepareFiles(imageSet());
    const a = await packPass(pass, imageSet(), s, { signingTime });
    const b = await packPass(pass, prepared, s, { signingTime });
    const c = await packPass(pass, new Map(Object.entries(imageSet()).reverse()), s, { signingTime });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const later = await packPass(pass, prepared, s, { signingTime: new Date('2026-05-07T10:30:02Z') });
    expect(later).not.toEqual(a);
  });

  test('compress: false stores every entry; by default pass.json and manifest.json are deflated from 4 KiB on, PNGs and the signature stored', async () => {
    const s = await signer();
    const methods = (bytes: Uint8Array) => {
      const view = new DataView(bytes.buffer);
      const out: Record<string, number> = {};
      let at = 0;
      while (view.getUint32(at, true) === 0x04034b50) {
        const nameLength = view.getUint16(at + 26, true);
        out[new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength))] = view.getUint16(at + 8, true);
        at += 30 + nameLength + view.getUint32(at + 18, true);
      }
      return out;
    };
    const stored = methods(await packPass(pass, imageSet(), s, { signingTime, compress: false }));
    expect(Object.values(stored).every((method) => method === 0)).toBe(true);
    const small = methods(await packPass(pass, imageSet(), s, { signingTime }));
    expect(small).toMatchObject({ 'pass.json': 0, 'manifest.json': 0, 'icon.png': 0, signature: 0 });
    const backFields = Array.from({ length: 60 }, (_, index) => ({
      key: `term${index}`,
      label: `Term ${index}`,
      value: 'Tickets are not refundable once scanned. '.repeat(2),
    }));
    const large = { ...pass, generic: { ...pass.generic, backFields } };
    expect(new TextEncoder().encode(JSON.stringify(large)).length).toBeGreaterThan(4096);
    const packed = await packPass(large, imageSet(), s, { signingTime });
    expect(methods(packed)).toMatchObject({ 'pass.json': 8, 'manifest.json': 0, 'icon.png': 0, signature: 0 });
    expect(JSON.parse(new TextDecoder().decode(unzipEntry(packed, 'pass.json')))).toEqual(large);
  });

  test('a signer made by the openssl command works as well (any PassSigner does)', async () => {
    const bytes = await packPass(pass, imageSet(), await opensslSigner(), { signingTime });
    expect(unzipTest(bytes).status).toBe(0);
    expect(await opensslVerifyPackage(bytes, (await makePki()).rootPath)).toBe(0);
  });

  test('an invalid pass: validatePass issues under /pass.json', async () => {
    const issues = await refusal(async () =>
      packPass({ ...pass, formatVersion: 2, webServiceURL: 'http://x.example/' }, imageSet(), await signer(), { signingTime }),
    );
    expect(located(issues)).toEqual(['error invalid-format-version /pass.json/formatVersion', 'error insecure-web-service-url /pass.json/webServiceURL']);
  });

  test("identifiers that are not the certificate's: identity-mismatch", async () => {
    const issues = await refusal(async () =>
      packPass({ ...pass, passTypeIdentifier: 'pass.com.example.other', teamIdentifier: 'ZZZZZZZZZZ' }, imageSet(), await signer(), { signingTime }),
    );
    expect(located(issues)).toEqual(['error identity-mismatch /pass.json/passTypeIdentifier', 'error identity-mismatch /pass.json/teamIdentifier']);
  });

  test('no icon.png: missing-icon', async () => {
    const { 'icon.png': _, ...files } = imageSet();
    expect(located(await refusal(async () => packPass(pass, files, await signer(), { signingTime })))).toEqual(['error missing-icon /icon.png']);
  });

  test('an image that is not a PNG: not-png (top level and localized)', async () => {
    const files = { ...imageSet(), 'logo.png': text('GIF89a'), 'fr.lproj/thumbnail.png': new Uint8Array(100) };
    expect(located(await refusal(async () => packPass(pass, files, await signer(), { signingTime })))).toEqual([
      'error not-png /fr.lproj/thumbnail.png',
      'error not-png /logo.png',
    ]);
  });

  test.each([
    ['../evil.png', '/../evil.png'],
    ['/etc/passwd', '//etc/passwd'],
    ['a\\b.png', '/a\\b.png'],
    ['de.lproj//logo.png', '/de.lproj//logo.png'],
    ['de.lproj/../icon.png', '/de.lproj/../icon.png'],
    ['./icon.png', '/./icon.png'],
    ['logo\u0000.png', '/logo\u0000.png'],
    ['logo\n.png', '/logo\n.png'],
    ['logo\u202e.png', '/logo\u202e.png'],
    ['', '/'],
    ['x'.repeat(300), `/${'x'.repeat(300)}`],
    ['C:/x.png', '/C:/x.png'],
  ])('unsafe path %j: unsafe-path at %j', async (path, pointer) => {
    const issues = await refusal(async () => packPass(pass, { ...imageSet(), [path]: png(1, 1) }, await signer(), { signingTime }));
    expect(located(issues)).toEqual([`error unsafe-path ${pointer}`]);
  });

  test('a path of 2,000 characters: unsafe-path', async () => {
    const path = `${'a/'.repeat(1000)}x.png`;
    const issues = await refusal(async () => packPass(pass, { ...imageSet(), [path]: png(1, 1) }, await signer(), { signingTime }));
    expect(issues.map((issue) => issue.code)).toEqual(['unsafe-path']);
  });

  test.each(['pass.json', 'manifest.json', 'signature'])("a caller's %s: reserved-path", async (name) => {
    const issues = await refusal(async () => packPass(pass, { ...imageSet(), [name]: text('{}') }, await signer(), { signingTime }));
    expect(located(issues)).toEqual([`error reserved-path /${name}`]);
  });

  test('unreadable pass.strings: invalid-strings at the file, with the offset', async () => {
    const issues = await refusal(async () =>
      packPass(pass, { ...imageSet(), 'de.lproj/pass.strings': text('"a" = "b"\n"c" = "d";') }, await signer(), { signingTime }),
    );
    expect(issues).toMatchObject([{ severity: 'error', code: 'invalid-strings', path: '/de.lproj/pass.strings', offset: 10 }]);
  });

  test('every error at once, warnings beside them, in a stable order', async () => {
    const { 'icon.png': _, ...images } = imageSet();
    const files = { ...images, 'strip.png': png(10, 10), 'logo.png': text('x'), 'manifest.json': text('{}'), '../x': text('x') };
    const issues = await refusal(async () => packPass({ ...pass, teamIdentifier: 'ZZZZZZZZZZ', description: 3 }, files, await signer(), { signingTime }));
    expect(located(issues)).toEqual([
      'error invalid-type /pass.json/description',
      'error identity-mismatch /pass.json/teamIdentifier',
      'error unsafe-path /../x',
      'error not-png /logo.png',
      'error reserved-path /manifest.json',
      'error missing-icon /icon.png',
      'warning unused-image /strip.png',
    ]);
  });

  test('warnings do not stop packing; onWarnings hears them: unused-image, image-size, unused-file, case collisions', async () => {
    const warnings: Issue[] = [];
    const files = {
      ...imageSet(),
      'strip.png': png(375, 123), // generic passes show no strip
      'logo@3x.png': png(1000, 150), // over 480×150
      'icon@2x.png': png(40, 40), // under 58×58
      'notes.txt': text('hello'),
      'Logo.png': png(160, 50),
      'personalization.json': text('{"requiredPersonalizationFields":["PKPassPersonalizationFieldName"],"description":"Join"}'),
      'personalizationLogo.png': png(150, 40),
      'de.lproj/readme.txt': text('x'),
      'images/logo.png': png(10, 10),
    };
    const bytes = await packPass(pass, files, await signer(), { signingTime, onWarnings: (issues) => warnings.push(...issues) });
    expect(unzipTest(bytes).status).toBe(0);
    expect(located(warnings)).toEqual([
      'warning unused-image /Logo.png',
      'warning unused-file /de.lproj/readme.txt',
      'warning unused-file /images/logo.png',
      'warning unused-file /notes.txt',
      'warning duplicate-entry /logo.png',
      'warning image-size /icon@2x.png',
      'warning image-size /logo@3x.png',
      'warning unused-file /personalization.json',
      'warning unused-image /personalizationLogo.png',
      'warning unused-image /strip.png',
    ]);
  });

  test('an event ticket with a strip shows no background or thumbnail; a store card with nfc reads personalization files', async () => {
    const event = { ...eventTicketPass, ...identity };
    const warnings: Issue[] = [];
    await packPass(event, { ...imageSet(), 'strip.png': png(375, 98), 'background.png': png(180, 220) }, await signer(), {
      signingTime,
      onWarnings: (issues) => warnings.push(...issues),
    });
    expect(located(warnings)).toEqual(['warning unused-image /background.png', 'warning unused-image /thumbnail@2x.png']);
    const card = { ...storeCardPass, ...identity };
    const heard: Issue[] = [];
    const files = {
      'icon.png': png(29, 29),
      'strip.png': png(375, 144),
      'personalization.json': text('{"requiredPersonalizationFields":["PKPassPersonalizationFieldName"],"description":"Join"}'),
      'personalizationLogo@2x.png': png(300, 80),
    };
    await packPass(card, files, await signer(), { signingTime, onWarnings: (issues) => heard.push(...issues) });
    expect(heard).toEqual([]);
  });

  test('personalization.json that is not a JSON object: invalid-json', async () => {
    const issues = await refusal(async () =>
      packPass({ ...storeCardPass, ...identity }, { 'icon.png': png(29, 29), 'personalization.json': text('[1') }, await signer(), { signingTime }),
    );
    expect(located(issues)).toEqual(['error invalid-json /personalization.json', 'warning missing-personalization-logo /personalizationLogo.png']);
  });

  test("a signing time outside the certificates' validity: certificate-expired / certificate-not-yet-valid", async () => {
    const s = await signer();
    const late = new Date(s.notAfter.getTime() + 1000);
    expect(located(await refusal(async () => packPass(pass, imageSet(), s, { signingTime: late })))).toContain('error certificate-expired /certificate');
    const early = new Date(s.notBefore.getTime() - 1000);
    expect(located(await refusal(async () => packPass(pass, imageSet(), s, { signingTime: early })))).toEqual(['error certificate-not-yet-valid /certificate']);
    const afterWwdr = new Date(s.wwdrNotAfter.getTime() + 1000);
    expect(located(await refusal(async () => packPass(pass, imageSet(), s, { signingTime: afterWwdr })))).toContain('error certificate-expired /wwdr');
  });

  test('a pass that cannot be written as JSON, files that are not bytes: invalid-json, invalid-type', async () => {
    const cyclic: Record<string, unknown> = { ...pass };
    cyclic['userInfo'] = { self: cyclic };
    const issues = await refusal(async () => packPass(cyclic, imageSet(), await signer(), { signingTime }));
    expect(issues.map((issue) => issue.code)).toContain('invalid-json');
    const typed = await refusal(async () => packPass(pass, { ...imageSet(), 'logo.png': 'x' as unknown as Uint8Array }, await signer(), { signingTime }));
    expect(located(typed)).toEqual(['error invalid-type /logo.png']);
  });
});

test('a signing time that is not a valid Date: invalid-type at /signingTime', async () => {
  const issues = await refusal(async () => packPass(pass, imageSet(), await signer(), { signingTime: new Date(Number.NaN) }));
  expect(located(issues)).toEqual(['error invalid-type /signingTime']);
});

test('what is checked is pass.json as written: toJSON (a Date with milliseconds), getters, undefined values', async () => {
  const withDate = { ...pass, relevantDate: new Date('2026-05-07T10:30:00.250Z') };
  expect(located(await refusal(async () => packPass(withDate, imageSet(), await signer(), { signingTime })))).toEqual([
    'error invalid-date /pass.json/relevantDate',
  ]);
  let reads = 0;
  const shifty = {
    ...pass,
    get passTypeIdentifier() {
      return reads++ === 0 ? 'pass.com.example.other' : PASS_TYPE_IDENTIFIER;
    },
  };
  expect(located(await refusal(async () => packPass(shifty, imageSet(), await signer(), { signingTime })))).toEqual([
    'error identity-mismatch /pass.json/passTypeIdentifier',
  ]);
  const throwing = {
    ...pass,
    get serialNumber(): string {
      throw new Error('no');
    },
  };
  expect((await refusal(async () => packPass(throwing, imageSet(), await signer(), { signingTime }))).map((issue) => issue.code)).toContain('invalid-json');
  const bytes = await packPass({ ...pass, voided: undefined }, imageSet(), await signer(), { signingTime });
  const { voided: _dropped, ...written } = pass;
  expect(JSON.parse(new TextDecoder().decode(unzipEntry(bytes, 'pass.json')))).toEqual(written);
});

describe('prepareFiles', () => {
  test('throws the pass-independent errors once, keeps warnings for packPass', async () => {
    await expect(prepareFiles({ 'icon.png': text('no'), '../x': png(1, 1) })).rejects.toMatchObject({
      name: 'PackError',
      issues: [{ code: 'unsafe-path' }, { code: 'not-png' }],
    });
    const prepared = await prepareFiles({ ...imageSet(), 'notes.txt': text('x') });
    expect(prepared.paths).toEqual(['icon.png', 'icon@2x.png', 'icon@3x.png', 'logo.png', 'logo@2x.png', 'notes.txt', 'thumbnail@2x.png']);
    expect(located(prepared.issues)).toEqual(['warning unused-file /notes.txt']);
  });

  test('bytes changed by the caller after prepareFiles do not change the package', async () => {
    const files = imageSet();
    const prepared = await prepareFiles(files);
    const before = await packPass(pass, prepared, await signer(), { signingTime });
    files['icon.png']!.fill(0);
    expect(await packPass(pass, prepared, await signer(), { signingTime })).toEqual(before);
  });

  test('one prepared set packs many passes, each with its own manifest over the same file hashes', async () => {
    const s = await signer();
    const prepared = await prepareFiles(imageSet());
    const serials = ['A-1', 'A-2', 'A-3'];
    const packages = await Promise.all(serials.map((serialNumber) => packPass({ ...pass, serialNumber }, prepared, s, { signingTime })));
    for (const [index, bytes] of packages.entries()) {
      const { files } = readZip(bytes);
      expect(JSON.parse(new TextDecoder().decode(files.get('pass.json'))).serialNumber).toBe(serials[index]);
      const manifest = JSON.parse(new TextDecoder().decode(files.get('manifest.json'))) as Record<string, string>;
      expect(manifest['icon.png']).toBe(sha1Hex(imageSet()['icon.png']!));
      expect(manifest['pass.json']).toBe(sha1Hex(files.get('pass.json')!));
    }
  });
});

describe('packPasses', () => {
  test('bundles 1 to 10 passes; unzip -t passes and each entry is the pass given', async () => {
    const s = await signer();
    const one = await packPass(pass, imageSet(), s, { signingTime });
    const two = await packPass({ ...pass, serialNumber: 'B' }, imageSet(), s, { signingTime });
    const bundle = packPasses([one, two], { date: signingTime });
    expect(unzipTest(bundle).status).toBe(0);
    expect(unzipNames(bundle)).toEqual(['pass-1.pkpass', 'pass-2.pkpass']);
    expect(unzipEntry(bundle, 'pass-2.pkpass')).toEqual(two);
    expect(unzipNames(packPasses([['ticket.pkpass', one]]))).toEqual(['ticket.pkpass']);
    expect(packPasses(Array.from({ length: 10 }, () => one)).length).toBeGreaterThan(one.length * 10);
  });

  test('none, eleven, or more than 150 MB: too-many-passes; bad names: unsafe-path, duplicate-entry', () => {
    const tiny = new Uint8Array(10);
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as PackError).issues.map((issue) => issue.code);
      }
      return [];
    };
    expect(code(() => packPasses([]))).toEqual(['too-many-passes']);
    expect(code(() => packPasses(Array.from({ length: 11 }, () => tiny)))).toEqual(['too-many-passes']);
    const big = new Uint8Array(76 * 1024 * 1024);
    expect(code(() => packPasses([big, big]))).toEqual(['too-many-passes']);
    expect(code(() => packPasses([['../a.pkpass', tiny]]))).toEqual(['unsafe-path']);
    expect(
      code(() =>
        packPasses([
          ['a.pkpass', tiny],
          ['a.pkpass', tiny],
        ]),
      ),
    ).toEqual(['duplicate-entry']);
  });
});

describe('serving', () => {
  test('MIME types and headers', () => {
    expect(PKPASS_MIME_TYPE).toBe('application/vnd.apple.pkpass');
    expect(PKPASSES_MIME_TYPE).toBe('application/vnd.apple.pkpasses');
    expect(pkpassHeaders('ticket.pkpass')).toEqual({
      'Content-Type': 'application/vnd.apple.pkpass',
      'Content-Disposition': 'inline; filename="ticket.pkpass"',
    });
    expect(pkpassHeaders('all.pkpasses')['Content-Type']).toBe('application/vnd.apple.pkpasses');
    expect(pkpassHeaders('Zürich "1".pkpass')['Content-Disposition']).toBe(
      `inline; filename="Z_rich _1_.pkpass"; filename*=UTF-8''Z%C3%BCrich%20%221%22.pkpass`,
    );
  });
});
