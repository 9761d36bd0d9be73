import type { GoogleRootKey } from './types.js';

/**
 * Fetches Google's current root signing keys. Cache them (a few hours) and refetch on a schedule, not per callback.
 *
 * @example
 * ```ts
 * const rootKeys = await fetchGoogleRootKeys();
 * ```
 */
export async function fetchGoogleRootKeys(options: { fetch?: typeof fetch; url?: string } = {}): Promise<GoogleRootKey[]> {
  void options;
  throw new Error('not yet');
}
