// Rewards enrollment in packages: personalization.json checked the same way by
// prepareFiles, packPass and verifyPass; the signed personalization token.
import { describe, expect, test } from 'vitest';
import type { Issue } from '../../src/issues.js';
import { checkPersonalizationToken, signPersonalizationToken } from '../../src/pkpass/index.js';
import { PackError } from '../../src/pkpass/pack-error.js';
import { packPass } from '../../src/pkpass/pack.js';
import { checkPersonalizationJson } from '../../src/pkpass/personalization.js';
import { prepareFiles } from '../../src/pkpass/prepare.js';
import { verifyPass } from '../../src/pkpass/verify.js';
import { storeCardPass } from '../pass/passes.js';
import { png, rezip } from './helpers.js';
import { makePki, openssl, opensslVerify, otherWwdr, signer, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER } from './pki.js';

const card = { ...storeCardPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER };
const signingTime = new Date();
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const located = (issues: readonly Issue[]) => issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);
const check = (json: string): string[] => {
  const issues: Issue[] = [];
  checkPersonalizationJson(text(json), issues);
  return located(issues);
};
const good = {
  requiredPersonalizationFields: ['PKPassPersonalizationFieldName', 'PKPassPersonalizationFieldEmailAddress'],
  description: 'Join Example Rewards',
  termsAndConditions: 'Points expire after a year.',
};

describe('personalization.json', () => {
  test("Apple's keys, right: no issue; termsAndConditions is optional", () => {
    expect(check(JSON.stringify(good))).toEqual([]);
    expect(check(JSON.stringify({ ...good, termsAndConditions: undefined }))).toEqual([]);
  });

  test('missing keys, wrong types, a field name Wallet does not know, extra keys', () => {
    expect(check('{}')).toEqual([
      'error missing-key /personalization.json/requiredPersonalizationFields',
      'error missing-key /personalization.json/description',
    ]);
    expect(check('{"requiredPersonalizationFields": [], "description": " ", "termsAndConditions": 1, "logo": "x"}')).toEqual([
      'error invalid-type /personalization.json/requiredPersonalizationFields',
      'error invalid-type /personalization.json/description',
      'error invalid-type /personalization.json/termsAndConditions',
      'warning unknown-key /personalization.json/logo',
    ]);
    expect(check('{"requiredPersonalizationFields": ["PKPassPersonalizationFieldName", "email", 3], "description": "Join"}')).toEqual([
      'error invalid-personalization-field /personalization.json/requiredPersonalizationFields/1',
      'error invalid-personalization-field /personalization.json/requiredPersonalizationFields/2',
    ]);
  });

  test('hostile shapes: a field nested 200,000 deep, 100,000 fields, long names — located issues with short messages, no throw', () => {
    const deep = `{"requiredPersonalizationFields": [${'['.repeat(200_000)}${']'.repeat(200_000)}], "description": "Join"}`;
    const issues: Issue[] = [];
    checkPersonalizationJson(text(deep), issues);
    expect(located(issues)).toEqual(['error invalid-personalization-field /personalization.json/requiredPersonalizationFields/0']);
    expect(issues[0]!.message.length).toBeLessThan(300);
    const many = check(
      JSON.stringify({
        requiredPersonalizationFields: Array.from({ length: 100_000 }, () => ({ a: 'x'.repeat(100) })),
        description: 'Join',
        ['x'.repeat(10_000)]: 1,
      }),
    );
    expect(many.length).toBe(100_001);
    const long: Issue[] = [];
    checkPersonalizationJson(text(JSON.stringify({ ...good, requiredPersonalizationFields: ['y'.repeat(100_000)], ['__proto__']: 1 })), long);
    expect(located(long)).toEqual([
      'error invalid-personalization-field /personalization.json/requiredPersonalizationFields/0',
      'warning unknown-key /personalization.json/__proto__',
    ]);
    expect(long.every((issue) => issue.message.length < 300)).toBe(true);
  });

  test('not JSON, not an object, not UTF-8: invalid-json; a repeated key: duplicate-key warning', () => {
    expect(check('{"description": ')).toEqual(['error invalid-json /personalization.json']);
    expect(check('[]')).toEqual(['error invalid-json /personalization.json']);
    const issues: Issue[] = [];
    checkPersonalizationJson(new Uint8Array([0x7b, 0xff, 0x7d]), issues);
    expect(located(issues)).toEqual(['error invalid-json /personalization.json']);
    expect(check(JSON.stringify(good).replace('{', '{"description":"x",'))).toEqual(['warning duplicate-key /personalization.json/description']);
  });

  test('prepareFiles and packPass refuse a broken personalization.json, verifyPass reports it at the same path', async () => {
    const files = { 'icon.png': png(29, 29), 'personalization.json': text('{"description": "Join"}'), 'personalizationLogo@2x.png': png(300, 80) };
    await expect(prepareFiles(files)).rejects.toMatchObject({ issues: [{ code: 'missing-key', path: '/personalization.json/requiredPersonalizationFields' }] });
    const refusal = await packPass(card, files, await signer(), { signingTime }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PackError);
    expect(located((refusal as PackError).issues)).toEqual(['error missing-key /personalization.json/requiredPersonalizationFields']);
    // The same file in a signed package (re-signed after the change): verifyPass says the same.
    const packed = await packPass(card, { ...files, 'personalization.json': text(JSON.stringify(good)) }, await signer(), { signingTime });
    const broken = rezip(packed, (entries) => entries.set('personalization.json', text('{"description": "Join"}')));
    const report = await verifyPass(broken);
    expect(located(report.issues)).toContain('error missing-key /personalization.json/requiredPersonalizationFields');
  });

  test('a personalizable pass without personalizationLogo: missing-personalization-logo warning; with one, nothing', async () => {
    const warnings: Issue[] = [];
    await packPass(card, { 'icon.png': png(29, 29), 'personalization.json': text(JSON.stringify(good)) }, await signer(), {
      signingTime,
      onWarnings: (issues) => warnings.push(...issues),
    });
    expect(located(warnings)).toEqual(['warning missing-personalization-logo /personalizationLogo.png']);
    const none: Issue[] = [];
    await packPass(
      card,
      { 'icon.png': png(29, 29), 'personalization.json': text(JSON.stringify(good)), 'personalizationLogo@3x.png': png(450, 120) },
      await signer(),
      {
        signingTime,
        onWarnings: (issues) => none.push(...issues),
      },
    );
    expect(none).toEqual([]);
  });
});

