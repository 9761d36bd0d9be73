import { readLimited } from '../read-limited.js';
import { timeLimit } from '../time-limit.js';
import { GoogleWalletError } from './error.js';
import type { GoogleRootKey } from './types.js';

/** Where Google publishes the root keys that sign callback intermediate keys. */
export const GOOGLE_ROOT_KEYS_URL = 'https://pay.google.com/gp/m/issuer/keys';

/**
 * Fetches Google's current root signing keys for callbacks.
 *
 * Cache them: fetch at start, then on a schedule (hours, or before the
 * earliest `keyExpiration`), and pass them to `verifyGoogleCallback` as
 * `rootKeys`. Never refetch because a signature failed: anyone can send a bad
 * callback, and a service that refetches on each would hammer Google.
 *
 * @example
 * ```ts
 * let rootKeys = await fetchGoogleRootKeys();
 * setInterval(async () => { rootKeys = await fetchGoogleRootKeys(); }, 6 * 3600_000);
 * const result = await verifyGoogleCallback(body, { issuerId, rootKeys });
 * ```
 */
export async function fetchGoogleRootKeys(options: { fetch?: typeof fetch; url?: string; timeoutMs?: number } = {}): Promise<GoogleRootKey[]> {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const limit = timeLimit(timeoutMs);
  let text: string;
  try {
    const response = await Promise.race([doFetch(options.url ?? GOOGLE_ROOT_KEYS_URL, { signal: limit.signal }), limit.cutShort]);
    const bytes = await Promise.race([readLimited(response.body, 256 * 1024), limit.cutShort]);
    if (!response.ok || bytes === undefined)
      throw new GoogleWalletError('request-failed', `Google's root keys could not be read (HTTP ${response.status}).`, response.status);
    text = new TextDecoder().decode(bytes);
  } catch (error) {
    if (error instanceof GoogleWalletError) throw error;
    throw new GoogleWalletError(limit.timedOut ? 'timeout' : 'request-failed', "Google's root keys could not be fetched.");
  } finally {
    limit.dispose();
  }
  return parseRootKeys(text);
}

/**
 * The keys of a root-keys document (`{ keys: [{ keyValue, protocolVersion, keyExpiration? }] }`), as text or parsed.
 *
 * @example
 * ```ts
 * const rootKeys = parseRootKeys(await readFile('google-root-keys.json', 'utf8'));
 * ```
 */
export function parseRootKeys(document: string | object): GoogleRootKey[] {
  let value: unknown = document;
  try {
    if (typeof document === 'string') value = JSON.parse(document);
  } catch {
    throw new GoogleWalletError('bad-response', 'The root keys are not JSON.');
  }
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new GoogleWalletError('bad-response', 'The root keys document has no "keys" array.');
  return keys
    .filter(
      (key): key is Record<string, unknown> =>
        key !== null && typeof key === 'object' && typeof key.keyValue === 'string' && typeof key.protocolVersion === 'string',
    )
    .map((key) => ({
      keyValue: key['keyValue'] as string,
      protocolVersion: key['protocolVersion'] as string,
      ...(typeof key['keyExpiration'] === 'string' ? { keyExpiration: key['keyExpiration'] } : {}),
    }));
}
