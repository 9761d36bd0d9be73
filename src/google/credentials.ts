import type { GoogleCredentials } from './types.js';

/**
 * Reads and checks a service-account key file (its text or the parsed object).
 *
 * @example
 * ```ts
 * const credentials = readGoogleCredentials(await readFile('key.json', 'utf8'));
 * ```
 */
export function readGoogleCredentials(json: string | object): GoogleCredentials {
  void json;
  throw new Error('not yet');
}
