// A stored pass as Google Wallet sees it: toGoogleWallet on the rendered
// pass, with the template's class id, its images at public URLs and its
// localized strings, and the class told where to send save/delete callbacks.
import { escapeIdPart } from '../../google/ids.js';
import { toGoogleWallet } from '../../google/map.js';
import type { GoogleWalletPass, GoogleWalletResource, GoogleWalletResourceBody, GoogleWalletType } from '../../google/types.js';
import type { Pass } from '../../types.js';
import type { TemplateAssets } from '../db/google-assets.js';

/** What the service's Google parts share. */
export interface GoogleMappingOptions {
  readonly issuerId: string;
  /** The service's public origin: images and the callback URL hang off it. Without it: no images, no callbacks. */
  readonly publicUrl: string | undefined;
}

/** A pass mapped for the service: the Google mapping with its resource names and ids. */
export interface ServiceGoogleMapping extends GoogleWalletPass {
  readonly classResource: GoogleWalletResource;
  readonly objectResource: GoogleWalletResource;
  readonly classId: string;
  readonly objectId: string;
}

/** The path of a template's image, named by its content, under the service's origin. */
export const googleImagePath = (templateId: number, hash: string, path: string): string =>
  `/google/images/${templateId}/${hash}/${path.split('/').map(encodeURIComponent).join('/')}`;

/** Where Google posts save and delete callbacks. */
export const GOOGLE_CALLBACK_PATH = '/google/callback';

/** The class id suffix of a template: one class per template, named as the library names classes, plus the template. */
export function templateClassSuffix(passTypeIdentifier: string, templateId: number): string {
  return `${escapeIdPart(passTypeIdentifier)}.template-${templateId}`;
}

// Each image name maps to its sharpest variant: Google scales images down, never up.
const VARIANTS = ['@3x', '@2x', ''];

/**
 * Maps a stored pass with its template's assets: images at their
 * content-named public URLs (the sharpest variant of each), the template's
 * class id, its localized strings, and the callback URL on the class.
 */
export function mapStoredPass(options: GoogleMappingOptions, templateId: number, pass: Pass, assets: TemplateAssets): ServiceGoogleMapping {
  const origin = options.publicUrl?.replace(/\/+$/, '');
  const imageUrl = (path: string): string | undefined => {
    if (origin === undefined) return undefined;
    const dot = path.lastIndexOf('.');
    const [stem, extension] = dot <= 0 ? [path, ''] : [path.slice(0, dot).replace(/@[23]x$/, ''), path.slice(dot)];
    for (const variant of VARIANTS) {
      const candidate = `${stem}${variant}${extension}`;
      const hash = assets.hashes.get(candidate);
      if (hash !== undefined) return `${origin}${googleImagePath(templateId, hash, candidate)}`;
    }
    return undefined;
  };
  const { strings } = assets;
  const mapped = toGoogleWallet(pass, {
    issuerId: options.issuerId,
    imageUrl,
    classSuffix: templateClassSuffix(pass.passTypeIdentifier, templateId),
    ...(Object.keys(strings).length === 0 ? {} : { strings }),
  });
  const walletClass: GoogleWalletResourceBody =
    origin === undefined ? mapped.class : { ...mapped.class, callbackOptions: { url: `${origin}${GOOGLE_CALLBACK_PATH}` } };
  // An expired pass (its expirationDate passed: expired through the API, or by its template) is EXPIRED on Google's side too.
  const expiration = typeof pass.expirationDate === 'string' ? Date.parse(pass.expirationDate) : Number.NaN;
  const object = mapped.object['state'] === 'ACTIVE' && expiration <= Date.now() ? { ...mapped.object, state: 'EXPIRED' } : mapped.object;
  return {
    ...mapped,
    object,
    class: walletClass,
    classResource: resourceOf(mapped.type, 'Class'),
    objectResource: resourceOf(mapped.type, 'Object'),
    classId: String(walletClass['id']),
    objectId: String(mapped.object['id']),
  };
}

const resourceOf = (type: GoogleWalletType, kind: 'Class' | 'Object'): GoogleWalletResource => `${type}${kind}`;