describe('the personalization token', () => {
  const token = 'c2VjcmV0LXRva2VuLWZyb20td2FsbGV0';

  test("signPersonalizationToken: a detached CMS over the token's bytes that openssl cms -verify accepts against the root", async () => {
    const signed = await signPersonalizationToken(token, await signer());
    expect(await opensslVerify(signed, text(token))).toEqual({ code: 0, stderr: '' });
    // Another token does not verify under it.
    expect((await opensslVerify(signed, text(`${token}x`))).code).not.toBe(0);
  });

  test('checkPersonalizationToken: good for the token, digest-mismatch for another, names the signer', async () => {
    const pki = await makePki();
    const signed = await signPersonalizationToken(token, await signer());
    const good = await checkPersonalizationToken(signed, token, { roots: [pki.rootPem] });
    expect(good.issues).toEqual([]);
    expect(good.signer?.passTypeIdentifier).toBe(PASS_TYPE_IDENTIFIER);
    const bad = await checkPersonalizationToken(signed, 'another-token');
    expect(bad.issues.map((issue) => issue.code)).toEqual(['digest-mismatch']);
    expect(bad.issues[0]?.message).toContain('personalization token');
  });

  test('checkPersonalizationToken checks the chain as verifyPass does: an openssl signature carrying the wrong intermediate is wrong-wwdr', async () => {
    const pki = await makePki();
    const unrelated = await otherWwdr();
    const { writeFileSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    writeFileSync(join(pki.dir, 'token.txt'), token);
    await openssl(
      [
        'cms',
        '-sign',
        '-binary',
        '-outform',
        'DER',
        '-signer',
        pki.certPath,
        '-inkey',
        pki.keyPath,
        '-certfile',
        unrelated.path,
        '-in',
        'token.txt',
        '-out',
        'token.der',
      ],
      pki.dir,
    );
    const result = await checkPersonalizationToken(new Uint8Array(readFileSync(join(pki.dir, 'token.der'))), token);
    expect(result.issues.map((issue) => issue.code)).toEqual(['wrong-wwdr']);
  });

  test('an empty token is a TypeError, not a signature over nothing', async () => {
    await expect(signPersonalizationToken('', await signer())).rejects.toThrow(TypeError);
  });
});
