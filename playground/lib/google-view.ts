import type { Pass } from '../../src/index.js';
import { createSaveUrl, GoogleWalletError, readGoogleCredentials, toGoogleWallet } from '../../src/google/index.js';
import type { GoogleWalletPass } from '../../src/google/index.js';

// Loaded with import() once the page is idle: the Google mapping, JWT signing and
// key reading stay out of the first page load.

/** The issuer id the preview maps with until the person gives theirs (any digits do for drawing). */
export const PREVIEW_ISSUER_ID = '3388000000000000000';

/**
 * The pass as Google Wallet's class and object, with the loss report; `images` maps the
 * bundle paths the page has to a URL (object URLs for the preview, public URLs for a link).
 *
 * @example
 * ```ts
 * const { type, class: walletClass, object, losses } = mapToGoogle(pass, new Map([['logo.png', url]]));
 * ```
 */
export function mapToGoogle(
  pass: Pass,
  images: ReadonlyMap<string, string>,
  issuerId: string = PREVIEW_ISSUER_ID,
  strings?: Readonly<Record<string, Readonly<Record<string, string>>>>,
): GoogleWalletPass {
  return toGoogleWallet(pass, { issuerId, imageUrl: (path) => images.get(path), ...(strings === undefined ? {} : { strings }) });
}

/** An "Add to Google Wallet" link, or why there is none. */
export type SaveLinkResult =
  | { readonly ok: true; readonly url: string; readonly clientEmail: string }
  | { readonly ok: false; readonly code: string; readonly message: string };

/**
 * Reads the service-account key and signs a save link for the pass (class and object
 * in the link). Nothing is kept: the key lives for this call only.
 *
 * @example
 * ```ts
 * const result = await makeSaveLink(pass, keyJson, '3388000000012345678', 'https://passes.example.com/images/', ['logo.png']);
 * ```
 */
export async function makeSaveLink(
  pass: Pass,
  keyJson: string,
  issuerId: string,
  imageBase: string,
  imagePaths: readonly string[],
  origin: string,
  strings?: Readonly<Record<string, Readonly<Record<string, string>>>>,
): Promise<SaveLinkResult> {
  try {
    const credentials = readGoogleCredentials(keyJson);
    const base = imageBase.trim() === '' ? undefined : imageBase.trim().replace(/\/?$/, '/');
    const hosted = new Map(base === undefined ? [] : imagePaths.map((path) => [path, `${base}${path}`] as const));
    const { type, class: walletClass, object } = mapToGoogle(pass, hosted, issuerId.trim(), strings);
    const url = await createSaveUrl(credentials, { objects: [{ type, object }], classes: [{ type, class: walletClass }], origins: [origin] });
    return { ok: true, url, clientEmail: credentials.clientEmail };
  } catch (error) {
    if (error instanceof GoogleWalletError) return { ok: false, code: error.code, message: error.message };
    return { ok: false, code: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}
