import type { GoogleWalletClient, GoogleWalletClientOptions } from './types.js';

/**
 * A Google Wallet REST client authenticated with a service account.
 *
 * @example
 * ```ts
 * const client = createGoogleWalletClient({ credentials });
 * await client.upsert('genericObject', object);
 * ```
 */
export function createGoogleWalletClient(options: GoogleWalletClientOptions): GoogleWalletClient {
  void options;
  throw new Error('not yet');
}
