// The checks that need both the pass and its files: the icon, which images
// the style shows, Apple's size guidance, personalization only with NFC.

import type { Issue } from '../issues.js';
import type { BundleFile } from './bundle-files.js';
import { imageLayout, sizeGuidance, unusedReason } from './images.js';
import { filePointer, passJsonPointer, preview } from './paths.js';

/** Appends the issues of `files` as the files of `pass` to `issues`. */
export function checkFilesForPass(pass: unknown, files: readonly BundleFile[], issues: Issue[]): void {
  if (!files.some((file) => file.path === 'icon.png')) {
    issues.push({ severity: 'error', code: 'missing-icon', message: 'Every pass needs icon.png; Wallet refuses a pass without it', path: '/icon.png' });
  }
  // Its style keys (one of the five, maybe posterGeneric too) and preferredStyleSchemes decide which images it shows.
  const layout = imageLayout(pass);
  const hasNfc = typeof pass === 'object' && pass !== null && Object.hasOwn(pass, 'nfc');
  const hasStrip = files.some((file) => file.image?.name === 'strip');
  for (const file of files) {
    const image = file.image;
    if (image !== undefined) {
      const reason = unusedReason(image.name, layout, hasStrip, hasNfc);
      if (reason !== undefined) {
        issues.push({ severity: 'warning', code: 'unused-image', message: `${preview(file.path)} is never shown: ${reason}`, path: filePointer(file.path) });
      } else if (image.size !== undefined) {
        const { max, min } = sizeGuidance(image.name, layout);
        const { width, height } = image.size;
        const scale = image.scale;
        if (max !== undefined && (width > max[0] * scale || height > max[1] * scale)) {
          issues.push({
            severity: 'warning',
            code: 'image-size',
            message: `${preview(file.path)} is ${width}×${height} pixels; Apple's guidance for it is at most ${max[0] * scale}×${max[1] * scale}`,
            path: filePointer(file.path),
          });
        }
        if (min !== undefined && (width < min[0] * scale || height < min[1] * scale)) {
          issues.push({
            severity: 'warning',
            code: 'image-size',
            message: `${preview(file.path)} is ${width}×${height} pixels; Apple's guidance for it is at least ${min[0] * scale}×${min[1] * scale}`,
            path: filePointer(file.path),
          });
        }
      }
    }
    if (file.personalization === true && !hasNfc) {
      issues.push({
        severity: 'warning',
        code: 'unused-file',
        message: 'personalization.json is read only in passes with "nfc"',
        path: filePointer(file.path),
      });
    }
  }
  // Apple lists personalizationLogo among a personalizable pass's files: the signup form shows it above the description.
  if (hasNfc && files.some((file) => file.personalization === true) && !files.some((file) => file.image?.name === 'personalizationLogo')) {
    issues.push({
      severity: 'warning',
      code: 'missing-personalization-logo',
      message:
        'A rewards-enrollment pass (personalization.json) should have personalizationLogo.png (150×40 points, with @2x and @3x): the signup form shows it',
      path: '/personalizationLogo.png',
    });
  }
}

/**
 * What Wallet compares first: the pass's `passTypeIdentifier` and
 * `teamIdentifier` against the certificate's UID and OU. One
 * `identity-mismatch` per identifier that differs; packPass checks the pass it
 * is about to sign, verifyPass the pass it was given.
 */
export function checkIdentity(
  pass: unknown,
  certificate: { readonly passTypeIdentifier?: string | undefined; readonly teamIdentifier?: string | undefined },
  issues: Issue[],
): void {
  if (typeof pass !== 'object' || pass === null) return;
  const record = pass as Record<string, unknown>;
  for (const [key, expected, part] of [
    ['passTypeIdentifier', certificate.passTypeIdentifier, 'UID'],
    ['teamIdentifier', certificate.teamIdentifier, 'OU'],
  ] as const) {
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    if (typeof value === 'string' && value !== expected) {
      issues.push({
        severity: 'error',
        code: 'identity-mismatch',
        message: `The pass's ${key} ${JSON.stringify(value)} is not the certificate's ${part} ${JSON.stringify(expected ?? '(none)')}`,
        path: passJsonPointer(`/${key}`),
      });
    }
  }
}
