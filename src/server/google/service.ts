// The service's Google Wallet setup: the createServer option and what the
// routes and the worker share.
import { createGoogleWalletClient } from '../../google/client.js';
import { checkIssuerId } from '../../google/ids.js';
import type { GoogleCredentials, GoogleRootKey, GoogleWalletClient } from '../../google/types.js';
import { createTemplateAssets, type TemplateAssets } from '../db/google-assets.js';
import { rootKeySource } from './root-keys.js';
import type { SqlQueryable } from '../db/sql.js';

/**
 * Google Wallet in the service (`createServer({ google })`): a class per
 * template, an object per pass, kept up to date through the durable queue;
 * save links; save/delete callbacks as `registration.*` events.
 *
 * @example
 * ```ts
 * const google: GoogleServiceOptions = {
 *   credentials: readGoogleCredentials(await readFile('service-account.json', 'utf8')),
 *   issuerId: '3388000000012345678',
 * };
 * const server = await createServer({ google, publicUrl: 'https://passes.example.com' });
 * ```
 */
export interface GoogleServiceOptions {
  /** The issuer's service account (`readGoogleCredentials`). */
  readonly credentials: GoogleCredentials;
  /** The issuer id from the Google Pay & Wallet Console. */
  readonly issuerId: string;
  /** The Wallet REST API's base URL; default Google's (a local stand-in in tests). */
  readonly apiUrl?: string | undefined;
  /** The OAuth token endpoint; default Google's. */
  readonly tokenUrl?: string | undefined;
  /** Root keys that sign callbacks; default Google's, fetched and cached (refetched every 6 hours). */
  readonly callbackKeys?: readonly GoogleRootKey[] | undefined;
  /** Used for the REST calls and the root keys instead of the global `fetch`. */
  readonly fetch?: typeof fetch | undefined;
  /** Time limit of one REST call, in ms; default 15 000. */
  readonly timeoutMs?: number | undefined;
}

/** What the Google routes and worker share at run time. */
export interface GoogleService {
  readonly issuerId: string;
  readonly credentials: GoogleCredentials;
  readonly client: GoogleWalletClient;
  readonly rootKeys: () => Promise<readonly GoogleRootKey[] | undefined>;
  /** The template's file hashes and strings, cached per template version. */
  readonly assets: (sql: SqlQueryable, templateId: number) => Promise<TemplateAssets | undefined>;
}

/** Sets up the client and the root-key cache from the options; a `GoogleWalletError` `invalid-issuer-id` for an issuer id that is not Google's digits. */
export function createGoogleService(options: GoogleServiceOptions): GoogleService {
  checkIssuerId(options.issuerId);
  const client = createGoogleWalletClient({
    credentials: options.credentials,
    ...(options.apiUrl === undefined ? {} : { baseUrl: options.apiUrl }),
    ...(options.tokenUrl === undefined ? {} : { tokenUrl: options.tokenUrl }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    // The queue retries on its own schedule: one quick retry here, not a long wait in a worker's batch.
    retries: 1,
  });
  return {
    issuerId: options.issuerId,
    credentials: options.credentials,
    client,
    rootKeys: rootKeySource(options.callbackKeys, { fetch: options.fetch }),
    assets: createTemplateAssets(),
  };
}
