import type { GoogleCredentials, GoogleSavePayload, SaveUrlOptions } from './types.js';

/**
 * The signed "Add to Google Wallet" link, `https://pay.google.com/gp/v/save/<jwt>`.
 *
 * @example
 * ```ts
 * const url = await createSaveUrl(credentials, { objects: [{ type: 'generic', object }], classes: [{ type: 'generic', class: walletClass }] });
 * ```
 */
export async function createSaveUrl(credentials: GoogleCredentials, payload: GoogleSavePayload, options: SaveUrlOptions = {}): Promise<string> {
  void credentials;
  void payload;
  void options;
  throw new Error('not yet');
}
