import type { Pass } from '../types.js';
import type { GoogleMapOptions, GoogleWalletPass } from './types.js';

/**
 * Maps a rendered pass.json to the Google Wallet class and object of the matching type, with a loss report.
 *
 * @example
 * ```ts
 * const { type, class: walletClass, object, losses } = toGoogleWallet(pass, { issuerId: '3388000000012345678' });
 * ```
 */
export function toGoogleWallet(pass: Pass, options: GoogleMapOptions): GoogleWalletPass {
  void pass;
  void options;
  throw new Error('not yet');
}
