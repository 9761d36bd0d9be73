import { GoogleWalletError } from './error.js';
import { signJwt } from './jwt.js';
import type { GoogleCredentials, GoogleSavePayload, SaveUrlOptions } from './types.js';

/** Google's limit on the JWT of a save link. */
export const MAX_SAVE_JWT_LENGTH = 1800;

/**
 * The signed "Add to Google Wallet" link, `https://pay.google.com/gp/v/save/<jwt>`
 * (RS256 with the service account's key, `aud: "google"`, `typ: "savetowallet"`).
 * Objects and classes go into the JWT as given; a JWT over Google's 1,800
 * characters throws `save-link-too-long`: then insert the class and object
 * with the REST client first and put only `{ id, classId }` in the link.
 *
 * @example
 * ```ts
 * const { type, class: walletClass, object } = toGoogleWallet(pass, { issuerId });
 * const url = await createSaveUrl(credentials, { objects: [{ type, object }], classes: [{ type, class: walletClass }], origins: ['https://example.com'] });
 * ```
 */
export async function createSaveUrl(credentials: GoogleCredentials, payload: GoogleSavePayload, options: SaveUrlOptions = {}): Promise<string> {
  if (payload.objects.length === 0 && (payload.classes ?? []).length === 0) {
    throw new GoogleWalletError('empty-payload', 'A save link needs at least one object (or class).');
  }
  const lists: Record<string, unknown[]> = {};
  for (const { type, class: walletClass } of payload.classes ?? []) (lists[`${type}Classes`] ??= []).push(walletClass);
  for (const { type, object } of payload.objects) (lists[`${type}Objects`] ??= []).push(object);
  const claims = {
    iss: credentials.clientEmail,
    aud: 'google',
    typ: 'savetowallet',
    iat: Math.floor((options.now ?? Date.now()) / 1000),
    origins: [...(payload.origins ?? [])],
    payload: lists,
  };
  const jwt = await signJwt(credentials, claims);
  if (jwt.length > MAX_SAVE_JWT_LENGTH) {
    throw new GoogleWalletError(
      'save-link-too-long',
      `The save link's JWT has ${jwt.length} characters, over Google's ${MAX_SAVE_JWT_LENGTH}. Insert the class and object first (createGoogleWalletClient: upsert), then link only { id, classId } of the object.`,
    );
  }
  return `https://pay.google.com/gp/v/save/${jwt}`;
}
