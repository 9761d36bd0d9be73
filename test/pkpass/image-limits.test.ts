import { deflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import type { Issue } from '../../src/issues.js';
import { imageTooLarge, MAX_DECODED_IMAGE_BYTES, MAX_IMAGE_SIDE } from '../../src/pkpass/image-limits.js';
import { PackError } from '../../src/pkpass/pack-error.js';
import { packPass } from '../../src/pkpass/pack.js';
import { pngHeader } from '../../src/pkpass/png.js';
import { prepareFiles } from '../../src/pkpass/prepare.js';
import { verifyPass } from '../../src/pkpass/verify.js';
import { genericPass } from '../pass/passes.js';
import { png, rezip } from './helpers.js';
import { PASS_TYPE_IDENTIFIER, signer, TEAM_IDENTIFIER } from './pki.js';

// Issue 28: a PNG's declared size is bounded before anything decodes it. The
// bombs are hand-made: a real signature and IHDR declaring a huge size, one
// tiny IDAT (what a 400 KB file inflating to gigabytes looks like to a reader
// that trusts the header) and IEND. The CRCs are not checked by passmint.

/** A PNG whose IHDR declares `width`×`height` (up to 2^32 − 1) at `bitDepth` and `colorType`. */
function declaredPng(width: number, height: number, bitDepth = 8, colorType = 6): Uint8Array {
  const chunk = (type: string, data: Uint8Array): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(4096))), chunk('IEND', new Uint8Array())]));
}

async function refusal(files: Record<string, Uint8Array>): Promise<readonly Issue[]> {
  try {
    await prepareFiles(files);
  } catch (error) {
    expect(error).toBeInstanceOf(PackError);
    return (error as PackError).issues;
  }
  throw new Error('prepareFiles accepted the files');
}

const TWO_TO_THE_31 = 2 ** 31;

describe('PNG dimension bombs (image-too-large)', () => {
  test('the hand-made headers declare what they say', () => {
    expect(pngHeader(declaredPng(65535, 65535))).toEqual({ width: 65535, height: 65535, bitDepth: 8, colorType: 6 });
    expect(pngHeader(declaredPng(TWO_TO_THE_31, TWO_TO_THE_31))).toMatchObject({ width: TWO_TO_THE_31, height: TWO_TO_THE_31 });
  });

  test('prepareFiles refuses an icon.png declaring 65535×65535, naming the file and the limit', async () => {
    const issues = await refusal({ 'icon.png': declaredPng(65535, 65535) });
    expect(issues).toEqual([
      {
        severity: 'error',
        code: 'image-too-large',
        message: '"icon.png" declares 65535×65535 pixels; images are limited to 4096 pixels a side (the largest Wallet draws is 1344)',
        path: '/icon.png',
      },
    ]);
  });

  test('prepareFiles refuses a logo.png declaring 2^31×2^31, and reports each bomb once beside the good files', async () => {
    const issues = await refusal({
      'icon.png': png(29, 29),
      'logo.png': declaredPng(TWO_TO_THE_31, TWO_TO_THE_31),
      'de.lproj/strip@3x.png': declaredPng(5000, 10),
    });
    expect(issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual([
      'error image-too-large /de.lproj/strip@3x.png',
      'error image-too-large /logo.png',
    ]);
    expect(issues[1]?.message).toContain('2147483648×2147483648');
  });

  test('the decoded size is bounded too: 8-bit RGBA at 2560×2560 (25 MiB) and 16-bit at 2048×2048 (32 MiB) are refused', async () => {
    const issues = await refusal({ 'icon.png': png(29, 29), 'background@3x.png': declaredPng(2560, 2560), 'artwork.png': declaredPng(2048, 2048, 16, 6) });
    expect(issues.map((issue) => [issue.code, issue.path, issue.message])).toEqual([
      ['image-too-large', '/artwork.png', '"artwork.png" declares 2048×2048 pixels, 32 MiB once decoded; images are limited to 20 MiB decoded'],
      ['image-too-large', '/background@3x.png', '"background@3x.png" declares 2560×2560 pixels, 25 MiB once decoded; images are limited to 20 MiB decoded'],
    ]);
  });

  test('up to the limits is accepted: 4096×1, 2048×2048 8-bit RGBA, the largest image Apple documents at @3x', async () => {
    const prepared = await prepareFiles({
      'icon.png': png(29, 29),
      'strip@3x.png': declaredPng(MAX_IMAGE_SIDE, 1),
      'background@3x.png': declaredPng(2048, 2048),
      'artwork@3x.png': declaredPng(1074, 1344),
    });
    expect(prepared.issues).toEqual([]);
    expect(prepared.files.find((file) => file.path === 'artwork@3x.png')?.image?.size).toEqual({ width: 1074, height: 1344 });
    expect(imageTooLarge('x.png', { width: 2048, height: 2560, bitDepth: 8, colorType: 6 })).toBeUndefined();
    expect(2048 * 2560 * 4).toBe(MAX_DECODED_IMAGE_BYTES);
    expect(imageTooLarge('x.png', { width: 2048, height: 2561, bitDepth: 8, colorType: 6 })?.code).toBe('image-too-large');
  });

  test('packPass with raw files refuses the bomb before signing', async () => {
    const pass = { ...genericPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER };
    const error = await packPass(pass, { 'icon.png': declaredPng(65535, 65535) }, await signer()).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(PackError);
    expect((error as PackError).issues.filter((issue) => issue.severity === 'error').map((issue) => `${issue.code} ${issue.path}`)).toEqual([
      'image-too-large /icon.png',
    ]);
  });

  test('verifyPass reports a bomb put into a signed package', async () => {
    const pass = { ...genericPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER };
    const good = await packPass(pass, { 'icon.png': png(29, 29) }, await signer());
    const bombed = rezip(good, (files) => files.set('icon.png', declaredPng(65535, 65535)));
    const report = await verifyPass(bombed);
    expect(report.ok).toBe(false);
    expect(report.issues.filter((issue) => issue.path === '/icon.png').map((issue) => issue.code)).toEqual(['image-too-large', 'hash-mismatch']);
  });
});
