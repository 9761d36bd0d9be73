// What each file of a bundle is to Wallet, checked once: path safety, PNG
// signature and size (within the image limits), pass.strings syntax, personalization.json. Shared by
// prepareFiles (before packing) and verifyPass (after reading), so both
// report the same codes at the same paths.

import type { Issue } from '../issues.js';
import { digest } from './crypto/index.js';
import { imageSlot, type ImageName } from './images.js';
import { toHex } from './manifest.js';
import { checkPersonalizationJson } from './personalization.js';
import { checkPath, filePointer, LPROJ, preview, RESERVED_NAMES } from './paths.js';
import { imageTooLarge } from './image-limits.js';
import { type PngSize, pngHeader } from './png.js';
import { parsePassStrings } from './strings.js';

/** One file of a bundle (not pass.json, manifest.json or signature), as checked. */
export interface BundleFile {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** Lowercase hex SHA-1 of `bytes`. */
  readonly sha1: string;
  /** Set for the image slots Wallet reads (`logo@2x.png`, `de.lproj/strip.png`). */
  readonly image?: { readonly name: ImageName; readonly scale: 1 | 2 | 3; readonly size?: PngSize };
  /** The language of a `.lproj` file (`de`, `pt-BR`). */
  readonly language?: string;
  /** Decoded `xx.lproj/pass.strings`. */
  readonly strings?: Map<string, string>;
  readonly personalization?: boolean;
}

/** A file's issues that do not depend on the pass. */
export async function inspectFile(path: string, bytes: Uint8Array, issues: Issue[]): Promise<BundleFile | undefined> {
  const unsafe = checkPath(path);
  if (unsafe !== undefined) {
    issues.push(unsafe);
    return undefined;
  }
  const where = filePointer(path);
  if (RESERVED_NAMES.has(path)) {
    issues.push({ severity: 'error', code: 'reserved-path', message: `${path} is written by the library, not given with the files`, path: where });
    return undefined;
  }
  if (!(bytes instanceof Uint8Array)) {
    issues.push({ severity: 'error', code: 'invalid-type', message: `The content of ${preview(path)} must be a Uint8Array`, path: where });
    return undefined;
  }
  const sha1 = toHex(await digest('sha1', bytes));
  const segments = path.split('/');
  const [folder, name] = segments.length === 1 ? [undefined, segments[0]!] : segments.length === 2 ? [segments[0]!, segments[1]!] : [undefined, undefined];
  const unused = (message: string): BundleFile => {
    issues.push({ severity: 'warning', code: 'unused-file', message: `${preview(path)} is not read by Wallet: ${message}`, path: where });
    return { path, bytes, sha1 };
  };
  if (name === undefined) return unused('files are read at the top level and in .lproj folders only');
  if (folder !== undefined && !LPROJ.test(folder)) return unused('folders are language folders named like "de.lproj"');
  const language = folder?.slice(0, -'.lproj'.length);
  const base = { path, bytes, sha1, ...(language === undefined ? {} : { language }) };

  const slot = imageSlot(name);
  if (slot !== undefined) {
    const header = pngHeader(bytes);
    if (header === undefined) issues.push(notPng(path, bytes, where));
    // A size past the limits is refused here and not kept: no size guidance is worth giving on it.
    const tooLarge = header === undefined ? undefined : imageTooLarge(path, header);
    if (tooLarge !== undefined) issues.push(tooLarge);
    const size = header === undefined || tooLarge !== undefined ? undefined : { width: header.width, height: header.height };
    return { ...base, image: { name: slot.image, scale: slot.scale, ...(size === undefined ? {} : { size }) } };
  }
  if (name.endsWith('.png')) {
    issues.push({
      severity: 'warning',
      code: 'unused-image',
      message: `${preview(path)} is not an image Wallet shows (icon, logo, strip, background, thumbnail, footer, personalizationLogo, primaryLogo, secondaryLogo, artwork, venueMap; @2x, @3x)`,
      path: where,
    });
    return base;
  }
  if (language !== undefined && name === 'pass.strings') {
    const parsed = parsePassStrings(bytes);
    if (parsed instanceof Map) return { ...base, strings: parsed };
    issues.push({ ...parsed, message: `${path}: ${parsed.message}`, path: where });
    return base;
  }
  if (language === undefined && name === 'personalization.json') {
    checkPersonalizationJson(bytes, issues);
    return { ...base, personalization: true };
  }
  unused(language === undefined ? 'not a file of the pass format' : 'a language folder holds pass.strings and images');
  return base;
}

/**
 * A `.png` image slot whose bytes are not PNG. JPEG bytes are a warning:
 * Wallet decodes an image by its content, not its name, and opens real
 * passes that carry JPEG data in `.png` files (see src/rules/SOURCES.md);
 * anything else is an error.
 */
function notPng(path: string, bytes: Uint8Array, where: string): Issue {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return {
      severity: 'warning',
      code: 'not-png',
      message: `${preview(path)} holds JPEG data, not PNG: Wallet reads images by their content and shows it, but Apple asks for PNG and other pass readers may not show it`,
      path: where,
    };
  }
  return { severity: 'error', code: 'not-png', message: `${preview(path)} is not a PNG image`, path: where };
}

/** Names equal but for case or Unicode normalization: one overwrites the other on many file systems. */
export function caseCollisions(paths: readonly string[], issues: Issue[]): void {
  const seen = new Map<string, string>();
  for (const path of paths) {
    const folded = path.normalize('NFC').toLowerCase();
    const other = seen.get(folded);
    if (other === undefined) seen.set(folded, path);
    else
      issues.push({
        severity: 'warning',
        code: 'duplicate-entry',
        message: `${preview(path)} and ${preview(other)} differ only in case or normalization`,
        path: filePointer(path),
      });
  }
}
