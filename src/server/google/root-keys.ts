// Google's root signing keys for callbacks, fetched on a schedule and cached:
// never refetched because a callback failed to verify, so nobody can make the
// service hammer Google by posting bad signatures.
import { fetchGoogleRootKeys } from '../../google/root-keys.js';
import type { GoogleRootKey } from '../../google/types.js';

/** How long fetched keys are used before they are fetched again. */
const FRESH_MS = 6 * 60 * 60 * 1000;
/** After a failed fetch, how long before the next try (the keys in hand stay in use). */
const RETRY_MS = 60 * 1000;

/**
 * The root keys: the given ones, or Google's, fetched at first use and again
 * every 6 hours (a failed fetch keeps the keys in hand and is tried again a
 * minute later). Resolves to `undefined` when no keys could ever be had.
 */
export function rootKeySource(
  given: readonly GoogleRootKey[] | undefined,
  options: { readonly fetch?: typeof fetch | undefined; readonly now?: () => number } = {},
): () => Promise<readonly GoogleRootKey[] | undefined> {
  if (given !== undefined) return () => Promise.resolve(given);
  const now = options.now ?? Date.now;
  let keys: readonly GoogleRootKey[] | undefined;
  let nextFetchAt = 0;
  let pending: Promise<void> | undefined;
  const refresh = async (): Promise<void> => {
    try {
      keys = await fetchGoogleRootKeys(options.fetch === undefined ? {} : { fetch: options.fetch });
      nextFetchAt = now() + FRESH_MS;
    } catch {
      nextFetchAt = now() + RETRY_MS;
    }
  };
  return async () => {
    if (now() >= nextFetchAt) {
      // One fetch at a time, whoever asks meanwhile waits for it.
      pending ??= refresh().finally(() => {
        pending = undefined;
      });
      await pending;
    }
    return keys;
  };
}
