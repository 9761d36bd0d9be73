import { describe, expect, test } from 'vitest';
import { imageLayout, imageSlot, sizeGuidance, unusedReason } from '../../src/pkpass/images.js';
import { checkFilesForPass } from '../../src/pkpass/pass-checks.js';
import { prepare, prepareFiles } from '../../src/pkpass/prepare.js';
import type { Issue } from '../../src/issues.js';
import { png } from './helpers.js';

// prepareFiles' image table: which images each style (and poster layout) shows, Apple's sizes.

const posterEvent = { eventTicket: {}, preferredStyleSchemes: ['posterEventTicket', 'eventTicket'] };
const posterGeneric = { posterGeneric: {}, generic: {} };

/** `severity code path` of the pass-and-files issues of `files` (name → pixel size) as the files of `pass`. */
async function fileIssues(pass: unknown, files: Record<string, readonly [number, number]>): Promise<string[]> {
  const prepared = await prepare(Object.fromEntries(Object.entries(files).map(([name, [width, height]]) => [name, png(width, height)])));
  const issues: Issue[] = [];
  checkFilesForPass(pass, prepared.files, issues);
  return issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);
}

describe('image slots', () => {
  test('the poster images are slots, at each density', () => {
    expect(imageSlot('primaryLogo@3x.png')).toEqual({ image: 'primaryLogo', scale: 3 });
    expect(imageSlot('secondaryLogo.png')).toEqual({ image: 'secondaryLogo', scale: 1 });
    expect(imageSlot('artwork@2x.png')).toEqual({ image: 'artwork', scale: 2 });
    expect(imageSlot('venueMap.png')).toEqual({ image: 'venueMap', scale: 1 });
    expect(imageSlot('artwork.jpg')).toBeUndefined();
  });

  test('imageLayout reads the style keys and the style schemes', () => {
    expect(imageLayout(posterGeneric)).toEqual({ styles: ['generic', 'posterGeneric'], posterEventTicket: false, semanticBoardingPass: false });
    expect(imageLayout(posterEvent)).toMatchObject({ styles: ['eventTicket'], posterEventTicket: true });
    expect(imageLayout(null)).toMatchObject({ styles: [] });
  });
});

describe("which images a pass shows: none of a poster pass's images is unused", () => {
  test('a poster event ticket shows primaryLogo, secondaryLogo, artwork and venueMap; a plain event ticket does not', async () => {
    const files = {
      'icon.png': [29, 29],
      'primaryLogo@2x.png': [252, 60],
      'secondaryLogo@2x.png': [270, 24],
      'artwork@2x.png': [716, 896],
      'venueMap@2x.png': [800, 600],
    } as const;
    expect(await fileIssues(posterEvent, files)).toEqual([]);
    expect(await fileIssues({ eventTicket: {} }, files)).toEqual([
      'warning unused-image /artwork@2x.png',
      'warning unused-image /primaryLogo@2x.png',
      'warning unused-image /secondaryLogo@2x.png',
      'warning unused-image /venueMap@2x.png',
    ]);
  });

  test('posterGeneric shows primaryLogo, artwork and background; its generic fallback still uses logo and thumbnail', async () => {
    const files = {
      'icon.png': [29, 29],
      'primaryLogo.png': [126, 30],
      'artwork.png': [358, 448],
      'background.png': [358, 448],
      'logo.png': [160, 50],
      'thumbnail.png': [90, 90],
      'secondaryLogo.png': [100, 12],
    } as const;
    expect(await fileIssues(posterGeneric, files)).toEqual(['warning unused-image /secondaryLogo.png']);
    expect(unusedReason('logo', imageLayout({ posterGeneric: {} }), false, false)).toBe('a posterGeneric pass does not show a logo image');
  });

  test('a semantic boarding pass shows primaryLogo', () => {
    expect(unusedReason('primaryLogo', imageLayout({ boardingPass: {}, preferredStyleSchemes: ['semanticBoardingPass'] }), false, false)).toBeUndefined();
    expect(unusedReason('primaryLogo', 'boardingPass', false, false)).toContain('semantic boarding passes');
  });

  test("Apple's sizes for the poster images (points × density)", async () => {
    expect(sizeGuidance('primaryLogo', 'eventTicket')).toEqual({ max: [126, 30] });
    expect(sizeGuidance('secondaryLogo', 'eventTicket')).toEqual({ max: [135, 12] });
    expect(sizeGuidance('artwork', undefined)).toEqual({ max: [358, 448] });
    expect(sizeGuidance('background', imageLayout(posterGeneric))).toEqual({ max: [358, 448] });
    expect(sizeGuidance('background', 'eventTicket')).toEqual({ max: [180, 220] });
    expect(await fileIssues(posterEvent, { 'icon.png': [29, 29], 'artwork@2x.png': [800, 896], 'primaryLogo@3x.png': [378, 91] })).toEqual([
      'warning image-size /artwork@2x.png',
      'warning image-size /primaryLogo@3x.png',
    ]);
  });
});

describe('JPEG bytes in a .png file', () => {
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

  test('a not-png warning (Wallet reads images by their content): prepareFiles accepts it', async () => {
    const prepared = await prepareFiles({ 'icon.png': png(29, 29), 'thumbnail.png': jpeg });
    expect(prepared.issues).toMatchObject([{ severity: 'warning', code: 'not-png', path: '/thumbnail.png' }]);
    expect(prepared.issues[0]?.message).toContain('JPEG');
  });

  test('bytes that are no image at all stay a not-png error', async () => {
    const prepared = await prepare({ 'icon.png': png(29, 29), 'logo.png': new TextEncoder().encode('not an image') });
    expect(prepared.issues).toMatchObject([{ severity: 'error', code: 'not-png', path: '/logo.png' }]);
  });
});
